// Groups that are gone for the user. The service tells nobody but the owner that a group was
// deleted, nor anyone but the person that they were put out of one (docs/protocol.md §14.5): a
// call on the group answering 404 is how the app learns it. Every call on the service goes through
// `watchingForGoneGroups`, so whichever call meets the 404 first (a send, the history, a catch-up,
// a mute, a poll, a pin), the group leaves the list at once instead of lingering until the list
// is next fetched.
import { type ConversationId, conversationKind } from '@shared/conversation-id'
import { errorCodeOf } from './failures'

export interface GoneGroupsDependencies {
  /** Whether the list holds this group: only a listed group can leave it. */
  isListed(groupId: ConversationId): boolean
  /**
   * G4, which answers 404 exactly when the group is gone for the user. A 404 from a call on one
   * of its messages may mean only that message is gone, so the group itself is asked.
   */
  readGroup(groupId: ConversationId): Promise<unknown>
  /** Takes the group out of the list, its history and push. */
  gone(groupId: ConversationId): void
}

export class GoneGroups {
  readonly #deps: GoneGroupsDependencies
  /** Groups being asked about, so a burst of 404s (a queue of sends, say) asks once. */
  readonly #asking = new Set<ConversationId>()

  constructor(deps: GoneGroupsDependencies) {
    this.#deps = deps
  }

  /** A call on this conversation met NOT_FOUND: when it is a listed group, finds out whether it is gone. */
  async suspect(conversationId: ConversationId): Promise<void> {
    if (conversationKind(conversationId) !== 'group' || !this.#deps.isListed(conversationId) || this.#asking.has(conversationId)) return
    this.#asking.add(conversationId)
    try {
      await this.#deps.readGroup(conversationId)
    } catch (error) {
      // Anything but 404 (the service out of reach, say) proves nothing: the group stays.
      if (errorCodeOf(error) === 'NOT_FOUND' && this.#deps.isListed(conversationId)) this.#deps.gone(conversationId)
    } finally {
      this.#asking.delete(conversationId)
    }
  }
}

type ServiceMethods<T> = { [K in keyof T]: (...args: never[]) => Promise<unknown> }

/**
 * The same service, each of its methods telling `goneGroups` of a NOT_FOUND met by a call whose
 * first argument is a conversation id. The failure still reaches the caller as it was.
 */
export function watchingForGoneGroups<T extends ServiceMethods<T>>(service: T, goneGroups: GoneGroups): T {
  const watched: Record<string, (...args: never[]) => Promise<unknown>> = {}
  for (const [name, method] of Object.entries<(...args: never[]) => Promise<unknown>>(service)) {
    watched[name] = async (...args) => {
      try {
        return await method(...args)
      } catch (error) {
        const [first] = args as readonly unknown[]
        if (errorCodeOf(error) === 'NOT_FOUND' && typeof first === 'string') void goneGroups.suspect(first)
        throw error
      }
    }
  }
  return watched as T
}
