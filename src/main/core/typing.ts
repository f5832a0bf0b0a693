// The user's typing goes out at most once every 5 s per conversation (§14.3): often enough that
// others, who count a typist stopped after 5 s of silence, keep seeing it while the user types.
import type { ConversationId } from '../../shared/domain'

export const TYPING_INTERVAL_MS = 5_000

export class TypingPublisher {
  readonly #publish: (conversationId: ConversationId) => void
  readonly #now: () => number
  readonly #lastSent = new Map<ConversationId, number>()

  constructor(publish: (conversationId: ConversationId) => void, now: () => number) {
    this.#publish = publish
    this.#now = now
  }

  /** The user typed in this conversation. */
  typed(conversationId: ConversationId): void {
    const now = this.#now()
    const last = this.#lastSent.get(conversationId)
    if (last !== undefined && now - last < TYPING_INTERVAL_MS) return
    this.#lastSent.set(conversationId, now)
    this.#publish(conversationId)
  }
}
