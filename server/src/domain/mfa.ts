import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import { badRequest, unauthorized } from '../http/errors.js'
import { AccessTokens, type Caller, type TokenResult } from './access-tokens.js'
import { Accounts, type Account } from './accounts.js'
import { randomLowerAlnum, sha256 } from './secrets.js'
import { Verifications, type VerificationView } from './verifications.js'

/**
 * MFA (§3.3): backup codes (M1), the phone channel check (M2, M3), enabling (M4) and disabling
 * (M5). Login honours the state on its own (every L1 is challenged while MFA is on, and tokens then
 * get `expires_at: null`); V3 consumes a backup code it accepts.
 */

export const BACKUP_CODE_LENGTH = 16

export class Mfa {
  readonly #core: Core
  readonly #setChannel: Statement<[number, number]>
  readonly #setEnabled: Statement<[number, number]>

  constructor(core: Core) {
    this.#core = core
    this.#setChannel = core.db.prepare('UPDATE users SET mfa_channel_created_at = ? WHERE id = ?')
    this.#setEnabled = core.db.prepare('UPDATE users SET mfa_enabled = ? WHERE id = ?')
  }

  #account(userId: number): Account {
    const account = this.#core.use(Accounts).byId(userId)
    if (account === undefined) throw unauthorized()
    return account
  }

  /** M1 (and M4): a new backup code replaces the old one; only its SHA-256 is stored. */
  newBackupCode(userId: number): string {
    const code = randomLowerAlnum(BACKUP_CODE_LENGTH)
    this.#core.use(Accounts).setBackupCodeHash(userId, sha256(code))
    return code
  }

  /** M2: a `channel` verification of the caller's phone. */
  startChannelCheck(userId: number): VerificationView {
    const verifications = this.#core.use(Verifications)
    return verifications.view(verifications.create(this.#account(userId).id, 'channel'))
  }

  /** M3: consumes a usable channel verification and records the phone channel. */
  confirmChannel(userId: number, code: string): { status: 20100 } {
    this.#core.transaction(() => {
      if (!this.#core.use(Verifications).consume(code, userId, 'channel')) {
        throw badRequest('The verification code is not usable')
      }
      this.#setChannel.run(this.#core.clock.now(), userId)
    })
    return { status: 20100 }
  }

  /**
   * M4: needs a channel and MFA off. Revokes every token of the account and issues one
   * replacement (the caller's `app_id`, `expires_at: null`) and a new backup code.
   */
  enable(caller: Caller): { mfa: { backup_code: string }; access_token: TokenResult } {
    return this.#core.transaction(() => {
      const account = this.#account(caller.userId)
      if (account.mfa_channel_created_at === null) throw badRequest('Verify a phone number channel first')
      if (account.mfa_enabled === 1) throw badRequest('MFA is already enabled')
      this.#setEnabled.run(1, account.id)
      const tokens = this.#core.use(AccessTokens)
      tokens.revokeAll(account.id)
      const backupCode = this.newBackupCode(account.id)
      const token = tokens.issue(this.#account(account.id), caller.appId)
      return { mfa: { backup_code: backupCode }, access_token: token }
    })
  }

  /** M5: tokens, channel, backup code and known devices stay. */
  disable(userId: number): void {
    this.#core.transaction(() => {
      const account = this.#account(userId)
      if (account.mfa_enabled !== 1) throw badRequest('MFA is not enabled')
      this.#setEnabled.run(0, account.id)
    })
  }
}
