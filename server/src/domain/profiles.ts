import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import { badRequest, forbidden, notFound, unauthorized } from '../http/errors.js'
import { AccessTokens } from './access-tokens.js'
import { Accounts, emailKey, type Account, type SelfUser } from './accounts.js'
import { Blocks } from './blocks.js'
import { Groups } from './groups.js'
import { Login } from './login.js'
import { PasswordFailures } from './password-failures.js'
import { Relationships, type RelationshipJson } from './relationships.js'
import { hashPassword } from './secrets.js'

/** The account owner's own settings (U2, P1) and how other users see an account (U3, §15.9). */

export interface ProfileUpdate {
  name?: string
  email?: string
  /** `null` clears the avatar. */
  avatarUrl?: string | null
  bio?: string
}

export interface SharedGroup {
  group_id: number
  group_name: string
  group_avatar: string | null
}

/** §15.9 profile. */
export interface ProfileJson {
  user: {
    id: string
    name: string
    avatar_url: string | null
    bio: string
    created_at: number
    app_installed: true
    direct_message_capable: boolean
    directories: never[]
    photo_urls: never[]
  }
  relationship: RelationshipJson | null
  shared_groups: SharedGroup[] | null
  major_codes: never[]
  graduation_year: ''
  campus_profile_visibility: 'visible'
}

export class Profiles {
  readonly #core: Core
  readonly #update: Statement<[{ id: number; name: string; email: string; key: string; image: string | null; bio: string; now: number }]>
  readonly #setPassword: Statement<[string, number, number]>
  readonly #sharedGroupIds: Statement<[number, number], { id: number }>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#update = db.prepare(
      `UPDATE users SET name = @name, email = @email, email_key = @key, image_url = @image, bio = @bio, updated_at = @now
       WHERE id = @id`
    )
    this.#setPassword = db.prepare('UPDATE users SET password_hash = ?, updated_at = ? WHERE id = ?')
    this.#sharedGroupIds = db.prepare(
      `SELECT a.group_id AS id FROM memberships a
       JOIN memberships b ON b.group_id = a.group_id AND b.user_id = ? AND b.state = 'active'
       WHERE a.user_id = ? AND a.state = 'active' ORDER BY a.group_id`
    )
  }

  #self(userId: number): Account {
    const account = this.#core.use(Accounts).byId(userId)
    if (account === undefined) throw unauthorized()
    return account
  }

  /**
   * U2: all fields at once or none (400). The e-mail must not belong to another account (ASCII
   * case-insensitive, §18.18); changing only its case is allowed. `updated_at` moves when a field
   * is given, even with its current value.
   */
  update(userId: number, change: ProfileUpdate): SelfUser {
    const accounts = this.#core.use(Accounts)
    return this.#core.transaction(() => {
      const account = this.#self(userId)
      // Nothing to change: nothing is written, `updated_at` included.
      if (Object.values(change).every((value) => value === undefined)) return accounts.selfUser(account)
      if (change.email !== undefined) {
        const holder = accounts.byEmail(change.email)
        if (holder !== undefined && holder.id !== account.id) throw badRequest('email: already in use by another account')
      }
      const email = change.email ?? account.email
      this.#update.run({
        id: account.id,
        name: change.name ?? account.name,
        email,
        key: emailKey(email),
        image: change.avatarUrl === undefined ? account.image_url : change.avatarUrl,
        bio: change.bio ?? account.bio,
        now: this.#core.clock.now()
      })
      return accounts.selfUser(this.#self(userId))
    })
  }

  /**
   * P1: 403 for a wrong current password, which counts against the account's failure limit, and
   * 429 once that limit is reached, the right password included, changing nothing (§18.32);
   * otherwise the new password is set, every token of the account is revoked (this one too) and
   * its known devices are forgotten (§18.19).
   */
  async changePassword(userId: number, current: string, next: string): Promise<void> {
    const account = this.#self(userId)
    const matches = await this.#core.use(PasswordFailures).checkAccount(account.id, current, account.password_hash)
    if (!matches) throw forbidden('password_current is wrong')
    const hash = await hashPassword(next)
    this.#core.transaction(() => {
      this.#setPassword.run(hash, this.#core.clock.now(), account.id)
      this.#core.use(AccessTokens).revokeAll(account.id)
      this.#core.use(Login).forgetDevices(account.id)
    })
  }

  /**
   * U3: how `viewerId` sees `userId`. `direct_message_capable` is false when either blocks the
   * other, and for one's own profile (C3 refuses a DM to oneself).
   */
  profile(viewerId: number, userId: number | null, includeSharedGroups: boolean): ProfileJson {
    const account = userId === null ? undefined : this.#core.use(Accounts).byId(userId)
    if (account === undefined) throw notFound('No such user')
    const capable = account.id !== viewerId && !this.#core.use(Blocks).eitherBlocks(viewerId, account.id)
    return {
      user: {
        id: String(account.id),
        name: account.name,
        avatar_url: account.image_url,
        bio: account.bio,
        created_at: account.created_at,
        app_installed: true,
        direct_message_capable: capable,
        directories: [],
        photo_urls: []
      },
      relationship: this.#core.use(Relationships).find(viewerId, account.id),
      shared_groups: includeSharedGroups ? this.#sharedGroups(viewerId, account.id) : null,
      major_codes: [],
      graduation_year: '',
      campus_profile_visibility: 'visible'
    }
  }

  /** Groups where both are active members, by ascending id. */
  #sharedGroups(a: number, b: number): SharedGroup[] {
    const groups = this.#core.use(Groups)
    const out: SharedGroup[] = []
    for (const { id } of this.#sharedGroupIds.all(a, b)) {
      const group = groups.find(id)
      if (group !== undefined) out.push({ group_id: group.id, group_name: group.name, group_avatar: group.image_url })
    }
    return out
  }
}
