// The account as its owner manages it: profile, password, two-step verification and signed-in
// apps (docs/protocol.md §3, §4).
import type { InvokeHandlers } from '../../shared/ipc'
import { AppError } from './app-error'
import type { FeatureContext } from './feature-context'

type AccountChannel = Extract<keyof InvokeHandlers, `account:${string}` | `security:${string}`>
export type AccountHandlers = Pick<InvokeHandlers, AccountChannel>

// FOUNDATION: being built (issue 10); every handler below is replaced by the real one.
const notYet = async (): Promise<never> => {
  throw new AppError('INTERNAL', 'Not built yet.')
}

export function accountHandlers(_context: FeatureContext): AccountHandlers {
  return {
    'account:get': notYet,
    'account:updateProfile': notYet,
    'account:changePassword': notYet,
    'security:beginTwoStep': notYet,
    'security:confirmTwoStep': notYet,
    'security:cancelTwoStep': notYet,
    'security:disableTwoStep': notYet,
    'security:newBackupCode': notYet,
    'security:signedInApps': notYet,
    'security:signOutApp': notYet
  }
}
