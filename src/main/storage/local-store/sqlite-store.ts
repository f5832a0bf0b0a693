// One account's store in an open SQLite database (migrated; see local-stores.ts for how it is
// opened and keyed). Messages keep their whole shape as JSON beside the columns that are queried;
// the runs table says which stretches of each history are known whole, so a read never passes a
// gap off as continuous.
import { statSync } from 'node:fs'
import type { Database, Statement } from 'better-sqlite3-multiple-ciphers'
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Message, PendingMessage } from '@shared/messages'
import type { Poll } from '@shared/polls'
import type { GroupDetails } from '@shared/groups'
import type { Person } from '@shared/people'
import type { HistoryStart, LocalStore, PictureCache, RunJoins, StoredChange, StoredHistory, StoreUsage } from '../../core/ports'
import type { StoreSearch, StoreSearchPage } from '../../core/ports'
import type { SearchHit } from '@shared/search'
import type { Draft } from '@shared/drafts'
import { NO_PICTURES } from './picture-cache'
import { facet, indexRow, inPeriod, matchExpression, pollIdOf, searchableParts, snippetOf } from './search-text'
import type { UnsentCountFile } from './unsent-count'

/** A message id as the integer it orders by. Ids are decimal strings; anything else sorts first. */
export function sortKeyOf(id: string): bigint {
  return /^\d{1,19}$/.test(id) ? BigInt(id) : 0n
}

interface Run {
  first_key: bigint
  last_key: bigint
  reaches_start: bigint
}

export class SqliteStore implements LocalStore {
  readonly #db: Database
  readonly #file: string | null
  readonly #sql: ReturnType<typeof prepare>
  readonly #views: ReturnType<typeof prepareViews>
  readonly #searchSql: ReturnType<typeof prepareSearch>
  /** What searchScope last counted; null once anything was kept or forgotten since. */
  #scope: { messages: number; oldestAt: number | null } | null = null
  readonly pictures: PictureCache
  readonly #unsent: UnsentCountFile | null

  /**
   * `file`: where the database lives, for its size; null for one in memory. `pictures`: the
   * account's picture cache. `unsent`: where the outbox's length is written beside it with every
   * change (none for a store in memory).
   */
  constructor(db: Database, file: string | null, beside: { pictures?: PictureCache; unsent?: UnsentCountFile } = {}) {
    this.#db = db
    this.#file = file
    this.#sql = prepare(db)
    this.#views = prepareViews(db)
    this.#searchSql = prepareSearch(db)
    this.pictures = beside.pictures ?? NO_PICTURES
    this.#unsent = beside.unsent ?? null
  }

  async conversations(): Promise<Conversation[]> {
    return this.#sql.conversations.all().map((row) => JSON.parse((row as { json: string }).json) as Conversation)
  }

