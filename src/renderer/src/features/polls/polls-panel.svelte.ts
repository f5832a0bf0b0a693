// The Polls panel of a group: PL6's pages, ten polls each, newest first.
import type { ConversationId } from '@shared/conversation-id'
import type { Poll } from '@shared/polls'
import { call, messageOf } from '$lib/main-process'
import { RetryWhenBack } from '$lib/retry-when-back'

export class PollsPanelModel {
  readonly conversationId: ConversationId
  polls = $state<Poll[]>([])
  /** The token for the next page; null once the last page is in. */
  next = $state<string | null>(null)
  loading = $state(false)
  loaded = $state(false)
  error = $state<string | null>(null)
  /** A page that failed for want of the service is asked for again once it is back. */
  readonly #whenBack = new RetryWhenBack(() => void this.retry())

  constructor(conversationId: ConversationId) {
    this.conversationId = conversationId
  }

  /** The page that failed, again. */
  async retry(): Promise<void> {
    await (this.loaded ? this.loadMore() : this.loadFirst())
  }

  /** The panel closed: nothing is asked for any more. */
  stop(): void {
    this.#whenBack.cancel()
  }

  async loadFirst(): Promise<void> {
    await this.#load(null, [])
  }

  async loadMore(): Promise<void> {
    if (this.next !== null) await this.#load(this.next, this.polls)
  }

  async #load(token: string | null, before: Poll[]): Promise<void> {
    if (this.loading) return
    this.#whenBack.cancel()
    this.loading = true
    this.error = null
    try {
      const page = await call('polls:list', { conversationId: this.conversationId, next: token })
      this.polls = [...before, ...page.polls]
      this.next = page.next
      this.loaded = true
    } catch (error) {
      this.error = messageOf(error)
      this.#whenBack.failed(error)
    } finally {
      this.loading = false
    }
  }
}
