// The conversation the user has open. Push follows it while it is (its channel carries typing,
// edits and reactions that the user's own channel does not), and the notifier stays quiet for it
// while the window has the focus. It is kept in the account's store, so that the next start
// opens it again from the device, as the app was left.
import type { ConversationId } from '@shared/conversation-id'
import type { PushFeed } from './ports'
import type { StoreKeeper } from './store-keeper'

export interface OpenConversationDependencies {
  push: Pick<PushFeed, 'follow' | 'unfollow'>
  /** The account's store, whose writes run one behind another; null: this app keeps nothing on the device. */
  keeper: Pick<StoreKeeper, 'inTurn'> | null
}

export class OpenConversation {
  readonly #deps: OpenConversationDependencies
  #id: ConversationId | null = null
  /** Whose store keeps it: the account signed in; null while none is. */
  #accountId: string | null = null
  /** The conversation left open, as the store had it at sign-in and as opened or closed since. */
  #leftOpen: Promise<ConversationId | null> = Promise.resolve(null)

  constructor(deps: OpenConversationDependencies) {
    this.#deps = deps
  }

  /** The open conversation's id; null when none is. */
  get id(): ConversationId | null {
    return this.#id
  }

  /** The account signed in: which conversation it left open is read from its store, once open. */
  signedIn(accountId: string): void {
    this.#accountId = accountId
    const kept = this.#deps.keeper?.inTurn(accountId, (store) => store.leftOpen())
    this.#leftOpen = kept === undefined ? Promise.resolve(null) : kept.then((answer) => answer?.value ?? null)
  }

  /**
   * The conversation open when the app last stopped, or when the page was last closed or reloaded
   * in this run; null when none was, or it could not be read.
   */
  leftOpen(): Promise<ConversationId | null> {
    return this.#leftOpen
  }

  open(conversationId: ConversationId): void {
    if (this.#id !== null && this.#id !== conversationId) this.#push.unfollow(this.#id)
    this.#id = conversationId
    this.#push.follow(conversationId)
    this.#keep(conversationId)
  }

  /** Closes `conversationId` if it is the one open; another stays open. */
  close(conversationId: ConversationId): void {
    if (this.#id !== conversationId) return
    this.#push.unfollow(conversationId)
    this.#id = null
    this.#keep(null)
  }

  /** A new push connection follows the open conversation again. */
  followAgain(): void {
    if (this.#id !== null) this.#push.follow(this.#id)
  }

  /** Signed out: nothing is open, and push has stopped with the session. What the store kept goes with it. */
  clear(): void {
    this.#id = null
    this.#accountId = null
    this.#leftOpen = Promise.resolve(null)
  }

  get #push(): Pick<PushFeed, 'follow' | 'unfollow'> {
    return this.#deps.push
  }

  #keep(conversationId: ConversationId | null): void {
    this.#leftOpen = Promise.resolve(conversationId)
    const accountId = this.#accountId
    if (accountId !== null) void this.#deps.keeper?.inTurn(accountId, (store) => store.keepLeftOpen(conversationId))
  }
}
