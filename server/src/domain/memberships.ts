import type { Statement } from 'better-sqlite3'
import type { Core } from '../core.js'
import type { Account } from './accounts.js'
import type { GroupRow } from './groups.js'

/**
 * Memberships: one row per (group, user) for its whole history (§7 membership states). Roles:
 * the owner is the group's `creator_user_id`; `role = 'admin'` marks admins (§2.6).
 */

export type MembershipState = 'active' | 'exited' | 'removed' | 'exited_removed' | 'requested_pending' | 'denied'

export interface MembershipRow {
  id: number
  group_id: number
  user_id: number
  nickname: string
  role: 'user' | 'admin'
  state: MembershipState
  muted_until: number | null
  created_at: number
  state_changed_at: number
}

/** §15.4 member. */
export interface Member {
  id: string
  user_id: string
  nickname: string
  name: string
  image_url: string | null
  muted: boolean
  autokicked: false
  roles: Role[]
}

export type Role = 'admin' | 'owner' | 'user'

export class Memberships {
  readonly #core: Core
  readonly #find: Statement<[number, number], MembershipRow>
  readonly #byId: Statement<[number], MembershipRow>
  readonly #active: Statement<[number], MembershipRow & { account_name: string; account_image_url: string | null }>
  readonly #activeCount: Statement<[number], { n: number }>
  readonly #upsertActive: Statement<[{ group: number; user: number; nickname: string; role: string; now: number }]>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#find = db.prepare('SELECT * FROM memberships WHERE group_id = ? AND user_id = ?')
    this.#byId = db.prepare('SELECT * FROM memberships WHERE id = ?')
    this.#active = db.prepare(
      `SELECT m.*, u.name AS account_name, u.image_url AS account_image_url
       FROM memberships m JOIN users u ON u.id = m.user_id
       WHERE m.group_id = ? AND m.state = 'active' ORDER BY m.id`
    )
    this.#activeCount = db.prepare("SELECT count(*) AS n FROM memberships WHERE group_id = ? AND state = 'active'")
    this.#upsertActive = db.prepare(
      `INSERT INTO memberships (group_id, user_id, nickname, role, state, created_at, state_changed_at)
       VALUES (@group, @user, @nickname, @role, 'active', @now, @now)
       ON CONFLICT (group_id, user_id) DO UPDATE SET nickname = @nickname, role = @role, state = 'active',
         muted_until = NULL, state_changed_at = @now`
    )
  }

  find(groupId: number, userId: number): MembershipRow | undefined {
    return this.#find.get(groupId, userId)
  }

  byId(id: number): MembershipRow | undefined {
    return this.#byId.get(id)
  }

  /** The caller's active membership, if any: what "member" means throughout (§2.1). */
  active(groupId: number, userId: number): MembershipRow | undefined {
    const row = this.find(groupId, userId)
    return row?.state === 'active' ? row : undefined
  }

  isMember(groupId: number, userId: number): boolean {
    return this.active(groupId, userId) !== undefined
  }

  /** Makes the user an active member (creation, add, approve, join). */
  activate(groupId: number, userId: number, nickname: string, role: 'user' | 'admin' = 'user'): MembershipRow {
    this.#upsertActive.run({ group: groupId, user: userId, nickname, role, now: this.#core.clock.now() })
    const row = this.find(groupId, userId)
    if (row === undefined) throw new Error('membership vanished after upsert')
    return row
  }

  activeUserIds(groupId: number): number[] {
    return this.#active.all(groupId).map((row) => row.user_id)
  }

  activeCount(groupId: number): number {
    return this.#activeCount.get(groupId)?.n ?? 0
  }

  roles(group: GroupRow, membership: Pick<MembershipRow, 'user_id' | 'role'>): Role[] {
    if (membership.user_id === group.creator_user_id) return ['admin', 'owner']
    return membership.role === 'admin' ? ['admin'] : ['user']
  }

  isAdminOrOwner(group: GroupRow, membership: Pick<MembershipRow, 'user_id' | 'role'>): boolean {
    return this.roles(group, membership).includes('admin')
  }

  /** §2.6: who may send messages and create polls. */
  canPost(group: GroupRow, membership: MembershipRow): boolean {
    return group.type !== 'announcement' || this.isAdminOrOwner(group, membership)
  }

  /** §2.6: who may update settings and change the roster. */
  canManage(group: GroupRow, membership: MembershipRow): boolean {
    return group.type === 'private' || this.isAdminOrOwner(group, membership)
  }

  isMuted(membership: MembershipRow): boolean {
    return membership.muted_until !== null && membership.muted_until > this.#core.clock.now()
  }

  /** §15.4 members of a group, by ascending membership id. */
  members(group: GroupRow): Member[] {
    return this.#active.all(group.id).map((row) => this.member(group, row, { name: row.account_name, image_url: row.account_image_url }))
  }

  member(group: GroupRow, row: MembershipRow, account: Pick<Account, 'name' | 'image_url'>): Member {
    return {
      id: String(row.id),
      user_id: String(row.user_id),
      nickname: row.nickname,
      name: account.name,
      image_url: account.image_url,
      muted: this.isMuted(row),
      autokicked: false,
      roles: this.roles(group, row)
    }
  }
}
