// Browser mode has no OS keychain to lean on, so the token sits in a file only the user can read
// (0600, inside a 0700 directory), the way command-line tools keep their credentials, together
// with the addresses of the deployment that issued it.
import { chmod, readFile, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { IssuedToken } from '@shared/token-issuer'
import { decodeKeptToken, encodeKeptToken } from './kept-token'
import type { TokenVault } from '../core/ports'
import type { Log } from '../log/log'
import { FILE_MODE, writeFileAtomically } from './data-dir'

export const TOKEN_FILE_NAME = 'session-token'

export class FileTokenVault implements TokenVault {
  readonly #file: string
  readonly #log: Log

  constructor(dataDir: string, log: Log) {
    this.#file = join(dataDir, TOKEN_FILE_NAME)
    this.#log = log
  }

  async load(): Promise<IssuedToken | null> {
    let text: string
    try {
      text = (await readFile(this.#file, 'utf8')).trim()
    } catch (error) {
      if (isMissing(error)) return null
      throw error
    }
    if (process.platform !== 'win32' && ((await stat(this.#file)).mode & 0o077) !== 0) {
      this.#log.warn(`${this.#file} was readable by others; it is now readable by you only`)
      await chmod(this.#file, FILE_MODE)
    }
    if (text === '') return null
    const kept = decodeKeptToken(text)
    if (kept === null) {
      this.#log.warn(`${this.#file} holds a session that does not say which service issued it; signing in again will replace it`)
      await this.clear()
    }
    return kept
  }

  async save(token: IssuedToken): Promise<void> {
    writeFileAtomically(this.#file, encodeKeptToken(token))
  }

  async clear(): Promise<void> {
    await rm(this.#file, { force: true })
  }
}

function isMissing(error: unknown): boolean {
  return error instanceof Error && 'code' in error && error.code === 'ENOENT'
}
