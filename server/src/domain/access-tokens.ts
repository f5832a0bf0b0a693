import type { Statement } from 'better-sqlite3-multiple-ciphers'
import { isoFromMicros } from '../clock.js'
import type { Core } from '../core.js'
import type { Account } from './accounts.js'
import { randomAlnum, sha256 } from './secrets.js'

/** Access tokens (§2.2): issuing, authenticating, listing and revoking. Only hashes are stored. */

export const TOKEN_LIFETIME_SECONDS = 2_592_000
export const TOKEN_FORMAT = /^[A-Za-z0-9]{40}$/

/** The authenticated caller of a request. */
export interface Caller {
  userId: number
  tokenId: number
  appId: string
}

/** §15.8 token result. */
export interface TokenResult {
  access_token: string
  user_id: string
  user_name: string
  expires_at: number | null
  user: { id: string; name: string; email: string; avatar_url: string | null; admin: false }
}

interface KeyAt<K> {
  key: K
  now: number
}

interface TokenRow {
  id: number
  user_id: number
  app_id: string
  created_at_us: number
  expires_at: number | null
}

export class AccessTokens {
  readonly #core: Core
  readonly #insert: Statement<[number, string, string, number, number | null], { id: number }>
  readonly #live: Statement<[KeyAt<string>], TokenRow>
  readonly #liveById: Statement<[KeyAt<number>], TokenRow>
  readonly #liveOfUser: Statement<[KeyAt<number>], TokenRow>
  readonly #revoke: Statement<[KeyAt<number>]>
  readonly #revokeAll: Statement<[KeyAt<number>]>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#insert = db.prepare(
      'INSERT INTO access_tokens (user_id, token_hash, app_id, created_at_us, expires_at) VALUES (?, ?, ?, ?, ?) RETURNING id'
    )
    // A token is live until revoked or past its expiry.
    const live = 'revoked_at IS NULL AND (expires_at IS NULL OR expires_at > @now)'
    this.#live = db.prepare(`SELECT * FROM access_tokens WHERE token_hash = @key AND ${live}`)
    this.#liveById = db.prepare(`SELECT * FROM access_tokens WHERE id = @key AND ${live}`)
    this.#liveOfUser = db.prepare(`SELECT * FROM access_tokens WHERE user_id = @key AND ${live} ORDER BY id`)
    this.#revoke = db.prepare('UPDATE access_tokens SET revoked_at = @now WHERE id = @key AND revoked_at IS NULL')
    this.#revokeAll = db.prepare('UPDATE access_tokens SET revoked_at = @now WHERE user_id = @key AND revoked_at IS NULL')
  }

  /** Issues a token: it expires in 30 days while MFA is off, never while it is on (§2.2). */
  issue(account: Account, appId: string): TokenResult {
    const token = randomAlnum(40)
    const clock = this.#core.clock
    const expiresAt = account.mfa_enabled === 1 ? null : clock.now() + TOKEN_LIFETIME_SECONDS
    this.#insert.get(account.id, sha256(token), appId, clock.nowMicros(), expiresAt)
    return {
      access_token: token,
      user_id: String(account.id),
      user_name: account.name,
      expires_at: expiresAt,
      user: { id: String(account.id), name: account.name, email: account.email, avatar_url: account.image_url, admin: false }
    }
  }

  /** The caller a token belongs to, or null when it is malformed, unknown, revoked or expired. */
  authenticate(token: string): Caller | null {
    if (!TOKEN_FORMAT.test(token)) return null
    const row = this.#live.get({ key: sha256(token), now: this.#core.clock.now() })
    return row === undefined ? null : { userId: row.user_id, tokenId: row.id, appId: row.app_id }
  }

  /** Whether the token with this id is still live (push subscriptions end with their token). */
  isLive(tokenId: number): boolean {
    return this.#liveById.get({ key: tokenId, now: this.#core.clock.now() }) !== undefined
  }

  liveOf(userId: number): TokenRow[] {
    return this.#liveOfUser.all({ key: userId, now: this.#core.clock.now() })
  }

  /** T1 entries. */
  list(userId: number): { id: number; created_at: string; app_id: string }[] {
    return this.liveOf(userId).map((row) => ({ id: row.id, created_at: isoFromMicros(row.created_at_us), app_id: row.app_id }))
  }

  revoke(tokenId: number): void {
    this.#revoke.run({ key: tokenId, now: this.#core.clock.now() })
  }

  revokeAll(userId: number): void {
    this.#revokeAll.run({ key: userId, now: this.#core.clock.now() })
  }
}
