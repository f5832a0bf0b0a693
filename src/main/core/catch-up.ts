// Push is live again, on first connecting or after an outage: what it missed is read from the
// service for every conversation the user has open or had open, and the list fetched afresh. A
// catch-up that failed (its read lost on the way, say) goes again on a timer: push is up by then
// and asks for none, so what it missed would show only after the next outage.
import { compareIds, type ConversationId } from '@shared/conversation-id'
import type { Log } from '../log/log'
import type { Conversations } from './conversations'
import type { OpenConversation } from './open-conversation'
import type { Outbox } from './outbox'
import type { LocalStore } from './ports'
import { RetryTimer } from './retry-timer'
import type { Timelines } from './timelines'
import type { Timers } from './timers'

/** First and longest wait before a catch-up that failed is tried again. */
const FIRST_CATCH_UP_RETRY_MS = 1_000
const LONGEST_CATCH_UP_RETRY_MS = 30_000

export interface CatchUpDependencies {
  timelines: Pick<Timelines, 'catchUp' | 'catchUpKept' | 'upToDate' | 'loadedConversations'>
  conversations: Pick<Conversations, 'markRead' | 'list'>
  /** The signed-in account's store, null while there is none. */
  kept(): Pick<LocalStore, 'syncPoints'> | null
  /** Every conversation is as up to date as the service could make it: what waits for that may start. */
  caughtUp?(): void
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

  /**
   * The conversations open this run first, then the list, then every other conversation this
   * device keeps that the list says has newer messages, newest conversations first, one at a time.
   */
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
    const listed = await this.#deps.refreshConversations().then(
      () => true,
      () => false
    )
    const open = this.#deps.opened.id
    if (open !== null) this.#deps.conversations.markRead(open)
    // What is kept is brought up to date against the list the service just gave, so a list from
    // this device, older than the service's, never sends it reading.
    if (listed && !(await this.#catchUpKept())) complete = false
    if (complete) {
      this.#retry.succeeded()
      this.#deps.caughtUp?.()
    } else if (this.#deps.signedIn()) this.#retry.schedule()
  }

  /** Answers whether every kept conversation that needed it was read. */
  async #catchUpKept(): Promise<boolean> {
    const { timelines, log } = this.#deps
    const points = await this.#deps
      .kept()
      ?.syncPoints()
      .catch((error: unknown) => {
        log.warn('could not read where the kept conversations go on from', error)
        return null
      })
    if (points === undefined || points === null) return true
    const open = new Set(timelines.loadedConversations())
    let complete = true
    for (const { id, lastMessageId } of this.#deps.conversations.list()) {
      const keptThrough = points.get(id)
      if (open.has(id) || keptThrough === undefined || lastMessageId === null) continue
      if (compareIds(lastMessageId, keptThrough) <= 0) {
        // Nothing to read, but push goes on from what is kept (for whoever is still signed in).
        if (this.#deps.signedIn()) timelines.upToDate(id, keptThrough)
        continue
      }
      if (!this.#deps.signedIn()) return false
      try {
        await timelines.catchUpKept(id, keptThrough)
      } catch (error) {
        complete = false
        log.warn(`could not catch up on the kept ${id}`, error)
      }
    }
    return complete
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
