// The search of every message kept on this device, as the sidebar shows it: what the person typed,
// the filters set beside the box, and the newest results, updated as they type. Answers that come
// back after a newer search has started are dropped, so the list never shows an older query's hits.
import type { ConversationId } from '@shared/conversation-id'
import type { MessageSearchResult, SearchHit } from '@shared/search'
import { call, messageOf } from '$lib/main-process'

/** How long typing pauses before a search starts: each keystroke still gets its answer quickly. */
export const SEARCH_DELAY_MS = 80

export type HasFilter = '' | 'image' | 'poll' | 'location'

/** The filters set with the controls beside the box; typed filters stay in the query itself. */
export interface SearchFilters {
  from: string
  has: HasFilter
  /** YYYY-MM-DD, or empty. */
  after: string
  before: string
}

export const NO_FILTERS: SearchFilters = { from: '', has: '', after: '', before: '' }

export interface SearchedConversation {
  id: ConversationId
  name: string
}

/** The filters as the words the query reader knows (see core/search-query.ts). */
export function filterWords(filters: SearchFilters): string {
  const words: string[] = []
  const from = filters.from.trim().replaceAll('"', '')
  if (from !== '') words.push(/\s/.test(from) ? `from:"${from}"` : `from:${from}`)
  if (filters.has !== '') words.push(`has:${filters.has}`)
  if (filters.after !== '') words.push(`after:${filters.after}`)
  if (filters.before !== '') words.push(`before:${filters.before}`)
  return words.join(' ')
}

export class MessageSearchModel {
  query = $state('')
  /** The one conversation searched (`In: …`), or null for all of them. */
  within = $state<SearchedConversation | null>(null)
  filters = $state<SearchFilters>({ ...NO_FILTERS })
  status = $state<'idle' | 'searching' | 'ready' | 'error'>('idle')
  error = $state<string | null>(null)
  /** The newest answer's, then each further page's, newest first. Replaced, never changed in place. */
  hits = $state.raw<SearchHit[]>([])
  result = $state.raw<MessageSearchResult | null>(null)
  loadingMore = $state(false)
  /** Why the result last chosen could not be opened. */
  openError = $state<string | null>(null)

  #sequence = 0
  #timer: ReturnType<typeof setTimeout> | null = null

  /** Whether the sidebar shows the search rather than the conversation list. */
  get active(): boolean {
    return this.query.trim() !== '' || this.within !== null || filterWords(this.filters) !== ''
  }

  /** What goes to main: the words typed, then the filters set beside the box. */
  get asked(): string {
    return [this.query.trim(), filterWords(this.filters)].filter((part) => part !== '').join(' ')
  }

  /** Searches again shortly, after the person stops typing for a moment. */
  changed(): void {
    this.#cancelTimer()
    this.openError = null
    this.#sequence += 1
    if (!this.active) {
      this.#reset()
      return
    }
    this.status = 'searching'
    this.#timer = setTimeout(() => void this.#run(this.#sequence), SEARCH_DELAY_MS)
  }

  searchIn(conversation: SearchedConversation | null): void {
    this.within = conversation
    this.changed()
  }

  setFilters(filters: Partial<SearchFilters>): void {
    this.filters = { ...this.filters, ...filters }
    this.changed()
  }

  /** Empties the box and every filter. */
  clear(): void {
    this.query = ''
    this.within = null
    this.filters = { ...NO_FILTERS }
    this.changed()
  }

  /** The next page of the same search. */
  async more(): Promise<void> {
    const next = this.result?.next ?? null
    if (next === null || this.loadingMore) return
    const sequence = this.#sequence
    this.loadingMore = true
    try {
      const page = await call('search:messages', this.#request(next))
      if (sequence !== this.#sequence) return
      this.hits = [...this.hits, ...page.hits]
      this.result = page
    } catch (error) {
      if (sequence === this.#sequence) this.error = messageOf(error)
    } finally {
      if (sequence === this.#sequence) this.loadingMore = false
    }
  }

  /** Stops any search on its way; the page is going away. */
  stop(): void {
    this.#cancelTimer()
    this.#sequence += 1
  }

  async #run(sequence: number): Promise<void> {
    this.#timer = null
    this.error = null
    try {
      const result = await call('search:messages', this.#request())
      if (sequence !== this.#sequence) return
      this.result = result
      this.hits = result.hits
      this.status = 'ready'
    } catch (error) {
      if (sequence !== this.#sequence) return
      this.error = messageOf(error)
      this.status = 'error'
    }
  }

  #request(after?: string): { query: string; conversationId?: ConversationId; after?: string } {
    return {
      query: this.asked,
      ...(this.within === null ? {} : { conversationId: this.within.id }),
      ...(after === undefined ? {} : { after })
    }
  }

  #reset(): void {
    this.status = 'idle'
    this.error = null
    this.hits = []
    this.result = null
    this.loadingMore = false
  }

  #cancelTimer(): void {
    if (this.#timer !== null) clearTimeout(this.#timer)
    this.#timer = null
  }
}
