import Database from 'better-sqlite3-multiple-ciphers'
import { applyMigrations } from './migrate.js'
import { migrations } from './migrations/index.js'

export type Db = Database.Database

/**
 * Opens the service database and brings its schema up to date. File databases use WAL so readers
 * never wait for the writer, and `synchronous = NORMAL`, which is durable across process restarts
 * (the case that matters here: tests stop and restart the service on the same file).
 */
export function openDatabase(path: string): Db {
  const db = new Database(path)
  if (path !== ':memory:') {
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
  }
  db.pragma('foreign_keys = ON')
  db.pragma('busy_timeout = 2000')
  applyMigrations(db, migrations)
  return db
}

/** Small key-value store for service-wide values that must survive a restart. */
export class MetaStore {
  readonly #get: Database.Statement<[string], { value: string }>
  readonly #set: Database.Statement<[string, string]>

  constructor(db: Db) {
    this.#get = db.prepare('SELECT value FROM meta WHERE key = ?')
    this.#set = db.prepare(
      'INSERT INTO meta (key, value) VALUES (?, ?) ON CONFLICT (key) DO UPDATE SET value = excluded.value'
    )
  }

  get(key: string): string | undefined {
    return this.#get.get(key)?.value
  }

  set(key: string, value: string): void {
    this.#set.run(key, value)
  }
}
