// The conversation the user has open. Push follows it while it is (its channel carries typing,
// edits and reactions that the user's own channel does not), and the notifier stays quiet for it
// while the window has the focus.
import type { ConversationId } from '@shared/conversation-id'
import type { PushFeed } from './ports'

export class OpenConversation {
  readonly #push: Pick<PushFeed, 'follow' | 'unfollow'>
  #id: ConversationId | null = null

  constructor(push: Pick<PushFeed, 'follow' | 'unfollow'>) {
    this.#push = push
  }

  /** The open conversation's id; null when none is. */
  get id(): ConversationId | null {
    return this.#id
  }

  open(conversationId: ConversationId): void {
    if (this.#id !== null && this.#id !== conversationId) this.#push.unfollow(this.#id)
    this.#id = conversationId
    this.#push.follow(conversationId)
  }

  /** Closes `conversationId` if it is the one open; another stays open. */
  close(conversationId: ConversationId): void {
    if (this.#id !== conversationId) return
    this.#push.unfollow(conversationId)
    this.#id = null
  }

  /** A new push connection follows the open conversation again. */
  followAgain(): void {
    if (this.#id !== null) this.#push.follow(this.#id)
  }

  /** Signed out: nothing is open, and push has stopped with the session. */
  clear(): void {
    this.#id = null
  }
}