  async keepConversations(list: Conversation[]): Promise<void> {
    this.#db.transaction(() => {
      this.#sql.clearConversations.run()
      list.forEach((conversation, position) => this.#sql.keepConversation.run(conversation.id, position, JSON.stringify(conversation)))
    })()
  }

  async keepRun(conversationId: ConversationId, messages: Message[], joins: RunJoins): Promise<void> {
    const keys = messages.map((message) => sortKeyOf(message.id))
    if (joins.after !== null) keys.push(sortKeyOf(joins.after))
    if (joins.before !== null) keys.push(sortKeyOf(joins.before))
    this.#db.transaction(() => {
      for (const message of messages) this.#keep(message)
      if (keys.length > 0) this.#addRun(conversationId, min(keys), max(keys), joins.reachesStart)
    })()
  }

  async keepMessages(messages: Message[]): Promise<void> {
    this.#db.transaction(() => {
      for (const message of messages) this.#keep(message)
    })()
  }

  async changeMessage(conversationId: ConversationId, messageId: string, change: StoredChange): Promise<void> {
    this.#db.transaction(() => {
      const row = this.#sql.message.get(conversationId, sortKeyOf(messageId)) as { json: string } | undefined
      if (row === undefined) return
      this.#keep(changed(JSON.parse(row.json) as Message, change))
    })()
  }

  async keepPoll(poll: Poll): Promise<void> {
    this.#db.transaction(() => {
      this.#sql.keepPoll.run(poll.id, poll.conversationId, JSON.stringify(poll))
      // The messages that carry it are found by its question and options too.
      const rowids = this.#searchSql.indexed.all(`facets : "${facet.poll(poll.id)}"`) as number[]
      for (const rowid of rowids) {
        const row = this.#searchSql.messageByRowid.get(rowid) as { json: string } | undefined
        if (row !== undefined) this.#index(rowid, JSON.parse(row.json) as Message, poll)
      }
    })()
  }

  async keepGroup(details: GroupDetails): Promise<void> {
    this.#sql.keepGroup.run(details.id, JSON.stringify(details))
  }

  async group(groupId: ConversationId): Promise<GroupDetails | null> {
    return parsed<GroupDetails>(this.#sql.group.get(groupId))
  }

  async keepPerson(person: Person): Promise<void> {
    this.#sql.keepPerson.run(person.id, JSON.stringify(person))
  }

  async person(userId: string): Promise<Person | null> {
    return parsed<Person>(this.#sql.person.get(userId))
  }

  async newest(conversationId: ConversationId, limit: number): Promise<StoredHistory | null> {
    const run = this.#sql.newestRun.get(conversationId) as Run | undefined
    if (run === undefined) return null
    return this.#within(conversationId, run, run.last_key + 1n, limit)
  }

  async before(conversationId: ConversationId, beforeId: string, limit: number): Promise<StoredHistory> {
    const key = sortKeyOf(beforeId)
    const run = this.#sql.overlappingRuns.get(conversationId, key, key) as Run | undefined
    if (run === undefined) return { messages: [], older: 'service' }
    return this.#within(conversationId, run, key, limit)
  }

  async after(conversationId: ConversationId, afterId: string, limit: number): Promise<Message[] | null> {
    const key = sortKeyOf(afterId)
    const run = this.#sql.overlappingRuns.get(conversationId, key, key) as Run | undefined
    if (run === undefined) return null
    const rows = this.#sql.messagesAfterWithin.all(conversationId, key, run.last_key, limit) as { json: string }[]
    return rows.map((row) => JSON.parse(row.json) as Message)
  }

  async syncPoints(): Promise<Map<ConversationId, string>> {
    const rows = this.#sql.syncPoints.all() as { conversation_id: ConversationId; id: string }[]
    return new Map(rows.map((row) => [row.conversation_id, row.id]))
  }

  async outbox(): Promise<PendingMessage[]> {
    return this.#sql.outbox.all().map((row) => JSON.parse((row as { json: string }).json) as PendingMessage)
  }

  async keepOutbox(pending: PendingMessage[]): Promise<void> {
    const replace = this.#db.transaction(() => {
      this.#sql.clearOutbox.run()
      pending.forEach((message, position) => this.#sql.keepPending.run(message.clientId, position, JSON.stringify(message)))
    })
    if (this.#unsent === null) return replace()
    const { count } = this.#sql.outboxCount.get() as { count: number }
    this.#unsent.around(count, pending.length, () => replace())
  }

  async usage(): Promise<StoreUsage> {
    const counts = this.#sql.counts.get() as { messages: number; conversations: number }
    return { ...counts, bytes: this.#file === null ? 0 : fileSize(this.#file) + fileSize(`${this.#file}-wal`) }
  }

  async historyStarts(): Promise<Map<ConversationId, HistoryStart>> {
    const rows = this.#sql.historyStarts.all() as { conversation_id: ConversationId; oldest_id: string | null; reaches_start: number }[]
    // A stretch known only by the ids it joins, with none of its messages kept, gives nothing to go on from.
    return new Map(rows.flatMap((row) => (row.oldest_id === null ? [] : [[row.conversation_id, { oldestId: row.oldest_id, reachesStart: row.reaches_start === 1 }]])))
  }

  async messageCount(conversationId: ConversationId): Promise<number> {
    return (this.#sql.messageCount.get(conversationId) as { count: number }).count
  }

  async clearHistory(): Promise<void> {
    this.#db.transaction(() => {
      for (const table of ['messages', 'runs', 'polls', 'conversations']) this.#db.prepare(`DELETE FROM ${table}`).run()
      this.#searchSql.forgetAll.run()
      this.#scope = null
    })()
    // The pages freed go back to the disk, and the log with them, so the file shrinks to what is left.
    this.#db.exec('VACUUM')
    this.#db.pragma('wal_checkpoint(TRUNCATE)')
  }

  async pictureMessages(conversationId: ConversationId, beforeId: string | null, limit: number): Promise<Message[]> {
    const before = beforeId === null ? LAST_KEY : sortKeyOf(beforeId)
    const rows = this.#views.pictureMessages.all(conversationId, before, limit) as { json: string }[]
    return rows.map((row) => JSON.parse(row.json) as Message)
  }

  async stretchFrom(conversationId: ConversationId, messageId: string, beforeId: string | null, context: number): Promise<StoredHistory | null> {
    const key = sortKeyOf(messageId)
    const upper = beforeId === null ? null : sortKeyOf(beforeId)
    if (upper !== null && upper <= key) return null
    if (this.#sql.message.get(conversationId, key) === undefined) return null
    const run = this.#sql.overlappingRuns.get(conversationId, key, upper ?? key) as Run | undefined
    if (run === undefined) return null
    const older = this.#within(conversationId, run, key, context)
    const rows = this.#views.messagesBetween.all(conversationId, key, upper ?? run.last_key + 1n) as { json: string }[]
    return { messages: [...older.messages, ...rows.map((row) => JSON.parse(row.json) as Message)], older: older.older }
  }

  async messagesFrom(conversationId: ConversationId, afterId: string | null, limit: number): Promise<Message[]> {
    const after = afterId === null ? -1n : sortKeyOf(afterId)
    const rows = this.#views.messagesFrom.all(conversationId, after, limit) as { json: string }[]
    return rows.map((row) => JSON.parse(row.json) as Message)
  }

  async pollsOf(conversationId: ConversationId): Promise<Poll[]> {
    return this.#views.pollsOf.all(conversationId).map((row) => JSON.parse((row as { json: string }).json) as Poll)
  }

  async search(search: StoreSearch): Promise<StoreSearchPage> {
    const expression = matchExpression(search)
    if (expression === null) return { hits: [], next: null }
    const limit = Math.max(1, Math.min(MAX_SEARCH_PAGE, Math.floor(search.limit)))
    const bounds = { since: search.since, until: search.until, after: readCursor(search.after) }
    const found = this.#newestMatches(expression, bounds, limit + 1)
    const hits = found.slice(0, limit).flatMap((candidate) => this.#hit(candidate, search))
    const last = found[limit - 1]
    return { hits, next: found.length > limit && last !== undefined ? cursorOf(last) : null }
  }

  async searchScope(): Promise<{ messages: number; oldestAt: number | null }> {
    this.#scope ??= this.#searchSql.scope.get() as { messages: number; oldestAt: number | null }
    return this.#scope
  }

  /**
   * At least `wanted` of the newest matches within `bounds` (all of them, when there are fewer),
   * newest first. The index knows no time, only rowids, which follow the order messages were kept
   * in, not the order they were written in; sorting every match would read a row of messages per
   * match, far too many for a common word over a long history. So when there are more than a few
   * hundred matches, the newest are read a month at a time from the newest month back, and a month
   * with more than a few hundred a day at a time: every stretch read is sorted whole, and the first
   * stretches that give enough are the newest.
   */
  #newestMatches(expression: string, bounds: SearchBounds, wanted: number): Candidate[] {
    const found: Candidate[] = []
    const take = (match: string): void => {
      for (const candidate of this.#candidates(match)) if (within(candidate, bounds)) found.push(candidate)
    }
    // Each evaluation of a word being typed reads all the index holds under its prefix when no
    // prefix index serves it (longer than 4 characters): so as few evaluations as can be.
    const count = (match: string): number => this.#searchSql.count.get(match, SORTED_AT_ONCE + 1) as number
    const done = (): Candidate[] => found.sort(newestFirst).slice(0, wanted)
    if (count(expression) <= SORTED_AT_ONCE) {
      take(expression)
      return done()
    }
    const range = this.#searchSql.timeRange.get() as { oldest: number | null; newest: number | null }
    if (range.oldest === null || range.newest === null) return []
    const newest = Math.min(range.newest, bounds.until === null ? Infinity : bounds.until - 1, bounds.after?.createdAt ?? Infinity)
    const oldest = Math.max(range.oldest, bounds.since ?? -Infinity)
    for (const month of monthsBack(newest, oldest)) {
      const inMonth = inPeriod(expression, facet.month(month.start))
      const matches = count(inMonth)
      if (matches === 0) continue
      if (matches <= SORTED_AT_ONCE) take(inMonth)
      else
        for (const day of daysBack(Math.min(newest, month.end), Math.max(oldest, month.start))) {
          take(inPeriod(expression, facet.day(day)))
          if (found.length >= wanted) break
        }
      if (found.length >= wanted) break
    }
    return done()
  }

  #candidates(match: string): Candidate[] {
    return (this.#searchSql.candidates.all(match) as { rowid: bigint; createdAt: bigint; sortKey: bigint }[]).map((row) => ({
      rowid: Number(row.rowid),
      createdAt: Number(row.createdAt),
      sortKey: row.sortKey
    }))
  }

  #hit(candidate: Candidate, search: StoreSearch): SearchHit[] {
    const row = this.#searchSql.messageByRowid.get(candidate.rowid) as { json: string } | undefined
    if (row === undefined) return []
    const message = JSON.parse(row.json) as Message
    const pollId = pollIdOf(message)
    const poll = pollId === null ? null : parsed<Poll>(this.#searchSql.poll.get(pollId))
    return [
      {
        conversationId: message.conversationId,
        messageId: message.id,
        senderId: message.senderId,
        senderName: message.senderName,
        createdAt: message.createdAt,
        snippet: snippetOf(searchableParts(message, poll), search)
      }
    ]
  }

  async drafts(): Promise<Draft[]> {
    return this.#sql.drafts.all().map((row) => JSON.parse((row as { json: string }).json) as Draft)
  }

  async keepDraft(draft: Draft): Promise<void> {
    this.#sql.keepDraft.run(draft.conversationId, draft.savedAt, JSON.stringify(draft))
  }

  async forgetDraft(conversationId: ConversationId): Promise<void> {
    this.#sql.forgetDraft.run(conversationId)
  }

  async leftOpen(): Promise<ConversationId | null> {
    return (this.#sql.leftOpen.get() as ConversationId | undefined) ?? null
  }

  async keepLeftOpen(conversationId: ConversationId | null): Promise<void> {
    if (conversationId === null) this.#sql.forgetLeftOpen.run()
    else this.#sql.keepLeftOpen.run(conversationId)
  }

  async close(): Promise<void> {
    await this.pictures.close()
    if (!this.#db.open) return
    try {
      this.#db.pragma('optimize')
    } finally {
      // Optimizing is a hint; a file too damaged to take it is closed all the same.
      this.#db.close()
    }
  }

  #keep(message: Message): void {
    this.#sql.keepMessage.run({
      conversationId: message.conversationId,
      id: message.id,
      sortKey: sortKeyOf(message.id),
      createdAt: message.createdAt,
      senderId: message.senderId,
      deleted: message.deleted ? 1 : 0,
      json: JSON.stringify(message)
    })
    const { rowid } = this.#searchSql.rowidOf.get(message.conversationId, sortKeyOf(message.id)) as { rowid: number }
    this.#index(rowid, message)
  }

  /** The message's row of the search index, as it is now: replaced, or gone for a tombstone. */
  #index(rowid: number, message: Message, poll?: Poll): void {
    this.#scope = null
    const pollId = pollIdOf(message)
    const itsPoll = poll ?? (pollId === null ? null : parsed<Poll>(this.#searchSql.poll.get(pollId)))
    const row = indexRow(message, itsPoll)
    if (row === null) this.#searchSql.unindex.run(rowid)
    else this.#searchSql.index.run(rowid, row.body, row.sender, row.facets)
  }

  /** Adds [first, last] to the conversation's runs, joined with every run it touches or overlaps. */
  #addRun(conversationId: ConversationId, first: bigint, last: bigint, reachesStart: boolean): void {
    const touching = this.#sql.overlappingRuns.all(conversationId, last, first) as Run[]
    const merged = touching.reduce(
      (run, other) => ({
        first: min([run.first, other.first_key]),
        last: max([run.last, other.last_key]),
        reachesStart: run.reachesStart || other.reaches_start === 1n
      }),
      { first, last, reachesStart }
    )
    this.#sql.deleteOverlappingRuns.run(conversationId, last, first)
    this.#sql.addRun.run(conversationId, merged.first, merged.last, merged.reachesStart ? 1 : 0)
  }

  /** Up to `limit` messages of `run` older than `beforeKey`, and what lies beyond the oldest of them. */
  #within(conversationId: ConversationId, run: Run, beforeKey: bigint, limit: number): StoredHistory {
    const rows = this.#sql.messagesWithin.all(conversationId, run.first_key, beforeKey, limit + 1) as { json: string }[]
    const more = rows.length > limit
    const messages = rows
      .slice(0, limit)
      .reverse()
      .map((row) => JSON.parse(row.json) as Message)
    return { messages, older: more ? 'stored' : run.reaches_start === 1n ? 'none' : 'service' }
  }
}

