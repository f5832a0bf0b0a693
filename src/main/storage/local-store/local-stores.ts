// Where each account's store lives (`<data dir>/store/<account id>.db`), how it is opened, and what
// happens to one that cannot be read. Its SQL runs in a worker thread of its own (store-worker.ts),
// never on main, where pushes go on their way to the page; its integrity check runs after it
// opens, on another, so a start never waits for the whole file to be read. The database is encrypted with SQLCipher's scheme under a
// random 256-bit key given raw (no key derivation: the key is not a password, and deriving one
// would cost a third of a second at every start), and written with WAL so a process killed at any
// moment leaves every committed transaction whole. Sync is NORMAL, not FULL: FULL waits for the
// disk at every commit (measured here: 7.8 ms a commit at the median, 29 ms at p99, on the main
// thread, where the next push waited behind it), NORMAL at checkpoints only (0.03 ms a commit);
// what it gives up is the last transactions before a power cut or an OS crash, never a process's.
// Its pictures are kept beside it (`<account id>.pictures/`, picture-cache.ts), sealed under a key
// derived from the store's, and go wherever the store goes.
import { existsSync, readdirSync, renameSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import type { PendingMessage } from '@shared/messages'
import type { LocalStore, LocalStores, OpenedStore, StoreCheck } from '../../core/ports'
import type { Log } from '../../log/log'
import { ensurePrivateDirectory } from '../data-dir'
import { FilePictureCache } from './picture-cache'
import { StoreKeys, type KeySealing } from './store-keys'
import type { StoreRequests } from './store-requests'
import { StoreThread } from './store-thread'
import { ThreadedStore } from './threaded-store'
import { UnsentCountFile, type UnsentCount } from './unsent-count'

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

  async open(accountId: string): Promise<OpenedStore> {
    requireFileSafe(accountId)
    if (!this.#keys.lasting) {
      // With no way to protect a key on this system, nothing is written in a form that outlives it.
      this.#log.warn('this system offers no protection for the local store key: messages are kept in memory only')
      const memory = { file: null, key: '' }
      return { store: new ThreadedStore(await openThreaded(accountId, memory), memory), setAside: null }
    }
    ensurePrivateDirectory(this.#directory)
    const file = this.#file(accountId)
    const key = this.#keys.read(accountId)
    if (key !== undefined) {
      let store: ThreadedStore
      try {
        store = await this.#openFile(accountId, key)
      } catch (error) {
        // A full disk, or a file the system will not let us have now, says nothing of the database.
        if (isPassing(error)) throw error
        this.#log.warn(`could not open the local store of ${accountId}; setting it aside`, error)
        const rescued = await outboxOf(accountId, file, key)
        return this.#rebuild(accountId, rescued)
      }
      return { store, setAside: null, check: () => this.#check(accountId, store) }
    }
    if (existsSync(file)) {
      // A database whose key is gone (sealed under another keychain, say) can never be read, nor its outbox.
      this.#log.warn(`the local store of ${accountId} has no key any more; setting it aside`)
      return this.#rebuild(accountId, null)
    }
    return { store: await this.#create(accountId), setAside: null }
  }

  async replaceDamaged(accountId: string, damaged: LocalStore): Promise<{ store: LocalStore; setAside: string }> {
    requireFileSafe(accountId)
    // What waits unsent is read through the store's own connection, as far as the damage lets it.
    const rescued = await damaged.outbox().catch((error: unknown) => {
      this.#log.warn(`could not read the outbox of the damaged local store of ${accountId}`, error)
      return []
    })
    await damaged.close().catch((error: unknown) => this.#log.warn(`could not close the damaged local store of ${accountId}`, error))
    return this.#rebuild(accountId, rescued)
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

  /**
   * Sets the account's store aside and makes a new one, with `rescued` in its outbox (null: none
   * could be read); the notice says how many of the messages that waited are lost.
   */
  async #rebuild(accountId: string, rescued: PendingMessage[] | null): Promise<{ store: LocalStore; setAside: string }> {
    const waited = this.#unsentCount(accountId).read()
    this.#setAside(accountId)
    const store = await this.#create(accountId)
    if (rescued !== null && rescued.length > 0) await store.keepOutbox(rescued)
    const lost = rescued === null || waited === 'unknown' ? waited : Math.max(0, waited - rescued.length)
    return { store, setAside: setAsideNotice(lost) }
  }

  /**
   * Runs the store's integrity check once it is open: `damaged` when it found the file so, or could
   * not read it; `whole` otherwise, a check that could not run (the machine, not the file) included.
   */
  async #check(accountId: string, store: ThreadedStore): Promise<StoreCheck> {
    try {
      const found = await store.check()
      if (found === 'ok') return 'whole'
      this.#log.warn(`the integrity check of the local store of ${accountId} found: ${found}`)
      return 'damaged'
    } catch (error) {
      if (isPassing(error) || !hasCode(error)) {
        this.#log.warn(`the integrity check of the local store of ${accountId} could not run`, error)
        return 'whole'
      }
      this.#log.warn(`the integrity check of the local store of ${accountId} could not read it`, error)
      return 'damaged'
    }
  }

  async #create(accountId: string): Promise<ThreadedStore> {
    const file = this.#file(accountId)
    for (const path of databaseFiles(file)) rmSync(path, { force: true })
    // Pictures sealed under a key that is gone can never be read again, and a new store's outbox
    // is empty: a count left from one before it says nothing of it.
    rmSync(this.#picturesDirectory(accountId), { force: true, recursive: true })
    this.#unsentCount(accountId).remove()
    const key = this.#keys.create(accountId)
    return this.#openFile(accountId, key)
  }

  /** Opens the store in a thread of its own, with its pictures beside it. */
  async #openFile(accountId: string, key: string): Promise<ThreadedStore> {
    const at = { file: this.#file(accountId), key }
    const opening = openThreaded(accountId, { ...at, ...(this.#maxPages === undefined ? {} : { maxPages: this.#maxPages }), unsentPath: this.#unsentPath(accountId) })
    const pictures = FilePictureCache.open({ directory: this.#picturesDirectory(accountId), storeKey: key, limitBytes: INITIAL_PICTURE_LIMIT_BYTES, log: this.#log }).catch(
      (error: unknown) => {
        // Pictures are only a cache: without them, messages are still kept.
        this.#log.warn(`could not open the picture cache of ${accountId}; pictures will not be kept`, error)
        return undefined
      }
    )
    let thread: StoreThread
    try {
      thread = await opening
    } catch (error) {
      await (await pictures)?.close()
      throw error
    }
    return new ThreadedStore(thread, at, await pictures)
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

  #unsentPath(accountId: string): string {
    return join(this.#directory, `${accountId}.unsent`)
  }

  /** How many messages wait in the account's outbox, beside its store (removed with it, as its name begins the same). */
  #unsentCount(accountId: string): UnsentCountFile {
    return new UnsentCountFile(this.#unsentPath(accountId))
  }
}

/** A thread with the account's store open in it; throws (with SQLite's code) when it will not open, the thread ended. */
async function openThreaded(accountId: string, at: StoreRequests['open']['req']): Promise<StoreThread> {
  const thread = new StoreThread(`the local store of ${accountId}`)
  try {
    await thread.request('open', at)
    return thread
  } catch (error) {
    await thread.close().catch(() => undefined)
    throw error
  }
}

/** What waited to be sent in a store that will not open whole, if that much of it can still be read: read in a thread, as all its SQL is. */
async function outboxOf(accountId: string, file: string, key: string): Promise<PendingMessage[]> {
  const thread = new StoreThread(`what waited unsent in the local store of ${accountId}`)
  try {
    return await thread.request('outboxOf', { file, key })
  } catch {
    return []
  } finally {
    await thread.close().catch(() => undefined)
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

/** SQLite said why (every failure of the file has a code); a thread that stopped or failed to start did not. */
function hasCode(error: unknown): boolean {
  return typeof (error as { code?: unknown } | null)?.code === 'string'
}

function databaseFiles(file: string): string[] {
  return [file, `${file}-wal`, `${file}-shm`]
}

/** Account ids name files here: only digits, letters, `-` and `_` may. */
function requireFileSafe(accountId: string): void {
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(accountId)) throw new Error(`not an account id a file can be named by: ${JSON.stringify(accountId)}`)
}
