// One poll as its message shows it. Votes push nothing (§14.5), so while the poll is open and on
// screen its results are fetched again every few seconds; its end arrives as a `poll.finished`
// system message, and its expiry is also watched here in case that message is late.
import type { ConversationId } from '@shared/conversation-id'
import type { Poll } from '@shared/polls'
import { call, listen, messageOf } from '$lib/main-process'
import { RetryWhenBack } from '$lib/retry-when-back'

export const POLL_REFRESH_MS = 5_000

export class PollModel {
  readonly conversationId: ConversationId
  readonly pollId: string
  poll = $state<Poll | null>(null)
  /** The options chosen in the form, before Vote. */
  chosen = $state<string[]>([])
  busy = $state(false)
  error = $state<string | null>(null)
  #refresh: ReturnType<typeof setInterval> | null = null
  #expiry: ReturnType<typeof setTimeout> | null = null
  /** The timed refresh needs a poll to refresh: one whose first read failed for want of the service is read once it is back. */
  readonly #whenBack = new RetryWhenBack(() => void this.load())

  constructor(conversationId: ConversationId, pollId: string) {
    this.conversationId = conversationId
    this.pollId = pollId
  }

  /** Loads the poll and keeps it current until the returned function is called. */
  start(): () => void {
    void this.load()
    const stopListening = listen('messages:received', (message) => {
      if (message.event?.kind === 'pollFinished' && message.event.pollId === this.pollId) void this.load()
    })
    this.#refresh = setInterval(() => {
      if (this.poll !== null && !this.poll.ended && !this.busy) void this.load()
    }, POLL_REFRESH_MS)
    return () => {
      stopListening()
      this.#whenBack.cancel()
      if (this.#refresh !== null) clearInterval(this.#refresh)
      if (this.#expiry !== null) clearTimeout(this.#expiry)
    }
  }

  async load(): Promise<void> {
    this.#whenBack.cancel()
    try {
      this.#show(await call('polls:get', { conversationId: this.conversationId, pollId: this.pollId }))
      this.error = null
    } catch (error) {
      this.error = messageOf(error)
      if (this.poll === null) this.#whenBack.failed(error)
    }
  }

  choose(optionId: string, on: boolean): void {
    if (this.poll?.multiple !== true) this.chosen = on ? [optionId] : []
    else if (!on) this.chosen = this.chosen.filter((id) => id !== optionId)
    else if (!this.chosen.includes(optionId)) this.chosen = [...this.chosen, optionId]
  }

  async vote(): Promise<void> {
    if (this.chosen.length === 0) {
      this.error = 'Choose an option first.'
      return
    }
    await this.#act(() => call('polls:vote', { conversationId: this.conversationId, pollId: this.pollId, optionIds: this.chosen }))
  }

  async end(): Promise<void> {
    await this.#act(() => call('polls:end', { conversationId: this.conversationId, pollId: this.pollId }))
  }

  async #act(action: () => Promise<Poll>): Promise<void> {
    this.busy = true
    this.error = null
    try {
      this.#show(await action())
    } catch (error) {
      this.error = messageOf(error)
    } finally {
      this.busy = false
    }
  }

  #show(poll: Poll): void {
    const first = this.poll === null
    this.poll = poll
    if (first || this.chosen.length === 0) this.chosen = [...poll.myVotes]
    if (this.#expiry !== null) clearTimeout(this.#expiry)
    this.#expiry = null
    if (!poll.ended) {
      // setTimeout holds at most about 24.8 days; a later expiry is caught by the next refresh.
      const wait = Math.min(poll.expiresAt * 1000 - Date.now() + 1000, 2_000_000_000)
      this.#expiry = setTimeout(() => void this.load(), Math.max(wait, 0))
    }
  }
}
