// The pictures of one account's messages, kept in `store/<account id>.pictures/`, one file each.
// Files rather than rows of the store's database: a picture is written and read with asynchronous
// file I/O, off the thread that carries pushes, where a blob would be a synchronous write into the
// database every message write waits behind; and a picture evicted gives its space back to the
// disk at once, where a deleted blob leaves free pages in the database until a VACUUM.
//
// Each file is sealed with AES-256-GCM under a key derived from the store's own (HKDF), so the
// pictures are as safe as the messages and go with them: a store made anew (set aside, say) has a
// new key, and what the old one sealed is removed. A file is named by an HMAC of the picture's
// address, so a name says nothing of where a picture came from, and the name is the cipher's
// associated data, so a file moved under another name no longer opens. When each was last used is
// the file's modification time, so the order outlives the process without an index to keep.
//
// Little here holds up the thread pushes travel on. Sealing and opening run in Node's thread pool
// (WebCrypto): a 10 MB picture sealed inline held the thread 11–50 ms on a busy two-core machine,
// WebCrypto's hand-off of it 2–16 ms (it copies the bytes), and a picture of usual size well under
// one. Opening a cache lists its directory only, 5–14 ms for 2,500 pictures there, so what is kept
// is known at once; each file's size and time (150–290 ms of stat calls) are read in the background,
// before anything is let go.
import { createHmac, hkdfSync, randomBytes, webcrypto } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat, utimes, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { KeptPicture, PictureCache, PictureUsage } from '../../core/ports'
import type { Log } from '../../log/log'

const NONCE_BYTES = 12
const NAME = /^[0-9a-f]{64}$/

export interface PictureCacheOptions {
  directory: string
  /** The account's store key (64 hex digits); the cache's own keys are derived from it. */
  storeKey: string
  limitBytes: number
  log: Log
  /** Unix milliseconds. */
  now?: () => number
}

interface Entry {
  bytes: number
  usedAt: number
}

export class FilePictureCache implements PictureCache {
  readonly #directory: string
  readonly #contentKey: webcrypto.CryptoKey
  readonly #nameKey: Buffer
  readonly #log: Log
  readonly #now: () => number
  /** Every picture kept, by file name; its size and time once read (`#measured`). */
  readonly #entries: Map<string, Entry>
  /** Resolves once the size and time of every file found at opening are known. */
  readonly #measured: Promise<void>
  #limit: number
  #total = 0
  #closed = false
  /** What is being written or removed, for close to wait on. */
  readonly #busy = new Set<Promise<unknown>>()

  private constructor(options: PictureCacheOptions, contentKey: webcrypto.CryptoKey, found: string[]) {
    this.#directory = options.directory
    this.#contentKey = contentKey
    this.#nameKey = derive(Buffer.from(options.storeKey, 'hex'), 'parley picture cache: names')
    this.#log = options.log
    this.#now = options.now ?? Date.now
    this.#limit = options.limitBytes
    // Until its file is measured, a picture counts as nothing and as used at the dawn of time.
    this.#entries = new Map(found.map((name) => [name, { bytes: 0, usedAt: 0 }]))
    this.#measured = this.#track(this.#measure(found))
  }

  /** Lists what the directory holds (sweeping away anything half written), making it if missing. */
  static async open(options: PictureCacheOptions): Promise<FilePictureCache> {
    await mkdir(options.directory, { recursive: true, mode: 0o700 })
    const found: string[] = []
    for (const name of await readdir(options.directory)) {
      // Any other name is a write a killed process never finished.
      if (NAME.test(name)) found.push(name)
      else await rm(join(options.directory, name), { force: true, recursive: true })
    }
    const key = derive(Buffer.from(options.storeKey, 'hex'), 'parley picture cache: contents')
    const contentKey = await webcrypto.subtle.importKey('raw', key, 'AES-GCM', false, ['encrypt', 'decrypt'])
    return new FilePictureCache(options, contentKey, found)
  }

  async #measure(found: string[]): Promise<void> {
    for (const name of found) {
      const entry = this.#entries.get(name)
      if (entry === undefined) continue
      try {
        const stats = await stat(this.#path(name))
        // A read since opening said when it was used; the file's time may be older.
        if (this.#entries.get(name) === entry) {
          entry.bytes = stats.size
          entry.usedAt = Math.max(entry.usedAt, stats.mtimeMs)
          this.#total += stats.size
        }
      } catch {
        this.#entries.delete(name)
      }
    }
    await this.#fit()
  }

  has(url: string): boolean {
    return !this.#closed && this.#entries.has(this.#nameOf(url))
  }

