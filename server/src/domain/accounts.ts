import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import { phoneDigits } from './phones.js'
import { hashPassword, randomAlnum } from './secrets.js'

/** Accounts: creation, look-up by id or username, and the user shapes of §15.8–15.9. */

export interface Account {
  id: number
  name: string
  email: string
  phone_number: string
  password_hash: string
  image_url: string | null
  bio: string
  share_token: string
  mfa_enabled: number
  mfa_channel_created_at: number | null
  backup_code_hash: string | null
  created_at: number
  updated_at: number
}

export interface NewAccount {
  name: string
  email: string
  phoneNumber: string
  password: string
}

/** ASCII-only lowercasing: e-mail uniqueness is ASCII case-insensitive (§18.18). */
export function emailKey(email: string): string {
  return email.replace(/[A-Z]/g, (c) => c.toLowerCase())
}

export class Accounts {
  readonly #core: Core
  readonly #byId: Statement<[number], Account>
  readonly #byEmail: Statement<[string], Account>
  readonly #byPhone: Statement<[string], Account>
  readonly #setBackupCode: Statement<[string | null, number]>
  readonly #insert: Statement<[string, string, string, string, string, string, string, number, number], { id: number }>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#byId = db.prepare('SELECT * FROM users WHERE id = ?')
    this.#byEmail = db.prepare('SELECT * FROM users WHERE email_key = ?')
    this.#byPhone = db.prepare('SELECT * FROM users WHERE phone_digits = ?')
    this.#setBackupCode = db.prepare('UPDATE users SET backup_code_hash = ? WHERE id = ?')
    this.#insert = db.prepare(
      `INSERT INTO users (name, email, email_key, phone_number, phone_digits, password_hash, share_token, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
    )
  }

  byId(id: number): Account | undefined {
    return this.#byId.get(id)
  }

  byEmail(email: string): Account | undefined {
    return this.#byEmail.get(emailKey(email))
  }

  byPhone(phone: string): Account | undefined {
    const digits = phoneDigits(phone)
    return digits === '' ? undefined : this.#byPhone.get(digits)
  }

  /** L1's username: an e-mail (case-insensitive) or a phone number (by digits). */
  byUsername(username: string): Account | undefined {
    return this.byEmail(username) ?? (username.includes('@') ? undefined : this.byPhone(username))
  }

  exists(id: number): boolean {
    return this.byId(id) !== undefined
  }

  /** Which unique field `account` would clash on, if any. */
  conflict(email: string, phoneNumber: string): 'email' | 'phone_number' | null {
    if (this.byEmail(email) !== undefined) return 'email'
    if (this.byPhone(phoneNumber) !== undefined) return 'phone_number'
    return null
  }

  /** Creates an account with MFA off and no known devices. Callers check `conflict` first. */
  async create(account: NewAccount): Promise<Account> {
    const passwordHash = await hashPassword(account.password)
    const now = this.#core.clock.now()
    const row = this.#insert.get(
      account.name,
      account.email,
      emailKey(account.email),
      account.phoneNumber,
      phoneDigits(account.phoneNumber),
      passwordHash,
      randomAlnum(8),
      now,
      now
    )
    if (row === undefined) throw new Error('account insert returned nothing')
    const created = this.byId(row.id)
    if (created === undefined) throw new Error('account vanished after insert')
    return created
  }

  /** The backup code works once (§3.3): null consumes it. */
  setBackupCodeHash(id: number, hash: string | null): void {
    this.#setBackupCode.run(hash, id)
  }

  shareUrl(account: Account): string {
    return `${this.#core.origin}/contact/${account.id}/${account.share_token}`
  }

  /** §15.9 self user. */
  selfUser(account: Account): SelfUser {
    return {
      id: String(account.id),
      user_id: String(account.id),
      name: account.name,
      email: account.email,
      phone_number: account.phone_number,
      image_url: account.image_url,
      bio: account.bio,
      created_at: account.created_at,
      updated_at: account.updated_at,
      share_url: this.shareUrl(account),
      mfa: {
        enabled: account.mfa_enabled === 1,
        channels:
          account.mfa_channel_created_at === null
            ? []
            : [{ type: 'phone_number', created_at: account.mfa_channel_created_at }]
      }
    }
  }
}

export interface SelfUser {
  id: string
  user_id: string
  name: string
  email: string
  phone_number: string
  image_url: string | null
  bio: string
  created_at: number
  updated_at: number
  share_url: string
  mfa: { enabled: boolean; channels: { type: 'phone_number'; created_at: number }[] }
}