function prepare(db: Database) {
  const withBigInts = (statement: Statement): Statement => statement.safeIntegers(true)
  return {
    conversations: db.prepare('SELECT json FROM conversations ORDER BY position'),
    clearConversations: db.prepare('DELETE FROM conversations'),
    keepConversation: db.prepare('INSERT INTO conversations (id, position, json) VALUES (?, ?, ?)'),
    message: db.prepare('SELECT json FROM messages WHERE conversation_id = ? AND sort_key = ?'),
    keepMessage: db.prepare(
      `INSERT INTO messages (conversation_id, id, sort_key, created_at, sender_id, deleted, json)
       VALUES (@conversationId, @id, @sortKey, @createdAt, @senderId, @deleted, @json)
       ON CONFLICT (conversation_id, sort_key) DO UPDATE SET
         created_at = excluded.created_at, sender_id = excluded.sender_id, deleted = excluded.deleted, json = excluded.json`
    ),
    keepGroup: db.prepare('INSERT INTO groups (id, json) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json'),
    group: db.prepare('SELECT json FROM groups WHERE id = ?'),
    keepPerson: db.prepare('INSERT INTO people (id, json) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json'),
    person: db.prepare('SELECT json FROM people WHERE id = ?'),
    keepPoll: db.prepare('INSERT INTO polls (id, conversation_id, json) VALUES (?, ?, ?) ON CONFLICT (id) DO UPDATE SET json = excluded.json'),
    newestRun: withBigInts(db.prepare('SELECT first_key, last_key, reaches_start FROM runs WHERE conversation_id = ? ORDER BY last_key DESC LIMIT 1')),
    /** The runs with a message at or before the second parameter and one at or after the third. */
    overlappingRuns: withBigInts(db.prepare('SELECT first_key, last_key, reaches_start FROM runs WHERE conversation_id = ? AND first_key <= ? AND last_key >= ?')),
    deleteOverlappingRuns: db.prepare('DELETE FROM runs WHERE conversation_id = ? AND first_key <= ? AND last_key >= ?'),
    addRun: db.prepare('INSERT INTO runs (conversation_id, first_key, last_key, reaches_start) VALUES (?, ?, ?, ?)'),
    messagesWithin: db.prepare('SELECT json FROM messages WHERE conversation_id = ? AND sort_key >= ? AND sort_key < ? ORDER BY sort_key DESC LIMIT ?'),
    messagesAfterWithin: db.prepare('SELECT json FROM messages WHERE conversation_id = ? AND sort_key > ? AND sort_key <= ? ORDER BY sort_key LIMIT ?'),
    syncPoints: db.prepare(
      `SELECT runs.conversation_id, messages.id FROM runs
       JOIN messages ON messages.conversation_id = runs.conversation_id AND messages.sort_key = runs.last_key
       WHERE runs.last_key = (SELECT MAX(last_key) FROM runs AS newest WHERE newest.conversation_id = runs.conversation_id)`
    ),
    outbox: db.prepare('SELECT json FROM outbox ORDER BY position'),
    outboxCount: db.prepare('SELECT COUNT(*) AS count FROM outbox'),
    clearOutbox: db.prepare('DELETE FROM outbox'),
    keepPending: db.prepare('INSERT INTO outbox (client_id, position, json) VALUES (?, ?, ?)'),
    historyStarts: db.prepare(
      `SELECT runs.conversation_id, runs.reaches_start,
         (SELECT messages.id FROM messages
          WHERE messages.conversation_id = runs.conversation_id AND messages.sort_key BETWEEN runs.first_key AND runs.last_key
          ORDER BY messages.sort_key LIMIT 1) AS oldest_id
       FROM runs
       WHERE runs.last_key = (SELECT MAX(last_key) FROM runs AS newest WHERE newest.conversation_id = runs.conversation_id)`
    ),
    messageCount: db.prepare('SELECT COUNT(*) AS count FROM messages WHERE conversation_id = ?'),
    counts: db.prepare('SELECT (SELECT COUNT(*) FROM messages) AS messages, (SELECT COUNT(DISTINCT conversation_id) FROM messages) AS conversations'),
    drafts: db.prepare('SELECT json FROM drafts ORDER BY saved_at DESC'),
    keepDraft: db.prepare('INSERT INTO drafts (conversation_id, saved_at, json) VALUES (?, ?, ?) ON CONFLICT (conversation_id) DO UPDATE SET saved_at = excluded.saved_at, json = excluded.json'),
    forgetDraft: db.prepare('DELETE FROM drafts WHERE conversation_id = ?'),
    leftOpen: db.prepare('SELECT conversation_id FROM left_open').pluck(),
    keepLeftOpen: db.prepare('INSERT INTO left_open (only, conversation_id) VALUES (1, ?) ON CONFLICT (only) DO UPDATE SET conversation_id = excluded.conversation_id'),
    forgetLeftOpen: db.prepare('DELETE FROM left_open')
  }
}

