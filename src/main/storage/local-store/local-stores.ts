// Where each account's store lives (`<data dir>/store/<account id>.db`), how it is opened, and what
// happens to one that cannot be read. The database is encrypted with SQLCipher's scheme under a
// random 256-bit key given raw (no key derivation: the key is not a password, and deriving one
// would cost a third of a second at every start), and written with WAL so a process killed at any
// moment leaves every committed transaction whole. Sync is NORMAL, not FULL: FULL waits for the
// disk at every commit (measured here: 7.8 ms a commit at the median, 29 ms at p99, on the main
// thread, where the next push waits behind it), NORMAL at checkpoints only (0.03 ms a commit);
// what it gives up is the last transactions before a power cut or an OS crash, never a process's.
// Its pictures are kept beside it (`<account id>.pictures/`, picture-cache.ts), sealed under a key
// derived from the store's, and go wherever the store goes.
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import Sqlite, { type Database } from 'better-sqlite3-multiple-ciphers'
import type { PendingMessage } from '@shared/messages'
import type { LocalStore, LocalStores } from '../../core/ports'
import type { Log } from '../../log/log'
import { ensurePrivateDirectory } from '../data-dir'
import { migrate } from './migrations'
import { FilePictureCache } from './picture-cache'
import { SqliteStore } from './sqlite-store'
import { StoreKeys, type KeySealing } from './store-keys'
import { UnsentCountFile, type UnsentCount } from './unsent-count'

/** What the app shows when a store had to be moved aside, with everything in its outbox kept. */
/** How much room pictures take until core says what the setting is. */
const INITIAL_PICTURE_LIMIT_BYTES = 500 * 1024 * 1024

export const SET_ASIDE_NOTICE = 'The messages kept on this device could not be read, so they were set aside. They will be downloaded again from the service.'

/**
 * What the app shows when a store had to be moved aside: `unrecovered` says how many messages
 * waited unsent in it and could not be read back into the new one (they exist nowhere else).
 */
export function setAsideNotice(unrecovered: UnsentCount): string {
  if (unrecovered === 0) return SET_ASIDE_NOTICE
  const lost =
    unrecovered === 'unknown'
      ? 'Messages you wrote that had not been sent yet, if there were any, could not be recovered.'
      : unrecovered === 1
        ? '1 message you wrote had not been sent and could not be recovered.'
        : `${unrecovered} messages you wrote had not been sent and could not be recovered.`
  return `${SET_ASIDE_NOTICE} ${lost}`
}

export class FileLocalStores implements LocalStores {
  readonly #directory: string
  readonly #keys: StoreKeys
  readonly #log: Log
  readonly #now: () => number
  readonly #maxPages: number | undefined

  /**
   * `maxPages`: the most pages a database may grow to (SQLite's `max_page_count`); past it every
   * write fails with SQLITE_FULL, exactly as on a full disk. Tests use it to fill the "disk"
   * without filling one; the app sets none.
   */
  constructor(options: { directory: string; sealing: KeySealing; log: Log; now?: () => number; maxPages?: number }) {
    this.#directory = options.directory
    this.#keys = new StoreKeys(options.directory, options.sealing)
    this.#log = options.log
    this.#now = options.now ?? Date.now
    this.#maxPages = options.maxPages
  }

