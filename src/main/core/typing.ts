// The user's typing goes out at most once every 5 s per conversation (§14.3): often enough that
// others, who count a typist stopped after 5 s of silence, keep seeing it while the user types.
// The others also count them stopped as soon as their message arrives, so a message that lands
// ends the quiet spell: the next keystroke, usually the next message's first, says so again.
import type { ConversationId } from '@shared/conversation-id'

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

  /** A message of the user's landed in this conversation (from this device or another). */
  messageLanded(conversationId: ConversationId): void {
    this.#lastSent.delete(conversationId)
  }
}
