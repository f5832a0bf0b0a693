// Push is live again, on first connecting or after an outage: what it missed is read from the
// service for every conversation the user has open or had open, and the list fetched afresh. A
// catch-up that failed (its read lost on the way, say) goes again on a timer: push is up by then
// and asks for none, so what it missed would show only after the next outage.
import type { ConversationId } from '@shared/conversation-id'
import type { Log } from '../log/log'
import type { Conversations } from './conversations'
import type { OpenConversation } from './open-conversation'
import type { Outbox } from './outbox'
import { RetryTimer } from './retry-timer'
import type { Timelines } from './timelines'
import type { Timers } from './timers'

/** First and longest wait before a catch-up that failed is tried again. */
const FIRST_CATCH_UP_RETRY_MS = 1_000
const LONGEST_CATCH_UP_RETRY_MS = 30_000

export interface CatchUpDependencies {
  timelines: Pick<Timelines, 'catchUp' | 'loadedConversations'>
  conversations: Pick<Conversations, 'markRead'>
  opened: Pick<OpenConversation, 'id'>
  outbox: Pick<Outbox, 'resume'>
  /** Someone is signed in. */
  signedIn(): boolean
  /** Fetches the list again; rejects when it could not. */
  refreshConversations(): Promise<unknown>
  log: Log
  timers?: Timers
}

export class CatchUp {
  readonly #deps: CatchUpDependencies
  readonly #retry: RetryTimer

  constructor(deps: CatchUpDependencies) {
    this.#deps = deps
    this.#retry = new RetryTimer(
      { firstMs: FIRST_CATCH_UP_RETRY_MS, longestMs: LONGEST_CATCH_UP_RETRY_MS, ...(deps.timers === undefined ? {} : { timers: deps.timers }) },
      () => void this.run()
    )
  }

  async run(): Promise<void> {
    const { timelines, log } = this.#deps
    if (!this.#deps.signedIn()) return
    this.#retry.cancel()
    this.#deps.outbox.resume()
    let complete = true
    await Promise.all(
      timelines.loadedConversations().map(async (conversationId) => {
        try {
          await timelines.catchUp(conversationId)
        } catch (error) {
          complete = false
          log.warn(`could not catch up on ${conversationId}`, error)
        }
      })
    )
    if (complete) this.#retry.succeeded()
    else if (this.#deps.signedIn()) this.#retry.schedule()
    await this.#deps.refreshConversations().catch(() => undefined)
    const open = this.#deps.opened.id
    if (open !== null) this.#deps.conversations.markRead(open)
  }

  /**
   * One conversation, just opened from what this device kept: brings what is newer. When the
   * service is out of reach it is tried again with the rest, as after an outage.
   */
  async conversation(conversationId: ConversationId): Promise<void> {
    try {
      await this.#deps.timelines.catchUp(conversationId)
    } catch (error) {
      this.#deps.log.warn(`could not catch up on ${conversationId}`, error)
      if (this.#deps.signedIn()) this.#retry.schedule()
    }
  }

  /** No catch-up waits to go again (signed out, or stopping). */
  cancel(): void {
    this.#retry.cancel()
  }
}
