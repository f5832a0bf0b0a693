import type { Statement } from 'better-sqlite3'
import type { Core } from '../core.js'
import { tooManyRequests, unauthorized } from '../http/errors.js'
import { AccessTokens, type TokenResult } from './access-tokens.js'
import { Accounts, emailKey, type Account } from './accounts.js'
import { checkPassword, dummyPasswordHash, sha256 } from './secrets.js'
import { Verifications, type VerificationView } from './verifications.js'

/** L1 (§3.1): credentials, the rate limit, verification codes, known devices and challenges. */

export const FAILURE_WINDOW_SECONDS = 900
export const FAILURE_LIMIT = 10

export interface LoginRequest {
  appId: string
  username: string
  password: string
  deviceId: string | null
  verificationCode: string | null
}

export type LoginOutcome = { kind: 'token'; token: TokenResult } | { kind: 'challenge'; verification: VerificationView }

export class Login {
  readonly #core: Core
  readonly #countFailures: Statement<[number, string, number | null], { n: number }>
  readonly #reserveFailure: Statement<[string, number | null, number], { id: number }>
  readonly #releaseFailure: Statement<[number]>
  readonly #pruneFailures: Statement<[number]>
  readonly #isKnown: Statement<[number, string], { one: number }>
  readonly #remember: Statement<[number, string, number]>
  readonly #forget: Statement<[number]>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#countFailures = db.prepare(
      'SELECT count(*) AS n FROM login_failures WHERE at > ? AND (username_hash = ? OR user_id = ?)'
    )
    this.#reserveFailure = db.prepare('INSERT INTO login_failures (username_hash, user_id, at) VALUES (?, ?, ?) RETURNING id')
    this.#releaseFailure = db.prepare('DELETE FROM login_failures WHERE id = ?')
    this.#pruneFailures = db.prepare('DELETE FROM login_failures WHERE at <= ?')
    this.#isKnown = db.prepare('SELECT 1 AS one FROM known_devices WHERE user_id = ? AND device_id = ?')
    this.#remember = db.prepare('INSERT OR IGNORE INTO known_devices (user_id, device_id, created_at) VALUES (?, ?, ?)')
    this.#forget = db.prepare('DELETE FROM known_devices WHERE user_id = ?')
    // Made now, so that the first unknown username costs no more than a wrong password.
    void dummyPasswordHash()
  }

  async signIn(request: LoginRequest): Promise<LoginOutcome> {
    const account = this.#core.use(Accounts).byUsername(request.username)
    const matches = await this.#checkWithinLimit(request.username, account, request.password)
    if (account === undefined || !matches) throw unauthorized('Wrong username or password')

    const tokens = this.#core.use(AccessTokens)
    const verifications = this.#core.use(Verifications)
    const deviceId = request.deviceId ?? ''

    if (request.verificationCode !== null) {
      const code = request.verificationCode
      return this.#core.transaction(() => {
        if (!verifications.consume(code, account.id, 'login')) throw unauthorized('The verification code is not usable')
        if (deviceId !== '') this.#remember.run(account.id, deviceId, this.#core.clock.now())
        return { kind: 'token' as const, token: tokens.issue(account, request.appId) }
      })
    }

    const known = deviceId !== '' && this.#isKnown.get(account.id, deviceId) !== undefined
    if (account.mfa_enabled === 1 || !known) {
      return { kind: 'challenge', verification: verifications.view(verifications.create(account.id, 'login')) }
    }
    return { kind: 'token', token: tokens.issue(account, request.appId) }
  }

  /**
   * The password check of §3.1 under its rate limit (§18.17, §18.28). Failures count per username
   * as sent (ASCII case-insensitive) and per account, so neither an unknown username nor another
   * spelling of a known one escapes the limit. The limit is checked before the password, so while
   * it holds even the right password gets 429; and the check and the failure are one: a failure is
   * recorded before the slow KDF runs and taken back if the password turns out right, so of many
   * simultaneous wrong passwords at most the limit's worth are ever checked.
   */
  async #checkWithinLimit(username: string, account: Account | undefined, password: string): Promise<boolean> {
    const usernameHash = sha256(emailKey(username))
    const userId = account?.id ?? null
    const windowStart = this.#core.clock.now() - FAILURE_WINDOW_SECONDS
    this.#pruneFailures.run(windowStart)
    const reservation = this.#core.transaction(() => {
      const failures = this.#countFailures.get(windowStart, usernameHash, userId)?.n ?? 0
      if (failures >= FAILURE_LIMIT) throw tooManyRequests('Too many failed sign-in attempts; try again later')
      return this.#reserveFailure.get(usernameHash, userId, this.#core.clock.now())
    })
    const matches = await checkPassword(password, account?.password_hash ?? null)
    if (matches && reservation !== undefined) this.#releaseFailure.run(reservation.id)
    return matches
  }

  /** P1 forgets the account's known devices (§18.19). */
  forgetDevices(userId: number): void {
    this.#forget.run(userId)
  }
}
