// The access token, with the addresses of the deployment that issued it, encrypted as one with the
// OS keychain through Electron's safeStorage and kept in its own electron-store file. Where the OS
// offers no real encryption the token stays in memory only: the user signs in again next launch
// rather than having a readable token on disk.
import type { IssuedToken } from '@shared/token-issuer'
import { decodeKeptToken, encodeKeptToken } from '../storage/kept-token'
import type { TokenVault } from '../core/ports'
import type { Log } from '../log/log'
import type { KeyValueStore } from '../storage/stored-preferences'

/** The part of Electron's `safeStorage` the vault uses. */
export interface Encryption {
  isEncryptionAvailable(): boolean
  encryptString(plainText: string): Buffer
  decryptString(encrypted: Buffer): string
  /** Linux only; `basic_text` means "encrypted" with a hard-coded key, which is no protection. */
  getSelectedStorageBackend?(): string
}

/** Whether safeStorage really encrypts here: on Linux without a keychain it offers a hard-coded key. */
export function keychainEncrypts(encryption: Encryption): boolean {
  return encryption.isEncryptionAvailable() && encryption.getSelectedStorageBackend?.() !== 'basic_text'
}

/** Where the token and its issuer are kept together. */
const SESSION_KEY = 'session'
/** Where versions that kept the token alone kept it: such a token says nothing of where it may go. */
const BARE_TOKEN_KEY = 'accessToken'

export class SafeStorageTokenVault implements TokenVault {
  readonly #store: KeyValueStore
  readonly #encryption: Encryption
  readonly #log: Log
  #memory: IssuedToken | null = null
  #warned = false

  constructor(options: { store: KeyValueStore; encryption: Encryption; log: Log }) {
    this.#store = options.store
    this.#encryption = options.encryption
    this.#log = options.log
  }

  async load(): Promise<IssuedToken | null> {
    if (this.#memory !== null) return this.#memory
    if (this.#store.get(BARE_TOKEN_KEY) !== undefined) {
      this.#log.warn('forgot a session kept without the service that issued it; signing in again will replace it')
      this.#store.delete(BARE_TOKEN_KEY)
    }
    const stored = this.#store.get(SESSION_KEY)
    if (typeof stored !== 'string' || !this.#canEncrypt()) return null
    let kept: IssuedToken | null
    try {
      kept = decodeKeptToken(this.#encryption.decryptString(Buffer.from(stored, 'base64')))
    } catch (error) {
      // A token encrypted under another user or keychain cannot be recovered; forget it.
      this.#log.warn('could not decrypt the saved session; signing in again will replace it', error)
      kept = null
    }
    if (kept === null) this.#store.delete(SESSION_KEY)
    this.#memory = kept
    return kept
  }

  async save(token: IssuedToken): Promise<void> {
    this.#memory = token
    if (!this.#canEncrypt()) {
      this.#store.delete(SESSION_KEY)
      return
    }
    this.#store.set(SESSION_KEY, this.#encryption.encryptString(encodeKeptToken(token)).toString('base64'))
  }

  async clear(): Promise<void> {
    this.#memory = null
    this.#store.delete(SESSION_KEY)
    this.#store.delete(BARE_TOKEN_KEY)
  }

  #canEncrypt(): boolean {
    const usable = keychainEncrypts(this.#encryption)
    if (!usable && !this.#warned) {
      this.#warned = true
      this.#log.warn(
        'the system offers no keychain to encrypt the session with, so it is kept in memory only ' +
          'and you will be asked to sign in after each launch',
        { available: this.#encryption.isEncryptionAvailable(), backend: this.#encryption.getSelectedStorageBackend?.() }
      )
    }
    return usable
  }
}
