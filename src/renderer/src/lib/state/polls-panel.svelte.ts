// The Polls panel of a group: PL6's pages, ten polls each, newest first.
import type { ConversationId, Poll } from '../../../../shared/domain'
import { call, messageOf } from '../ipc'

export class PollsPanelModel {
  readonly conversationId: ConversationId
  polls = $state<Poll[]>([])
  /** The token for the next page; null once the last page is in. */
  next = $state<string | null>(null)
  loading = $state(false)
  loaded = $state(false)
  error = $state<string | null>(null)

  constructor(conversationId: ConversationId) {
    this.conversationId = conversationId
  }

  async loadFirst(): Promise<void> {
    await this.#load(null, [])
  }

  async loadMore(): Promise<void> {
    if (this.next !== null) await this.#load(this.next, this.polls)
  }

  async #load(token: string | null, before: Poll[]): Promise<void> {
    if (this.loading) return
    this.loading = true
    this.error = null
    try {
      const page = await call('polls:list', { conversationId: this.conversationId, next: token })
      this.polls = [...before, ...page.polls]
      this.next = page.next
      this.loaded = true
    } catch (error) {
      this.error = messageOf(error)
    } finally {
      this.loading = false
    }
  }
}
