// A conversation's pictures as this device keeps them, newest first, a page at a time as the grid
// scrolls.
import type { ConversationId } from '@shared/conversation-id'
import type { ConversationPicture } from '@shared/conversation-files'
import { call, messageOf } from '$lib/main-process'

export class PicturesModel {
  readonly conversationId: ConversationId
  /** Replaced, never changed in place. */
  pictures = $state.raw<ConversationPicture[]>([])
  status = $state<'loading' | 'ready' | 'error'>('loading')
  error = $state<string | null>(null)
  /** Where the next page begins; null when every picture is in. */
  next = $state<string | null>(null)
  #loading: Promise<void> | null = null
  #started = false

  constructor(conversationId: ConversationId) {
    this.conversationId = conversationId
  }

  get hasMore(): boolean {
    return this.next !== null
  }

  /** The first page, then each next one; a call while one is on its way waits for it. */
  loadMore(): Promise<void> {
    if (this.#loading !== null) return this.#loading
    if (this.#started && this.next === null && this.status === 'ready') return Promise.resolve()
    const load = this.#load().finally(() => {
      this.#loading = null
    })
    this.#loading = load
    return load
  }

  async #load(): Promise<void> {
    const beforeId = this.#started ? this.next : null
    this.#started = true
    this.error = null
    try {
      const page = await call('conversations:pictures', { conversationId: this.conversationId, beforeId })
      this.pictures = [...this.pictures, ...page.pictures]
      this.next = page.next
      this.status = 'ready'
    } catch (error) {
      this.error = messageOf(error)
      if (this.pictures.length === 0) this.status = 'error'
    }
  }
}
