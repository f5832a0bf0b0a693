// Whom the user blocks, and whether they and someone else can write to each other, as core last
// learned it: so a chat says what the profile says. A profile reads U3 and B1; a chat
// asks here as it opens, and hears here of each change core learns of afterwards: a block or an
// unblock made in this app, a profile read afresh, a message refused because the other person
// blocks the user (the service announces no block, docs/protocol.md §14.5).
//
// The service would take a message from the user to someone they block (§5 refuses only the
// blocked one's); the app does not. The profile tells the user to unblock them first, so the chat
// offers no Message box, and the outbox refuses such a message before it goes, however it came
// (an old window, a notification's reply, a retry).
import type { ChatStanding } from '@shared/people'

export interface BlocksDependencies {
  /** B1: the ids of the people the user blocks. */
  blocked(): Promise<string[]>
  /** U3's `direct_message_capable`: a message either way would go through (neither blocks the other). */
  canMessage(userId: string): Promise<boolean>
  /** What core knows of the two changed: a chat with them open shows it. */
  changed(userId: string, standing: ChatStanding): void
}

export class Blocks {
  readonly #deps: BlocksDependencies
  /** Whom the user blocks, as B1 last said; null until it is read this session. */
  #blocked: Set<string> | null = null
  readonly #standings = new Map<string, ChatStanding>()
  /** Whose standing is being read again after they wrote, so a burst of their messages asks once. */
  readonly #rereading = new Set<string>()
  /** Bumped by `forget`, so an answer asked for before it is not kept after it. */
  #generation = 0

  constructor(deps: BlocksDependencies) {
    this.#deps = deps
  }

  /** B1 was read (for a profile, say): whom the user blocks now. */
  blockedAre(userIds: readonly string[]): void {
    this.#blocked = new Set(userIds)
    for (const [userId, standing] of this.#standings) {
      const blockedByMe = this.#blocked.has(userId)
      // Unblocked elsewhere: whether they block the user is not known, and a refused message will say.
      if (blockedByMe !== standing.blockedByMe) this.learned(userId, { canMessage: !blockedByMe, blockedByMe })
    }
  }

  /** A profile read afresh, or a block or an unblock done: where the two stand now. */
  learned(userId: string, standing: ChatStanding): void {
    if (this.#blocked !== null) {
      if (standing.blockedByMe) this.#blocked.add(userId)
      else this.#blocked.delete(userId)
    }
    const before = this.#standings.get(userId)
    this.#standings.set(userId, standing)
    if (before?.canMessage !== standing.canMessage || before.blockedByMe !== standing.blockedByMe) this.#deps.changed(userId, standing)
  }

  /** The service refused the user's message to them (C3's 403): they block the user. */
  refusedBy(userId: string): void {
    this.learned(userId, { canMessage: false, blockedByMe: this.#blocked?.has(userId) ?? false })
  }

  /**
   * They wrote to the user. Said not to accept the user's messages, they may have unblocked the
   * user since (nobody is told of that either): where the two stand is read again.
   */
  heardFrom(userId: string): void {
    const standing = this.#standings.get(userId)
    if (standing === undefined || standing.canMessage || standing.blockedByMe || this.#rereading.has(userId)) return
    this.#rereading.add(userId)
    this.standingWith(userId)
      .catch(() => undefined)
      .finally(() => this.#rereading.delete(userId))
  }

  /** Where the user and someone stand, read afresh (U3, then B1 when either blocks the other): a chat opening. */
  async standingWith(userId: string): Promise<ChatStanding> {
    const generation = this.#generation
    const canMessage = await this.#deps.canMessage(userId)
    const blockedByMe = !canMessage && (await this.#blockedIds()).has(userId)
    const standing: ChatStanding = { canMessage, blockedByMe }
    if (generation === this.#generation) this.learned(userId, standing)
    return standing
  }

  /** Whether the user blocks them, as B1 last said (read once a session when it has not been). */
  async blocks(userId: string): Promise<boolean> {
    return (await this.#blockedIds()).has(userId)
  }

  /** Signed out: what was learned belonged to that session. */
  forget(): void {
    this.#generation += 1
    this.#blocked = null
    this.#standings.clear()
    this.#rereading.clear()
  }

  async #blockedIds(): Promise<Set<string>> {
    if (this.#blocked !== null) return this.#blocked
    const generation = this.#generation
    const ids = await this.#deps.blocked()
    if (generation !== this.#generation) return new Set(ids)
    this.blockedAre(ids)
    return this.#blocked ?? new Set(ids)
  }
}

/** Why a message to someone the user blocks stayed unsent, in the words of their profile. */
export function unsentToBlocked(name: string): string {
  return `Not sent: you block ${name}. Unblock them to send it.`
}
