import type { Statement } from 'better-sqlite3'
import type { Core } from '../core.js'
import { tooManyRequests, unauthorized } from '../http/errors.js'
import { AccessTokens, type TokenResult } from './access-tokens.js'
import { Accounts } from './accounts.js'
import { verifyPassword } from './secrets.js'
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
  readonly #countFailures: Statement<[number, number], { n: number }>
  readonly #recordFailure: Statement<[number, number]>
  readonly #isKnown: Statement<[number, string], { one: number }>
  readonly #remember: Statement<[number, string, number]>
  readonly #forget: Statement<[number]>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#countFailures = db.prepare('SELECT count(*) AS n FROM login_failures WHERE user_id = ? AND at > ?')
    this.#recordFailure = db.prepare('INSERT INTO login_failures (user_id, at) VALUES (?, ?)')
    this.#isKnown = db.prepare('SELECT 1 AS one FROM known_devices WHERE user_id = ? AND device_id = ?')
    this.#remember = db.prepare('INSERT OR IGNORE INTO known_devices (user_id, device_id, created_at) VALUES (?, ?, ?)')
    this.#forget = db.prepare('DELETE FROM known_devices WHERE user_id = ?')
  }

  async signIn(request: LoginRequest): Promise<LoginOutcome> {
    const accounts = this.#core.use(Accounts)
    const account = accounts.byUsername(request.username)
    if (account === undefined) throw unauthorized('Wrong username or password')

    // The limit is checked before the password, so while it holds even the right password gets 429
    // (§3.1); only 401 answers to password checks count as failures (§18.17).
    const now = this.#core.clock.now()
    const failures = this.#countFailures.get(account.id, now - FAILURE_WINDOW_SECONDS)?.n ?? 0
    if (failures >= FAILURE_LIMIT) throw tooManyRequests('Too many failed sign-in attempts; try again later')

    if (!(await verifyPassword(request.password, account.password_hash))) {
      this.#recordFailure.run(account.id, this.#core.clock.now())
      throw unauthorized('Wrong username or password')
    }

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

  /** P1 forgets the account's known devices (§18.19). */
  forgetDevices(userId: number): void {
    this.#forget.run(userId)
  }
}
