// Groups the user creates, manages, joins and leaves, and their members (docs/protocol.md §7, §9).
import type { InvokeHandlers } from '../../shared/ipc'
import { AppError } from './app-error'
import type { FeatureContext } from './feature-context'

type GroupChannel = Extract<keyof InvokeHandlers, `groups:${string}` | `members:${string}`>
export type GroupHandlers = Pick<InvokeHandlers, GroupChannel>

// FOUNDATION: being built (issue 9); every handler below is replaced by the real one.
const notYet = async (): Promise<never> => {
  throw new AppError('INTERNAL', 'Not built yet.')
}

export function groupHandlers(_context: FeatureContext): GroupHandlers {
  return {
    'groups:create': notYet,
    'groups:get': notYet,
    'groups:update': notYet,
    'groups:destroy': notYet,
    'groups:transferOwnership': notYet,
    'groups:leave': notYet,
    'groups:former': notYet,
    'groups:rejoin': notYet,
    'groups:join': notYet,
    'groups:pendingJoins': notYet,
    'groups:forgetPendingJoin': notYet,
    'members:former': notYet,
    'members:add': notYet,
    'members:remove': notYet,
    'members:ban': notYet,
    'members:setRole': notYet,
    'members:setNickname': notYet,
    'members:joinRequests': notYet,
    'members:decide': notYet
  }
}
