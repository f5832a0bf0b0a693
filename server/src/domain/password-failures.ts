import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import { tooManyRequests } from '../http/errors.js'
import { checkPassword } from './secrets.js'

/**
 * The failure limit on password checks (§3.1, §18.17, §18.28, §18.32): at most 10 wrong passwords
 * for one account, or one username, within 15 minutes, whether they came to L1 or to P1.
 */

export const FAILURE_WINDOW_SECONDS = 900
export const FAILURE_LIMIT = 10

/**
 * What a password check counts against, and is recorded as when it fails. L1 gives both: the
 * username as sent (ASCII-lowercased, as a SHA-256), and the account it names, if any. P1 gives
 * the account alone (see `PasswordFailures.checkAccount`).
 */
export interface FailureKeys {
  usernameHash: string | null
  userId: number | null
}

export class PasswordFailures {
  readonly #core: Core
  readonly #count: Statement<[number, string | null, number | null], { n: number }>
  readonly #reserve: Statement<[string | null, number | null, number], { id: number }>
  readonly #release: Statement<[number]>
  readonly #prune: Statement<[number]>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    // `= NULL` is never true, so a key that is null counts nothing.
    this.#count = db.prepare('SELECT count(*) AS n FROM login_failures WHERE at > ? AND (username_hash = ? OR user_id = ?)')
    this.#reserve = db.prepare('INSERT INTO login_failures (username_hash, user_id, at) VALUES (?, ?, ?) RETURNING id')
    this.#release = db.prepare('DELETE FROM login_failures WHERE id = ?')
    this.#prune = db.prepare('DELETE FROM login_failures WHERE at <= ?')
  }

  /**
   * Checks `password` against `storedHash` (the dummy hash when there is none) under the limit.
   * The limit is checked before the password, so while it holds even the right password gets 429;
   * and the check and the failure are one: a failure is recorded, under `keys`, in the same
   * synchronous transaction that counts, before the slow KDF runs, and is taken back if the
   * password turns out right. So of many simultaneous wrong passwords at most the limit's worth
   * are ever checked, and the rest are 429 whichever operation they came to.
   */
  async check(keys: FailureKeys, password: string, storedHash: string | null): Promise<boolean> {
    const windowStart = this.#core.clock.now() - FAILURE_WINDOW_SECONDS
    this.#prune.run(windowStart)
    const reservation = this.#core.transaction(() => {
      const failures = this.#count.get(windowStart, keys.usernameHash, keys.userId)?.n ?? 0
      if (failures >= FAILURE_LIMIT) throw tooManyRequests('Too many wrong passwords; try again later')
      return this.#reserve.get(keys.usernameHash, keys.userId, this.#core.clock.now())
    })
    const matches = await checkPassword(password, storedHash)
    if (matches && reservation !== undefined) this.#release.run(reservation.id)
    return matches
  }

  /**
   * P1's check of `password_current` (§18.32), counted against the account alone. Every L1
   * failure that named the account carries its id, whichever spelling named it (its e-mail in any
   * ASCII case, its phone in any format), so the account's id is the one key under which L1's
   * and P1's failures add up: P1 sees all of L1's, and L1, which counts its username or its
   * account, sees all of P1's. P1 records no username: it was sent none, and the hash of the
   * account's e-mail would add nothing for this account while it would go on limiting that
   * address after U2 moves the account to another, when someone else may sign up with it. For the
   * same reason failures recorded against a username before it named this account (guesses at an
   * address nobody had yet) do not count against the account here.
   */
  checkAccount(userId: number, password: string, storedHash: string): Promise<boolean> {
    return this.check({ usernameHash: null, userId }, password, storedHash)
  }
}
