import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import { unauthorized } from '../http/errors.js'
import { AccessTokens, type TokenResult } from './access-tokens.js'
import { Accounts, emailKey } from './accounts.js'
import { PasswordFailures } from './password-failures.js'
import { dummyPasswordHash, sha256 } from './secrets.js'
import { Verifications, type VerificationView } from './verifications.js'

/** L1 (§3.1): credentials under the failure limit, verification codes, known devices and challenges. */

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
  readonly #isKnown: Statement<[number, string], { one: number }>
  readonly #remember: Statement<[number, string, number]>
  readonly #forget: Statement<[number]>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#isKnown = db.prepare('SELECT 1 AS one FROM known_devices WHERE user_id = ? AND device_id = ?')
    this.#remember = db.prepare('INSERT OR IGNORE INTO known_devices (user_id, device_id, created_at) VALUES (?, ?, ?)')
    this.#forget = db.prepare('DELETE FROM known_devices WHERE user_id = ?')
    // Made now, so that the first unknown username costs no more than a wrong password.
    void dummyPasswordHash()
  }

  async signIn(request: LoginRequest): Promise<LoginOutcome> {
    const account = this.#core.use(Accounts).byUsername(request.username)
    // Failures count per username as sent (ASCII case-insensitive) and per account, so neither an
    // unknown username nor another spelling of a known one escapes the limit (§18.28).
    const keys = { usernameHash: sha256(emailKey(request.username)), userId: account?.id ?? null }
    const matches = await this.#core.use(PasswordFailures).check(keys, request.password, account?.password_hash ?? null)
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

  /** P1 forgets the account's known devices (§18.19). */
  forgetDevices(userId: number): void {
    this.#forget.run(userId)
  }
}