/** The largest sort key there can be: older than it is everything. */
const LAST_KEY = 2n ** 63n - 1n

/** Reads of whole histories: a conversation's pictures, a stretch to open at, everything for an export. */
function prepareViews(db: Database) {
  return {
    // Without an index of pictures: the conversation's rows are read newest first, and a page of
    // pictures stops the scan as soon as it is full. JSON escapes the quotes within a text,
    // so the string matches an attachment's type only.
    pictureMessages: db.prepare(
      `SELECT json FROM messages WHERE conversation_id = ? AND sort_key < ? AND deleted = 0 AND instr(json, '"type":"image"') > 0
       ORDER BY sort_key DESC LIMIT ?`
    ),
    messagesBetween: db.prepare('SELECT json FROM messages WHERE conversation_id = ? AND sort_key >= ? AND sort_key < ? ORDER BY sort_key'),
    messagesFrom: db.prepare('SELECT json FROM messages WHERE conversation_id = ? AND sort_key > ? ORDER BY sort_key LIMIT ?'),
    pollsOf: db.prepare('SELECT json FROM polls WHERE conversation_id = ?')
  }
}

/** The value kept as JSON in a row's `json`, or null for no row. */
function parsed<T>(row: unknown): T | null {
  return row === undefined ? null : (JSON.parse((row as { json: string }).json) as T)
}

