// The account as its owner manages it: profile, password, two-step verification and signed-in
// apps (docs/protocol.md §3, §4).
import type { InvokeHandlers } from '../../shared/ipc'
import { AppError } from './app-error'
import type { FeatureContext } from './feature-context'
import { SignedInApps } from './signed-in-apps'
import { TwoStep } from './two-step'

type AccountChannel = Extract<keyof InvokeHandlers, `account:${string}` | `security:${string}`>
export type AccountHandlers = Pick<InvokeHandlers, AccountChannel>

// FOUNDATION: being built (issue 10); every handler below is replaced by the real one.
const notYet = async (): Promise<never> => {
  throw new AppError('INTERNAL', 'Not built yet.')
}

export function accountHandlers(context: FeatureContext): AccountHandlers {
  const me = (): ReturnType<FeatureContext['me']> => context.me()
  const twoStep = new TwoStep({ service: context.gateway, me, switchToken: (issue) => context.switchToken(issue), log: context.log })
  const signedInApps = new SignedInApps({ service: context.gateway, me })
  return {
    'account:get': notYet,
    'account:updateProfile': notYet,
    'account:changePassword': notYet,
    'security:beginTwoStep': () => twoStep.begin(),
    'security:confirmTwoStep': ({ code }) => twoStep.confirm(code),
    'security:cancelTwoStep': async () => {
      twoStep.cancel()
      return null
    },
    'security:disableTwoStep': () => twoStep.disable(),
    'security:newBackupCode': () => twoStep.newBackupCode(),
    'security:signedInApps': () => signedInApps.list(),
    'security:signOutApp': ({ id }) => signedInApps.signOut(id)
  }
}
