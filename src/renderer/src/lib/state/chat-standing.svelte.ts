// Whether the user and the other person of the open chat can write to each other: read as the chat
// opens, and followed as main learns of a change (a block or an unblock, a refused message), so the
// chat says what that person's profile says.
import type { ChatStanding } from '@shared/people'
import { call, listen, messageOf } from '../main-process'

export class ChatStandingModel {
  /** Null while not known: the Message box stays, and a refused message says why. */
  standing = $state<ChatStanding | null>(null)
  busy = $state(false)
  /** Why the last unblock failed. */
  error = $state<string | null>(null)
  #userId: string | null = null

  listen(): () => void {
    return listen('people:standingChanged', ({ userId, ...standing }) => {
      if (userId === this.#userId) this.standing = standing
    })
  }

  /** Reads afresh where the user and `userId` stand; null for a conversation that is not a chat. */
  async load(userId: string | null): Promise<void> {
    this.#userId = userId
    this.standing = null
    this.error = null
    if (userId === null) return
    try {
      const standing = await call('people:standing', { userId })
      if (this.#userId === userId) this.standing = standing
    } catch {
      // Not known (the service out of reach, say): writing stays open, and the outbox says why a message is refused.
    }
  }

  async unblock(): Promise<void> {
    const userId = this.#userId
    if (userId === null || this.busy) return
    this.busy = true
    this.error = null
    try {
      const { canMessage, blockedByMe } = await call('people:unblock', { userId })
      if (this.#userId === userId) this.standing = { canMessage, blockedByMe }
    } catch (error) {
      if (this.#userId === userId) this.error = messageOf(error)
    } finally {
      this.busy = false
    }
  }
}
