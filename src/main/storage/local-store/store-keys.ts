// Each account's store is encrypted under a random key of its own, kept beside the stores in a
// file only the user can read. In Electron the key file is sealed by the OS keychain (safeStorage,
// as the token is), so a copied disk yields neither the database nor its key; browser mode has no
// keychain and leans on the file's permissions, as it does for the token.
import { randomBytes } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { writeFileAtomically } from '../data-dir'

/** How a key is protected on disk beyond the file's permissions. */
export interface KeySealing {
  /** False where the platform offers no real protection: keys then live in memory only. */
  available(): boolean
  seal(key: string): Buffer
  unseal(sealed: Buffer): string
}

/** Browser mode: the file's permissions are the protection. */
export const PLAIN_FILE: KeySealing = {
  available: () => true,
  seal: (key) => Buffer.from(key, 'utf8'),
  unseal: (sealed) => sealed.toString('utf8')
}

const KEY_BYTES = 32

export class StoreKeys {
  readonly #directory: string
  readonly #sealing: KeySealing

  constructor(directory: string, sealing: KeySealing) {
    this.#directory = directory
    this.#sealing = sealing
  }

  /** Whether keys outlive the process; when not, a store must not outlive it either. */
  get lasting(): boolean {
    return this.#sealing.available()
  }

  /** The account's key; undefined when none is kept (or it cannot be unsealed any more). */
  read(accountId: string): string | undefined {
    let sealed: Buffer
    try {
      sealed = readFileSync(this.#file(accountId))
    } catch {
      return undefined
    }
    try {
      const key = this.#sealing.unseal(sealed)
      return /^[0-9a-f]{64}$/.test(key) ? key : undefined
    } catch {
      return undefined
    }
  }

  /** A new random key for the account, kept before it is used. */
  create(accountId: string): string {
    const key = randomBytes(KEY_BYTES).toString('hex')
    writeFileAtomically(this.#file(accountId), this.#sealing.seal(key))
    return key
  }

  remove(accountId: string): void {
    rmSync(this.#file(accountId), { force: true })
  }

  #file(accountId: string): string {
    return join(this.#directory, `${accountId}.key`)
  }
}