  async open(accountId: string): Promise<{ store: LocalStore; setAside: string | null }> {
    requireFileSafe(accountId)
    if (!this.#keys.lasting) {
      // With no way to protect a key on this system, nothing is written in a form that outlives it.
      this.#log.warn('this system offers no protection for the local store key: messages are kept in memory only')
      return { store: openInMemory(), setAside: null }
    }
    ensurePrivateDirectory(this.#directory)
    const file = this.#file(accountId)
    const key = this.#keys.read(accountId)
    if (key !== undefined) {
      try {
        return { store: await this.#withPictures(accountId, openFile(file, key, this.#maxPages), key), setAside: null }
      } catch (error) {
        // A full disk, or a file the system will not let us have now, says nothing of the database.
        if (isPassing(error)) throw error
        this.#log.warn(`could not open the local store of ${accountId}; setting it aside`, error)
        const rescued = readOutboxOf(file, key)
        const waited = this.#unsentCount(accountId).read()
        this.#setAside(accountId)
        const store = await this.#create(accountId)
        if (rescued.length > 0) await store.keepOutbox(rescued)
        return { store, setAside: setAsideNotice(waited === 'unknown' ? waited : Math.max(0, waited - rescued.length)) }
      }
    }
    if (existsSync(file)) {
      // A database whose key is gone (sealed under another keychain, say) can never be read, nor its outbox.
      this.#log.warn(`the local store of ${accountId} has no key any more; setting it aside`)
      const waited = this.#unsentCount(accountId).read()
      this.#setAside(accountId)
      return { store: await this.#create(accountId), setAside: setAsideNotice(waited) }
    }
    return { store: await this.#create(accountId), setAside: null }
  }

  async has(accountId: string): Promise<boolean> {
    requireFileSafe(accountId)
    return this.#keys.lasting && existsSync(this.#file(accountId)) && this.#keys.read(accountId) !== undefined
  }

  async remove(accountId: string): Promise<void> {
    requireFileSafe(accountId)
    if (!existsSync(this.#directory)) return
    for (const name of readdirSync(this.#directory)) {
      if (name.startsWith(`${accountId}.`)) rmSync(join(this.#directory, name), { force: true, recursive: true })
    }
  }

  async #create(accountId: string): Promise<SqliteStore> {
    const file = this.#file(accountId)
    for (const path of databaseFiles(file)) rmSync(path, { force: true })
    // Pictures sealed under a key that is gone can never be read again, and a new store's outbox
    // is empty: a count left from one before it says nothing of it.
    rmSync(this.#picturesDirectory(accountId), { force: true, recursive: true })
    this.#unsentCount(accountId).remove()
    const key = this.#keys.create(accountId)
    return this.#withPictures(accountId, openFile(file, key, this.#maxPages), key)
  }

  async #withPictures(accountId: string, db: Database, key: string): Promise<SqliteStore> {
    try {
      const pictures = await FilePictureCache.open({ directory: this.#picturesDirectory(accountId), storeKey: key, limitBytes: INITIAL_PICTURE_LIMIT_BYTES, log: this.#log })
      return new SqliteStore(db, this.#file(accountId), { pictures, unsent: this.#unsentCount(accountId) })
    } catch (error) {
      // Pictures are only a cache: without them, messages are still kept.
      this.#log.warn(`could not open the picture cache of ${accountId}; pictures will not be kept`, error)
      return new SqliteStore(db, this.#file(accountId), { unsent: this.#unsentCount(accountId) })
    }
  }

  #picturesDirectory(accountId: string): string {
    return join(this.#directory, `${accountId}.pictures`)
  }

  /**
   * Renames the database (and its key, which alone can read it) out of the way, kept for whoever
   * wants to look. Its pictures are only a cache, and go when the new store is made.
   */
  #setAside(accountId: string): void {
    const suffix = `set-aside-${this.#now()}`
    for (const path of [...databaseFiles(this.#file(accountId)), join(this.#directory, `${accountId}.key`)]) {
      if (existsSync(path)) renameSync(path, `${path}.${suffix}`)
    }
  }

  #file(accountId: string): string {
    return join(this.#directory, `${accountId}.db`)
  }

  /** How many messages wait in the account's outbox, beside its store (removed with it, as its name begins the same). */
  #unsentCount(accountId: string): UnsentCountFile {
    return new UnsentCountFile(join(this.#directory, `${accountId}.unsent`))
  }
}

/** Opens, keys, checks and migrates the database; throws if any of it fails, closing what it opened. */
function openFile(file: string, key: string, maxPages: number | undefined): Database {
  const db = new Sqlite(file)
  try {
    keyed(db, key)
    if (maxPages !== undefined) db.pragma(`max_page_count = ${Math.floor(maxPages)}`)
    const check = db.pragma('quick_check', { simple: true })
    if (check !== 'ok') throw new Error(`the integrity check found: ${String(check)}`)
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

function keyed(db: Database, key: string): void {
  db.pragma(`cipher = 'sqlcipher'`)
  db.pragma('legacy = 4')
  db.pragma(`key = "x'${key}'"`)
}

function openInMemory(): SqliteStore {
  const db = new Sqlite(':memory:')
  migrate(db)
  return new SqliteStore(db, null)
}

/** What waited to be sent in a store that will not open whole, if that much of it can still be read. */
function readOutboxOf(file: string, key: string): PendingMessage[] {
  let db: Database | undefined
  try {
    db = new Sqlite(file, { readonly: true })
    keyed(db, key)
    return (db.prepare('SELECT json FROM outbox ORDER BY position').all() as { json: string }[]).map((row) => JSON.parse(row.json) as PendingMessage)
  } catch {
    return []
  } finally {
    db?.close()
  }
}

/**
 * Failures that come and go with the machine rather than the file (a full disk, an I/O error, a
 * file locked or not allowed): the database is left where it is, to open another time.
 */
function isPassing(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === 'string' && /^SQLITE_(FULL|IOERR|CANTOPEN|BUSY|LOCKED|READONLY|PERM|NOMEM)/.test(code)
}

function databaseFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`]
}

/** Account ids name files here: only digits, letters, `-` and `_` may. */
function requireFileSafe(accountId: string): void {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(accountId)) throw new Error(`not an account id a file can be named by: ${JSON.stringify(accountId)}`)
}
