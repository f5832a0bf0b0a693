// Search over the messages kept on this device (`search:messages`): reads what was typed
// (search-query.ts), turns names into the conversations and people they mean, asks the store, and
// says what was searched: how many messages, back to when, and whether older history is still on
// its way or not downloaded at all.
import type { Conversation } from '@shared/conversations'
import type { ConversationId } from '@shared/conversation-id'
import type { MessageSearchRequest, MessageSearchResult, SearchNote, SearchScope } from '@shared/search'
import type { Me } from '@shared/session'
import type { HistoryDownload } from '@shared/storage'
import type { Log } from '../log/log'
import { AppError } from './app-error'
import type { LocalStore, StoreSearch } from './ports'
import { asksForAnything, parseSearchQuery } from './search-query'

/** Results a page. */
export const SEARCH_PAGE = 30

export interface MessageSearchDependencies {
  /** The signed-in account's store; null while there is none. */
  store: () => LocalStore | null
  /** The signed-in user; null when nobody is. */
  me: () => Me | null
  /** The conversation list as the app shows it. */
  conversations: () => Conversation[]
  /** Where the download of older history is. */
  download: () => Promise<HistoryDownload>
  log: Log
  /** Unix seconds at the start of a day (YYYY-MM-DD) by the computer's clock. */
  dayStart?: (date: string) => number
}

const NOTHING_KEPT: SearchNote = { kind: 'nothingKept', text: 'Nothing is kept on this device yet, so there is nothing to search.' }

export class MessageSearch {
  readonly #deps: MessageSearchDependencies
  readonly #dayStart: (date: string) => number

  constructor(deps: MessageSearchDependencies) {
    this.#deps = deps
    this.#dayStart = deps.dayStart ?? localDayStart
  }

  async search(request: MessageSearchRequest): Promise<MessageSearchResult> {
    const me = this.#deps.me()
    if (me === null) throw new AppError('UNAUTHENTICATED', 'Please sign in first.')
    const query = parseSearchQuery(request.query)
    const notes = [...query.notes]
    const store = this.#deps.store()
    if (store === null) return { hits: [], next: null, notes: [...notes, NOTHING_KEPT], searched: false, scope: await this.#scope(null) }
    const searched = asksForAnything(query)
    const conversationIds = this.#conversationIds(query.in, request.conversationId, notes)
    const scope = await this.#scope(store)
    if (!searched || conversationIds?.length === 0) return { hits: [], next: null, notes, searched, scope }
    const isMe = (name: string): boolean => name.toLowerCase() === 'me'
    const search: StoreSearch = {
      words: query.words,
      phrases: query.phrases,
      senderNames: query.from.filter((name) => !isMe(name)),
      senderIds: query.from.some(isMe) ? [me.id] : [],
      conversationIds: conversationIds ?? [],
      has: query.has,
      since: query.after === null ? null : this.#dayStart(query.after),
      until: query.before === null ? null : this.#dayStart(query.before),
      after: request.after ?? null,
      limit: SEARCH_PAGE
    }
    try {
      const page = await store.search(search)
      return { ...page, notes, searched, scope }
    } catch (error) {
      this.#deps.log.error('the search of kept messages failed', error)
      throw new AppError('INTERNAL', 'The search could not run. Try again, or restart the app.', { cause: error })
    }
  }

  /**
   * The conversations to search in: null for all of them; none when in: names nothing listed (a
   * note says so). Names match when they contain what was typed, in any case and with any accents.
   */
  #conversationIds(names: string[], only: ConversationId | undefined, notes: SearchNote[]): ConversationId[] | null {
    let ids: ConversationId[] | null = only === undefined ? null : [only]
    if (names.length === 0) return ids
    const listed = this.#deps.conversations()
    const named = names.flatMap((name) => {
      const matching = listed.filter((conversation) => folded(conversation.name).includes(folded(name)))
      if (matching.length === 0) notes.push({ kind: 'noSuchConversation', text: `No conversation is named like “${name}”.` })
      return matching.map((conversation) => conversation.id)
    })
    ids = ids === null ? named : ids.filter((id) => named.includes(id))
    return [...new Set(ids)]
  }

  async #scope(store: LocalStore | null): Promise<SearchScope> {
    const download = await this.#deps.download()
    if (store === null) return { messages: 0, oldestAt: null, history: download.state === 'off' ? 'off' : 'downloading', conversationsPartial: this.#deps.conversations().length }
    const [kept, starts] = await Promise.all([store.searchScope(), store.historyStarts()])
    const partial = this.#deps.conversations().filter((conversation) => starts.get(conversation.id)?.reachesStart !== true).length
    return { ...kept, history: download.state === 'off' ? 'off' : partial === 0 ? 'complete' : 'downloading', conversationsPartial: partial }
  }
}

function folded(text: string): string {
  return text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase()
}

/** Unix seconds at midnight, by the computer's clock, of a YYYY-MM-DD the query reader checked. */
function localDayStart(date: string): number {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number)
  return Math.floor(new Date(year, month - 1, day).getTime() / 1000)
}