function changed(message: Message, change: StoredChange): Message {
  switch (change.kind) {
    case 'reactions':
      return { ...message, reactions: change.reactions }
    case 'pinned': {
      const { pinnedAt: _unpinned, ...rest } = message
      return change.pinnedAt === null ? rest : { ...message, pinnedAt: change.pinnedAt }
    }
    case 'deleted': {
      // What a deleted message said is gone from the service: it goes from here too.
      const { reactions: _reactions, event: _event, ...rest } = message
      return { ...rest, text: '', attachments: [], deleted: true }
    }
  }
}

function min(keys: bigint[]): bigint {
  return keys.reduce((a, b) => (b < a ? b : a))
}

function max(keys: bigint[]): bigint {
  return keys.reduce((a, b) => (b > a ? b : a))
}

function fileSize(path: string): number {
  try {
    return statSync(path).size
  } catch {
    return 0
  }
}

/** More matches than this are read a month or a day at a time (see #newestMatches). */
const SORTED_AT_ONCE = 400
const MAX_SEARCH_PAGE = 100

/** A match: its row, and what orders it. */
interface Candidate {
  rowid: number
  createdAt: number
  sortKey: bigint
}

interface SearchBounds {
  since: number | null
  until: number | null
  /** The last result of the page before: only older ones follow. */
  after: Candidate | null
}

