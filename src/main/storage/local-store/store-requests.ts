// What main asks of a store's worker thread (store-worker.ts) and what it answers: the one typed
// channel between them (store-thread.ts is main's end). Everything crosses by structured clone,
// which keeps what the store's answers hold (Maps, bigints, undefined fields) as they are.
import type { LocalStore } from '../../core/ports'

/** The store's calls that run SQL in the worker; the picture cache stays in main, and closing is a request of its own. */
export type SqlMethod = Exclude<keyof LocalStore, 'pictures' | 'close'>

const sqlMethods = {
  conversations: true,
  keepConversations: true,
  keepRun: true,
  keepMessages: true,
  changeMessage: true,
  keepPoll: true,
  keepGroup: true,
  group: true,
  keepPerson: true,
  person: true,
  newest: true,
  before: true,
  after: true,
  syncPoints: true,
  outbox: true,
  keepOutbox: true,
  usage: true,
  historyStarts: true,
  messageCount: true,
  clearHistory: true,
  pictureMessages: true,
  stretchFrom: true,
  messagesFrom: true,
  pollsOf: true,
  search: true,
  searchScope: true,
  drafts: true,
  keepDraft: true,
  forgetDraft: true,
  leftOpen: true,
  keepLeftOpen: true
} satisfies Record<SqlMethod, true>

export function isSqlMethod(name: unknown): name is SqlMethod {
  return typeof name === 'string' && Object.hasOwn(sqlMethods, name)
}

/** Where a database is and what opens it. */
export interface DatabaseAt {
  /** The file; null for a database in memory. */
  file: string | null
  /** The raw key, 64 hex digits (unsealed in main, which alone may reach the keychain). */
  key: string
}

/** Each request by its kind, with what it answers. */
export interface StoreRequests {
  /**
   * Opens, keys and migrates the store this worker then serves. `maxPages`: SQLite's
   * max_page_count (see local-stores.ts); `unsentPath`: the unsent-count file written around every
   * change of the outbox, in the same turn as its commit.
   */
  open: { req: DatabaseAt & { maxPages?: number; unsentPath?: string }; res: null }
  call: { req: { [M in SqlMethod]: { method: M; args: Parameters<LocalStore[M]> } }[SqlMethod]; res: unknown }
  /** The integrity check, on a read-only connection of its own: 'ok', or what it found. */
  check: { req: DatabaseAt; res: string }
  /** What waited to be sent in a database that will not open whole, read-only; [] when even that cannot be read. */
  outboxOf: { req: DatabaseAt; res: Awaited<ReturnType<LocalStore['outbox']>> }
  /** Closes the store once every request before it is done; the worker then ends. */
  close: { req: Record<never, never>; res: null }
}

export type RequestKind = keyof StoreRequests

export type Request = { [K in RequestKind]: { id: number; kind: K } & StoreRequests[K]['req'] }[RequestKind]

/** An error as it crosses: SQLite's `code` (SQLITE_FULL, SQLITE_NOTADB…) kept, which main's handling of failures reads. */
export interface CrossingError {
  name: string
  message: string
  code?: string
  stack?: string
}

export type Answer = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: CrossingError }

export function crossing(error: unknown): CrossingError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) }
  const code = (error as { code?: unknown }).code
  return { name: error.name, message: error.message, ...(typeof code === 'string' ? { code } : {}), ...(error.stack === undefined ? {} : { stack: error.stack }) }
}

/** The error again on main's side, with its name and code, and the worker's stack below main's. */
export class StoreThreadError extends Error {
  readonly code: string | undefined

  constructor(crossed: CrossingError) {
    super(crossed.message)
    this.name = crossed.name
    this.code = crossed.code
    if (crossed.stack !== undefined) this.stack = `${this.stack ?? ''}\nin the store's worker: ${crossed.stack}`
  }
}
