// The user's requests to join groups through a link that wait for a manager (G8's 202). The
// service lists no such thing for the one asking, so this device keeps them, per account, until
// the group shows up in the user's list (approved: the service pushes `membership.create`) or the
// user lets one go (a denial is never announced, docs/protocol.md §14.5).
import type { ConversationId } from '@shared/conversation-id'
import type { PendingJoin } from '@shared/groups'
import type { Preferences } from './ports'

export class PendingJoins {
  readonly #preferences: Preferences
  readonly #accountId: () => string

  constructor(preferences: Preferences, accountId: () => string) {
    this.#preferences = preferences
    this.#accountId = accountId
  }

  /** The requests still waiting, oldest first; those whose group `isListed` are settled, and forgotten here. */
  list(isListed: (groupId: ConversationId) => boolean): PendingJoin[] {
    const kept = this.#kept()
    const waiting = kept.filter((request) => !isListed(request.groupId))
    if (waiting.length !== kept.length) this.#save(waiting)
    return waiting
  }

  /** Keeps a request; a repeat for the same group replaces the one before. */
  remember(request: PendingJoin): void {
    this.#save([...this.#kept().filter((kept) => kept.groupId !== request.groupId), request])
  }

  forget(groupId: ConversationId): void {
    const kept = this.#kept()
    if (kept.some((request) => request.groupId === groupId)) this.#save(kept.filter((request) => request.groupId !== groupId))
  }

  #kept(): PendingJoin[] {
    return this.#preferences.get('pendingJoins')?.[this.#accountId()] ?? []
  }

  #save(requests: PendingJoin[]): void {
    this.#preferences.set('pendingJoins', { ...this.#preferences.get('pendingJoins'), [this.#accountId()]: requests })
  }
}