/** Newest first: by time, then by id, then by the order kept. */
function newestFirst(a: Candidate, b: Candidate): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt
  if (a.sortKey !== b.sortKey) return b.sortKey > a.sortKey ? 1 : -1
  return b.rowid - a.rowid
}

function within(candidate: Candidate, bounds: SearchBounds): boolean {
  if (bounds.since !== null && candidate.createdAt < bounds.since) return false
  if (bounds.until !== null && candidate.createdAt >= bounds.until) return false
  // Only what sorts after the last result: older than it.
  return bounds.after === null || newestFirst(bounds.after, candidate) < 0
}

function cursorOf(candidate: Candidate): string {
  return `${candidate.createdAt}.${candidate.sortKey}.${candidate.rowid}`
}

/** A cursor as cursorOf wrote it; anything else reads as none, and the search starts from the newest. */
function readCursor(cursor: string | null): Candidate | null {
  const parts = cursor === null ? null : /^(-?\d{1,15})\.(\d{1,19})\.(\d{1,15})$/.exec(cursor)
  if (parts === null) return null
  return { createdAt: Number(parts[1]), sortKey: BigInt(parts[2] as string), rowid: Number(parts[3]) }
}

/** The UTC months from the one holding `newest` back to the one holding `oldest` (Unix seconds), each as its first and last second. */
function* monthsBack(newest: number, oldest: number): Generator<{ start: number; end: number }> {
  const top = new Date(newest * 1000)
  let year = top.getUTCFullYear()
  let month = top.getUTCMonth()
  for (;;) {
    const start = Date.UTC(year, month, 1) / 1000
    const end = Date.UTC(year, month + 1, 1) / 1000 - 1
    if (end < oldest) return
    yield { start, end }
    month -= 1
    if (month < 0) {
      month = 11
      year -= 1
    }
  }
}

