import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import { HttpError, badRequest, notFound } from '../http/errors.js'
import { Accounts, type Account } from './accounts.js'
import { phoneHint, phonesMatch } from './phones.js'
import { matchesHash, randomDigits, randomHex, sha256 } from './secrets.js'
import { SmsOutbox } from './sms.js'

/**
 * Verifications (MFA interactions, §3.2): login challenges and MFA channel checks, solved by an SMS
 * PIN (V2 + V3), a backup code (V3), or the text route (`/dev/sms`).
 */

export const VERIFICATION_LIFETIME_SECONDS = 600
export const PIN_ATTEMPTS = 5

export type Purpose = 'login' | 'channel'

export interface VerificationRow {
  code: string
  user_id: number
  purpose: Purpose
  long_pin: string
  pin_hash: string | null
  remaining_attempts: number
  verified_at: number | null
  consumed_at: number | null
  created_at: number
  expires_at: number
}

/** §15.8 verification V. */
export interface VerificationView {
  code: string
  methods: { sms: string; call: string; email?: string }
  status: 'verified' | 'unverified'
  long_pin: string
  system_number: string
  type?: 'force'
}

/** `a***@example.com` (§3.2). */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@')
  const local = email.slice(0, Math.max(at, 0))
  const first = [...local][0] ?? ''
  return `${first}***@${email.slice(at + 1)}`
}

export class Verifications {
  readonly #core: Core
  readonly #insert: Statement<[string, number, Purpose, string, number, number]>
  readonly #find: Statement<[{ code: string; now: number }], VerificationRow>
  readonly #setPin: Statement<[string, string]>
  readonly #markVerified: Statement<[number, string]>
  readonly #setAttempts: Statement<[number, string]>
  readonly #consume: Statement<[number, string]>
  readonly #openOfUser: Statement<[{ user: number; now: number }], VerificationRow>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#insert = db.prepare(
      'INSERT INTO verifications (code, user_id, purpose, long_pin, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?)'
    )
    this.#find = db.prepare('SELECT * FROM verifications WHERE code = @code AND expires_at > @now')
    this.#setPin = db.prepare('UPDATE verifications SET pin_hash = ? WHERE code = ?')
    this.#markVerified = db.prepare('UPDATE verifications SET verified_at = ? WHERE code = ?')
    this.#setAttempts = db.prepare('UPDATE verifications SET remaining_attempts = ? WHERE code = ?')
    this.#consume = db.prepare('UPDATE verifications SET consumed_at = ? WHERE code = ?')
    this.#openOfUser = db.prepare(
      `SELECT * FROM verifications WHERE user_id = @user AND verified_at IS NULL AND remaining_attempts > 0
       AND expires_at > @now ORDER BY created_at, code`
    )
  }

  create(userId: number, purpose: Purpose): VerificationRow {
    const now = this.#core.clock.now()
    const code = `${randomHex(40)}-${randomHex(40)}`
    this.#insert.run(code, userId, purpose, randomHex(12), now, now + VERIFICATION_LIFETIME_SECONDS)
    return this.#require(code)
  }

  /** A verification that exists and has not expired, else 404 (V1–V3). */
  find(code: string): VerificationRow | undefined {
    return this.#find.get({ code, now: this.#core.clock.now() })
  }

  #require(code: string): VerificationRow {
    const row = this.find(code)
    if (row === undefined) throw notFound('Unknown or expired verification')
    return row
  }

  #account(row: VerificationRow): Account {
    const account = this.#core.use(Accounts).byId(row.user_id)
    if (account === undefined) throw notFound('Unknown or expired verification')
    return account
  }

  view(row: VerificationRow): VerificationView {
    const account = this.#account(row)
    const hint = phoneHint(account.phone_number)
    const base = {
      code: row.code,
      status: row.verified_at === null ? ('unverified' as const) : ('verified' as const),
      long_pin: row.long_pin,
      system_number: this.#core.config.systemNumber
    }
    return row.purpose === 'login'
      ? { ...base, methods: { sms: hint, call: hint, email: maskEmail(account.email) }, type: 'force' }
      : { ...base, methods: { sms: hint, call: hint } }
  }

  /** V1. */
  show(code: string): VerificationView {
    return this.view(this.#require(code))
  }

  /** V2: a fresh 6-digit PIN replaces any earlier one and goes out by SMS. */
  initiate(code: string): { hint: string } {
    const row = this.#require(code)
    if (row.verified_at !== null) throw badRequest('This verification is already verified')
    if (row.remaining_attempts <= 0) throw badRequest('This verification is locked')
    const account = this.#account(row)
    const pin = randomDigits(6)
    this.#core.transaction(() => {
      this.#setPin.run(sha256(pin), code)
      this.#core.use(SmsOutbox).send(account.phone_number, `Your verification code is ${pin}`)
    })
    return { hint: phoneHint(account.phone_number) }
  }

  /** V3: the current SMS PIN or the account's backup code (then consumed) verifies it. */
  confirm(code: string, pin: string): { status: 20000 } {
    const row = this.#require(code)
    if (row.verified_at !== null) throw badRequest('This verification is already verified')
    if (row.remaining_attempts <= 0) throw new HttpError(400, 'Locked', { remaining_attempts: 0 })
    const account = this.#account(row)
    const now = this.#core.clock.now()
    // Both checks always run, so the answer time does not tell which secret was close.
    const pinOk = matchesHash(pin, row.pin_hash)
    const backupOk = matchesHash(pin, account.backup_code_hash)
    if (pinOk || backupOk) {
      this.#core.transaction(() => {
        this.#markVerified.run(now, code)
        if (!pinOk) this.#core.use(Accounts).setBackupCodeHash(account.id, null)
      })
      return { status: 20000 }
    }
    const remaining = row.remaining_attempts - 1
    this.#setAttempts.run(remaining, code)
    throw new HttpError(400, 'Wrong PIN', { remaining_attempts: remaining })
  }

  /**
   * The text route (`/dev/sms`): a text to the system number containing a verification's long PIN,
   * from the account's phone, verifies every open verification it names.
   */
  verifyByText(from: string, to: string, text: string): string[] {
    if (!phonesMatch(to, this.#core.config.systemNumber)) return []
    const account = this.#core.use(Accounts).byPhone(from)
    if (account === undefined) return []
    const now = this.#core.clock.now()
    const verified: string[] = []
    this.#core.transaction(() => {
      for (const row of this.#openOfUser.all({ user: account.id, now })) {
        if (!text.includes(row.long_pin)) continue
        this.#markVerified.run(now, row.code)
        verified.push(row.code)
      }
    })
    return verified
  }

  /**
   * Consumes a usable verification: this account's, of this purpose, verified, unexpired and not
   * yet consumed (L1 step 2, M3). Returns false, changing nothing, when it is not usable.
   */
  consume(code: string, userId: number, purpose: Purpose): boolean {
    const row = this.find(code)
    if (row === undefined || row.user_id !== userId || row.purpose !== purpose) return false
    if (row.verified_at === null || row.consumed_at !== null) return false
    this.#consume.run(this.#core.clock.now(), code)
    return true
  }
}
