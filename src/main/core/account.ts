// The account as its owner manages it: profile, password, two-step verification and signed-in
// apps (docs/protocol.md §3, §4).
import type { InvokeHandlers } from '@shared/window-api'
import type { FeatureContext } from './feature-context'
import { Profile } from './profile'
import { SignedInApps } from './signed-in-apps'
import { TwoStep } from './two-step'

type AccountChannel = Extract<keyof InvokeHandlers, `account:${string}` | `security:${string}`>
export type AccountHandlers = Pick<InvokeHandlers, AccountChannel>

export function accountHandlers(context: FeatureContext): AccountHandlers {
  const me = (): ReturnType<FeatureContext['me']> => context.me()
  const twoStep = new TwoStep({ service: context.gateway, me, switchToken: (issue) => context.switchToken(issue), log: context.log })
  const signedInApps = new SignedInApps({ service: context.gateway, me, refusalMeans: (notice, run) => context.refusalMeans(notice, run) })
  const profile = new Profile({ service: context.gateway, meChanged: context.meChanged, sessionEnded: context.endSession })
  return {
    'account:get': () => profile.account(),
    'account:updateProfile': ({ changes }) => profile.update(changes),
    'account:changePassword': async ({ current, next }) => {
      await profile.changePassword(current, next)
      return null
    },
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