/** A second of each UTC day from the one holding `newest` back to the one holding `oldest`. */
function* daysBack(newest: number, oldest: number): Generator<number> {
  const DAY = 86_400
  for (let day = Math.floor(newest / DAY) * DAY; day + DAY > oldest; day -= DAY) yield day
}

function prepareSearch(db: Database) {
  return {
    rowidOf: db.prepare('SELECT rowid FROM messages WHERE conversation_id = ? AND sort_key = ?'),
    messageByRowid: db.prepare('SELECT json FROM messages WHERE rowid = ?'),
    poll: db.prepare('SELECT json FROM polls WHERE id = ?'),
    index: db.prepare('INSERT OR REPLACE INTO message_search (rowid, body, sender, facets) VALUES (?, ?, ?, ?)'),
    unindex: db.prepare('DELETE FROM message_search WHERE rowid = ?'),
    forgetAll: db.prepare("INSERT INTO message_search (message_search) VALUES ('delete-all')"),
    indexed: db.prepare('SELECT rowid FROM message_search WHERE message_search MATCH ?').pluck(),
    /** How many match, counting no further than the second parameter. */
    count: db.prepare('SELECT COUNT(*) FROM (SELECT rowid FROM message_search WHERE message_search MATCH ? LIMIT ?)').pluck(),
    candidates: db
      .prepare(
        `SELECT messages.rowid AS rowid, messages.created_at AS createdAt, messages.sort_key AS sortKey
         FROM message_search JOIN messages ON messages.rowid = message_search.rowid
         WHERE message_search MATCH ?`
      )
      .safeIntegers(true),
    // Apart, each reads one end of messages_by_time: MIN and MAX in one SELECT would read all of it.
    timeRange: db.prepare('SELECT (SELECT MIN(created_at) FROM messages) AS oldest, (SELECT MAX(created_at) FROM messages) AS newest'),
    scope: db.prepare('SELECT (SELECT COUNT(*) FROM messages) AS messages, (SELECT MIN(created_at) FROM messages) AS oldestAt')
  }
}
