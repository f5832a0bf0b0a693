// The access token, encrypted with the OS keychain through Electron's safeStorage and kept in its
// own electron-store file. Where the OS offers no real encryption the token stays in memory only:
// the user signs in again next launch rather than having a readable token on disk.
import type { TokenVault } from '../core/ports'
import type { Log } from '../log/log'
import type { KeyValueStore } from '../core/stored-preferences'

/** The part of Electron's `safeStorage` the vault uses. */
export interface Encryption {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  /** Linux only; `basic_text` means "encrypted" with a hard-coded key, which is no protection. */
  getSelectedStorageBackend?(): string
}

const TOKEN_KEY = 'accessToken'

export class SafeStorageTokenVault implements TokenVault {
  readonly #store: KeyValueStore
  readonly #encryption: Encryption
  readonly #log: Log
  #memory: string | null = null
  #warned = false

  constructor(options: { store: KeyValueStore; encryption: Encryption; log: Log }) {
    this.#store = options.store
    this.#encryption = options.encryption
    this.#log = options.log
  }

  async load(): Promise<string | null> {
    if (this.#memory !== null) return this.#memory
    const stored = this.#store.get(TOKEN_KEY)
    if (typeof stored !== 'string' || !this.#canEncrypt()) return null
    try {
      this.#memory = this.#encryption.decryptString(Buffer.from(stored, 'base64'))
      return this.#memory
    } catch (error) {
      // A token encrypted under another user or keychain cannot be recovered; forget it.
      this.#log.warn('could not decrypt the saved session; signing in again will replace it', error)
      this.#store.delete(TOKEN_KEY)
      return null
    }
  }

  async save(token: string): Promise<void> {
    this.#memory = token
    if (!this.#canEncrypt()) {
      this.#store.delete(TOKEN_KEY)
      return
    }
    this.#store.set(TOKEN_KEY, this.#encryption.encryptString(token).toString('base64'))
  }

  async clear(): Promise<void> {
    this.#memory = null
    this.#store.delete(TOKEN_KEY)
  }

  #canEncrypt(): boolean {
    const available = this.#encryption.isEncryptionAvailable()
    const backend = this.#encryption.getSelectedStorageBackend?.()
    const usable = available && backend !== 'basic_text'
    if (!usable && !this.#warned) {
      this.#warned = true
      this.#log.warn(
        'the system offers no keychain to encrypt the session with, so it is kept in memory only ' +
          'and you will be asked to sign in after each launch',
        { available, backend }
      )
    }
    return usable
  }
}
