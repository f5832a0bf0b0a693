// A worker thread that holds one account's SQLite connection and runs its SQL, so that no query,
// write or integrity check ever holds up main, where pushes go on their way to the page (measured
// there: the history download's writes put push → DOM p99 at 35–50 ms against about 5 without
// it, and opening a store ran its integrity check first, 53 ms for 5 MB and growing with the file).
// Requests run one at a time in the order they came, each answered before the next begins; main
// (store-thread.ts) sees the answers in that order. The same script serves the short-lived thread
// that runs a store's integrity check on a connection of its own.
import { parentPort, workerData } from 'node:worker_threads'
import Sqlite, { type Database, type Options } from 'better-sqlite3-multiple-ciphers'
import type { PendingMessage } from '@shared/messages'
import { migrate } from './migrations'
import { SqliteStore } from './sqlite-store'
import { crossing, isSqlMethod, type Answer, type DatabaseAt, type Request } from './store-requests'
import { UnsentCountFile } from './unsent-count'
import { keyed } from './sqlcipher-key'

const port = parentPort
if (port === null) throw new Error('store-worker.ts runs as a worker thread')

let store: SqliteStore | null = null
/** Each request starts once the one before it has answered. */
let turn: Promise<void> = Promise.resolve()

port.on('message', (request: Request) => {
  turn = turn.then(async () => {
    let answer: Answer
    try {
      answer = { id: request.id, ok: true, value: await handle(request) }
    } catch (error) {
      answer = { id: request.id, ok: false, error: crossing(error) }
    }
    port.postMessage(answer)
    // Nothing comes after a close: letting go of the port lets the thread end.
    if (request.kind === 'close') port.close()
  })
})

async function handle(request: Request): Promise<unknown> {
  switch (request.kind) {
    case 'open': {
      if (store !== null) throw new Error('this worker already has a store open')
      const db = request.file === null ? inMemory() : openFile(request.file, request.key, request.maxPages)
      store = new SqliteStore(db, request.file, request.unsentPath === undefined ? {} : { unsent: new UnsentCountFile(request.unsentPath) })
      return null
    }
    case 'call': {
      if (store === null) throw new Error('no store is open in this worker')
      if (!isSqlMethod(request.method)) throw new Error(`not a call of the store: ${String(request.method)}`)
      const method = store[request.method] as (...args: unknown[]) => Promise<unknown>
      return method.apply(store, request.args)
    }
    case 'check':
      return check(request)
    case 'outboxOf':
      return outboxOf(request)
    case 'close':
      await store?.close()
      store = null
      return null
  }
}

/** Opens, keys and migrates the database; throws if any of it fails, closing what it opened. */
function openFile(file: string, key: string, maxPages: number | undefined): Database {
  const db = database(file)
  try {
    keyed(db, key)
    if (maxPages !== undefined) db.pragma(`max_page_count = ${Math.floor(maxPages)}`)
    // Reading the schema is what tells a wrong key (or a file that is no database) at once; the
    // whole file's check runs after, on a thread of its own (local-stores.ts), so a start never
    // waits for it.
    db.prepare('SELECT count(*) FROM sqlite_schema').get()
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.pragma('foreign_keys = ON')
    migrate(db)
    return db
  } catch (error) {
    db.close()
    throw error
  }
}

/** The addon main told the thread to load SQLite from (store-thread.ts `loadSqliteFrom`); null: the package's own. */
const sqliteAddon = (workerData as { sqliteAddon?: string | null } | null)?.sqliteAddon ?? null

function database(file: string, options: Options = {}): Database {
  return new Sqlite(file, sqliteAddon === null ? options : { ...options, nativeBinding: sqliteAddon })
}

function inMemory(): Database {
  const db = database(':memory:')
  migrate(db)
  return db
}

/**
 * SQLite's quick_check of the whole file, read-only beside the store's own connection: WAL lets it
 * read while the store writes. Throws when the file cannot be read at all.
 */
function check({ file, key }: DatabaseAt): string {
  if (file === null) return 'ok'
  const db = database(file, { readonly: true })
  try {
    keyed(db, key)
    return String(db.pragma('quick_check', { simple: true }))
  } finally {
    db.close()
  }
}

function outboxOf({ file, key }: DatabaseAt): PendingMessage[] {
  if (file === null) return []
  let db: Database | undefined
  try {
    db = database(file, { readonly: true })
    keyed(db, key)
    return (db.prepare('SELECT json FROM outbox ORDER BY position').all() as { json: string }[]).map((row) => JSON.parse(row.json) as PendingMessage)
  } catch {
    return []
  } finally {
    db?.close()
  }
}