  async read(url: string): Promise<KeptPicture | null> {
    const name = this.#nameOf(url)
    if (this.#closed || !this.#entries.has(name)) return null
    let picture: KeptPicture
    try {
      picture = await this.#open(name, await readFile(this.#path(name)))
    } catch (error) {
      this.#log.warn('a kept picture could not be read; it is removed', error)
      await this.#track(this.#remove(name))
      return null
    }
    const entry = this.#entries.get(name)
    if (entry !== undefined) {
      entry.usedAt = this.#now()
      const time = new Date(entry.usedAt)
      void this.#track(utimes(this.#path(name), time, time).catch(() => undefined))
    }
    return picture
  }

  wouldKeep(usedAt: number): boolean {
    if (this.#closed) return false
    if (this.#total < this.#limit) return true
    // Pictures not yet measured count as used longest ago: the answer may be yes where it is no, never the other way.
    return [...this.#entries.values()].some((entry) => entry.usedAt < usedAt)
  }

  async keep(url: string, picture: KeptPicture, usedAt: number): Promise<boolean> {
    if (this.#closed) return false
    const name = this.#nameOf(url)
    const sealed = await this.#seal(name, picture)
    await this.#measured
    if (this.#closed || !this.#roomFor(sealed.length, usedAt, name)) return false
    return this.#track(this.#write(name, sealed, usedAt))
  }

  async setLimit(bytes: number): Promise<void> {
    this.#limit = bytes
    await this.#measured
    await this.#track(this.#fit())
  }

  /** What is kept; for a moment after opening, the bytes of pictures not yet measured are not counted. */
  usage(): PictureUsage {
    return { bytes: this.#total, limitBytes: this.#limit, pictures: this.#entries.size }
  }

  async close(): Promise<void> {
    this.#closed = true
    while (this.#busy.size > 0) await Promise.allSettled([...this.#busy])
  }

  async #write(name: string, sealed: Buffer, usedAt: number): Promise<boolean> {
    const path = this.#path(name)
    // Written aside, then renamed: a process killed half way leaves no half picture under the name.
    const partial = `${path}.${randomBytes(4).toString('hex')}.partial`
    try {
      await writeFile(partial, sealed, { mode: 0o600 })
      const time = new Date(usedAt)
      await utimes(partial, time, time)
      await rename(partial, path)
    } catch (error) {
      await rm(partial, { force: true })
      throw error
    }
    if (this.#closed) return false
    this.#total += sealed.length - (this.#entries.get(name)?.bytes ?? 0)
    this.#entries.set(name, { bytes: sealed.length, usedAt })
    await this.#fit()
    return this.#entries.has(name)
  }

  /**
   * Whether a picture of `bytes` last used at `usedAt` fits, counting what was used before it as
   * room to be made: it never pushes out anything used since.
   */
  #roomFor(bytes: number, usedAt: number, name: string): boolean {
    if (bytes > this.#limit) return false
    let free = this.#limit - this.#total + (this.#entries.get(name)?.bytes ?? 0)
    if (free >= bytes) return true
    for (const [other, entry] of this.#byAge()) {
      if (entry.usedAt >= usedAt) return false
      if (other !== name) free += entry.bytes
      if (free >= bytes) return true
    }
    return false
  }

  /** Removes what was used longest ago until the rest fits under the limit. */
  async #fit(): Promise<void> {
    for (const [name] of this.#byAge()) {
      if (this.#total <= this.#limit) return
      await this.#remove(name)
    }
  }

  #byAge(): [string, Entry][] {
    return [...this.#entries].sort(([, a], [, b]) => a.usedAt - b.usedAt)
  }

  async #remove(name: string): Promise<void> {
    const entry = this.#entries.get(name)
    if (entry === undefined) return
    this.#entries.delete(name)
    this.#total -= entry.bytes
    await rm(this.#path(name), { force: true })
  }

  /** The nonce, then the picture's type (its length in one byte first) and bytes, sealed with the tag after them. */
  async #seal(name: string, picture: KeptPicture): Promise<Buffer> {
    const type = Buffer.from(picture.contentType, 'utf8')
    if (type.length > 255) throw new Error('a picture type that long is no picture type')
    const nonce = randomBytes(NONCE_BYTES)
    const plain = Buffer.concat([Buffer.from([type.length]), type, picture.bytes])
    const sealed = await webcrypto.subtle.encrypt({ name: 'AES-GCM', iv: nonce, additionalData: Buffer.from(name, 'utf8') }, this.#contentKey, plain)
    return Buffer.concat([nonce, new Uint8Array(sealed)])
  }

  async #open(name: string, sealed: Buffer): Promise<KeptPicture> {
    const iv = sealed.subarray(0, NONCE_BYTES)
    const opened = await webcrypto.subtle.decrypt({ name: 'AES-GCM', iv, additionalData: Buffer.from(name, 'utf8') }, this.#contentKey, sealed.subarray(NONCE_BYTES))
    const plain = new Uint8Array(opened)
    const typeLength = plain[0] ?? 0
    return { contentType: Buffer.from(plain.subarray(1, 1 + typeLength)).toString('utf8'), bytes: plain.slice(1 + typeLength) }
  }

  #nameOf(url: string): string {
    return createHmac('sha256', this.#nameKey).update(url, 'utf8').digest('hex')
  }

  #path(name: string): string {
    return join(this.#directory, name)
  }

  async #track<T>(work: Promise<T>): Promise<T> {
    this.#busy.add(work)
    try {
      return await work
    } finally {
      this.#busy.delete(work)
    }
  }
}

/** Where no store outlives the process, no picture does either: nothing is kept. */
export const NO_PICTURES: PictureCache = {
  has: () => false,
  read: async () => null,
  wouldKeep: () => false,
  keep: async () => false,
  setLimit: async () => undefined,
  usage: () => ({ bytes: 0, limitBytes: 0, pictures: 0 }),
  close: async () => undefined
}

function derive(key: Buffer, info: string): Buffer {
  return Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), info, 32))
}
