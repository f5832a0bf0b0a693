// People: profiles, contacts, blocks, and starting a direct conversation (docs/protocol.md §4–§6, §11).
import type { InvokeHandlers } from '../../shared/ipc'
import { AppError } from './app-error'
import type { FeatureContext } from './feature-context'

type PeopleChannel = Extract<keyof InvokeHandlers, `people:${string}` | `contacts:${string}` | `chats:${string}`>
export type PeopleHandlers = Pick<InvokeHandlers, PeopleChannel>

// FOUNDATION: being built (issue 9); every handler below is replaced by the real one.
const notYet = async (): Promise<never> => {
  throw new AppError('INTERNAL', 'Not built yet.')
}

export function peopleHandlers(_context: FeatureContext): PeopleHandlers {
  return {
    'people:profile': notYet,
    'people:block': notYet,
    'people:unblock': notYet,
    'people:blocked': notYet,
    'people:candidates': notYet,
    'contacts:list': notYet,
    'contacts:addFromLink': notYet,
    'contacts:import': notYet,
    'contacts:remove': notYet,
    'contacts:myLink': notYet,
    'chats:start': notYet
  }
}
