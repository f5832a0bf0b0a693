// Search over the messages kept on this device, as the renderer sees it: what it asks, each result
// with its snippet, and what was searched.
import type { ConversationId } from './conversation-id'

/**
 * A stretch of a message's text with the matched words marked by UTF-16 offsets into `text`
 * (`start` included, `end` not), in order and apart. The page draws the marks itself from the
 * offsets, never from markup, so any text stays inert.
 */
export interface SearchSnippet {
  text: string
  marks: { start: number; end: number }[]
}

export interface SearchHit {
  conversationId: ConversationId
  messageId: string
  senderId: string
  senderName: string
  /** Unix seconds. */
  createdAt: number
  snippet: SearchSnippet
}

export interface MessageSearchRequest {
  /** What the person typed: words, "phrases" and filters (see core/search-query.ts). */
  query: string
  /** Only this conversation (the search of an open conversation), besides any `in:` typed. */
  conversationId?: ConversationId | undefined
  /** The `next` of the page before, for more of the same search. */
  after?: string | undefined
}

/** How the query was read, where it was read leniently or found nothing to narrow to. */
export interface SearchNote {
  kind: 'unclosedQuote' | 'badDate' | 'unknownFilter' | 'emptyFilter' | 'noSuchConversation' | 'nothingKept'
  /** In the person's words. */
  text: string
}

/** What the search covered. */
export interface SearchScope {
  /** Messages kept on this device. */
  messages: number
  /** Unix seconds of the oldest message kept; null when none is. */
  oldestAt: number | null
  /**
   * `downloading`: older history is still on its way (or waiting, or paused) for some conversations;
   * `off`: Keep full history is off, so older history is not downloaded; `complete`: every listed
   * conversation is kept from its start.
   */
  history: 'downloading' | 'off' | 'complete'
  /** Listed conversations not kept back to their first message. */
  conversationsPartial: number
}

export interface MessageSearchResult {
  /** Newest first. */
  hits: SearchHit[]
  /** Pass back as `after` for the next page; null when there is no more. */
  next: string | null
  notes: SearchNote[]
  /** Whether anything was searched for: an empty query (or one of nothing but notes) finds nothing. */
  searched: boolean
  scope: SearchScope
}
