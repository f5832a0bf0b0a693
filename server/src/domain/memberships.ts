import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import type { Account } from './accounts.js'
import type { GroupRow } from './group-row.js'

/**
 * Memberships: one row per (group, user) for its whole history (§7 membership states). Roles:
 * the owner is the group's `creator_user_id`; `role = 'admin'` marks admins (§2.6). A membership
 * row keeps its id through every state, so a pending request, the member it becomes and the
 * former member it may end as share one `id`.
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
  /** JSON `{type, text}` of a join request's question, or null (§15.4 pending). */
  join_question: string | null
  /** JSON `{type, response}` of a join request's answer, or null. */
  join_answer: string | null
  /** 1 while a pending or denied request comes from someone who had exited (they may still rejoin). */
  exited_before_request: 0 | 1
}

type RowWithAccount = MembershipRow & { account_name: string; account_image_url: string | null }

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

/** §15.4 membership (MB1). */
export interface MembershipJson {
  id: string
  user_id: string
  name: string
  nickname: string
  image_url: string | null
  state: MembershipState
  roles: Role[]
}

/** §15.4 pending membership (MB5, G8 202). */
export interface PendingJson {
  id: string
  user_id: string
  nickname: string
  image_url: string | null
  timestamp: number
  state: 'requested_pending'
  reason: {
    type: 'join_reason/membership_join_reason'
    question: { type: string; text: string } | null
    answer: { type: 'join_reason/answers/text'; response: string } | null
    method: 'share_link'
  }
}

/** §15.4 mute object (MU1–MU4); `id` is the membership id (§18.6). */
export interface MuteJson {
  id: string
  user_id: string
  nickname: string
  avatar_url: string | null
  muted: boolean
  muted_until: number | null
  muted_children: Record<string, never>
  has_sound_enabled: true
  autokicked: false
}

export type Role = 'admin' | 'owner' | 'user'

/** `muted_until` of an indefinite mute (§8): 10000-01-01T00:00:00Z. */
export const MUTED_FOREVER = 253402300800

/** The states G3 reports: every state of someone who was a member (§7). */
const FORMER_OR_ACTIVE: MembershipState[] = ['active', 'exited', 'removed', 'exited_removed']

export class Memberships {
  readonly #core: Core
  readonly #find: Statement<[number, number], MembershipRow>
  readonly #byId: Statement<[number], MembershipRow>
  readonly #withAccount: Statement<[number], RowWithAccount>
  readonly #active: Statement<[number], RowWithAccount>
  readonly #inactive: Statement<[number], RowWithAccount>
  readonly #pending: Statement<[number], RowWithAccount>
  readonly #activeCount: Statement<[number], { n: number }>
  readonly #upsertActive: Statement<[{ group: number; user: number; nickname: string; role: string; now: number }]>
  readonly #upsertPending: Statement<
    [{ group: number; user: number; nickname: string; question: string | null; answer: string | null; now: number }]
  >
  readonly #setState: Statement<[{ id: number; state: MembershipState; now: number }]>
  readonly #setNickname: Statement<[string, number]>
  readonly #setRole: Statement<[string, number]>
  readonly #setMutedUntil: Statement<[number | null, number]>
  readonly #states: Statement<[number], { group_id: number; state: MembershipState }>
  readonly #exitedGroupIds: Statement<[number], { group_id: number }>
  readonly #deleteForGroup: Statement<[number]>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    // A destroyed group's memberships are deleted (G7), so no query here sees one.
    this.#find = db.prepare('SELECT * FROM memberships WHERE group_id = ? AND user_id = ?')
    this.#byId = db.prepare('SELECT * FROM memberships WHERE id = ?')
    const withAccount = `SELECT m.*, u.name AS account_name, u.image_url AS account_image_url
       FROM memberships m JOIN users u ON u.id = m.user_id`
    this.#withAccount = db.prepare(`${withAccount} WHERE m.id = ?`)
    this.#active = db.prepare(`${withAccount} WHERE m.group_id = ? AND m.state = 'active' ORDER BY m.id`)
    this.#inactive = db.prepare(
      `${withAccount} WHERE m.group_id = ? AND m.state IN ('exited', 'removed', 'exited_removed') ORDER BY m.id`
    )
    this.#pending = db.prepare(
      `${withAccount} WHERE m.group_id = ? AND m.state = 'requested_pending' ORDER BY m.state_changed_at, m.id`
    )
    this.#activeCount = db.prepare("SELECT count(*) AS n FROM memberships WHERE group_id = ? AND state = 'active'")
    this.#upsertActive = db.prepare(
      `INSERT INTO memberships (group_id, user_id, nickname, role, state, created_at, state_changed_at)
       VALUES (@group, @user, @nickname, @role, 'active', @now, @now)
       ON CONFLICT (group_id, user_id) DO UPDATE SET nickname = @nickname, role = @role, state = 'active',
         muted_until = NULL, join_question = NULL, join_answer = NULL, exited_before_request = 0, state_changed_at = @now`
    )
    this.#upsertPending = db.prepare(
      `INSERT INTO memberships (group_id, user_id, nickname, role, state, created_at, state_changed_at, join_question, join_answer)
       VALUES (@group, @user, @nickname, 'user', 'requested_pending', @now, @now, @question, @answer)
       ON CONFLICT (group_id, user_id) DO UPDATE SET nickname = @nickname, role = 'user', state = 'requested_pending',
         muted_until = NULL, join_question = @question, join_answer = @answer, state_changed_at = @now,
         exited_before_request = CASE WHEN memberships.state = 'exited' THEN 1 ELSE memberships.exited_before_request END`
    )
    this.#setState = db.prepare('UPDATE memberships SET state = @state, state_changed_at = @now WHERE id = @id')
    this.#setNickname = db.prepare('UPDATE memberships SET nickname = ? WHERE id = ?')
    this.#setRole = db.prepare('UPDATE memberships SET role = ? WHERE id = ?')
    this.#setMutedUntil = db.prepare('UPDATE memberships SET muted_until = ? WHERE id = ?')
    // A request from someone who had exited leaves them exited to G2 and G3 (migration groups-002).
    const standing = "CASE WHEN exited_before_request = 1 AND state IN ('requested_pending', 'denied') THEN 'exited' ELSE state END"
    this.#states = db.prepare(
      `SELECT group_id, ${standing} AS state FROM memberships WHERE user_id = ?
       AND ${standing} IN (${FORMER_OR_ACTIVE.map((s) => `'${s}'`).join(', ')}) ORDER BY group_id`
    )
    this.#exitedGroupIds = db.prepare(
      `SELECT group_id FROM memberships WHERE user_id = ? AND ${standing} = 'exited' ORDER BY state_changed_at DESC, id DESC`
    )
    this.#deleteForGroup = db.prepare('DELETE FROM memberships WHERE group_id = ?')
  }

  find(groupId: number, userId: number): MembershipRow | undefined {
    return this.#find.get(groupId, userId)
  }

  byId(id: number): MembershipRow | undefined {
    return this.#byId.get(id)
  }

  /** A membership of this group by its id, in any state (path `:membership_id`). */
  inGroup(groupId: number, membershipId: number | null): MembershipRow | undefined {
    if (membershipId === null) return undefined
    const row = this.byId(membershipId)
    return row?.group_id === groupId ? row : undefined
  }

  /** The caller's active membership, if any: what "member" means throughout (§2.1). */
  active(groupId: number, userId: number): MembershipRow | undefined {
    const row = this.find(groupId, userId)
    return row?.state === 'active' ? row : undefined
  }

  isMember(groupId: number, userId: number): boolean {
    return this.active(groupId, userId) !== undefined
  }

  /**
   * Makes the user an active member (creation, add, approve, join, rejoin). Every activation
   * starts afresh: the given nickname and role, unmuted.
   */
  activate(groupId: number, userId: number, nickname: string, role: 'user' | 'admin' = 'user'): MembershipRow {
    this.#upsertActive.run({ group: groupId, user: userId, nickname, role, now: this.#core.clock.now() })
    const row = this.find(groupId, userId)
    if (row === undefined) throw new Error('membership vanished after upsert')
    return row
  }

  /** A join request through G8 (§7): `requested_pending`, with its question and answer. */
  request(
    groupId: number,
    userId: number,
    nickname: string,
    reason: { question: PendingJson['reason']['question']; answer: PendingJson['reason']['answer'] }
  ): MembershipRow {
    this.#upsertPending.run({
      group: groupId,
      user: userId,
      nickname,
      question: reason.question === null ? null : JSON.stringify(reason.question),
      answer: reason.answer === null ? null : JSON.stringify(reason.answer),
      now: this.#core.clock.now()
    })
    const row = this.find(groupId, userId)
    if (row === undefined) throw new Error('membership vanished after upsert')
    return row
  }

  setState(id: number, state: MembershipState): void {
    this.#setState.run({ id, state, now: this.#core.clock.now() })
  }

  setNickname(id: number, nickname: string): void {
    this.#setNickname.run(nickname, id)
  }

  setRole(id: number, role: 'user' | 'admin'): void {
    this.#setRole.run(role, id)
  }

  /** `null` unmutes. */
  setMutedUntil(id: number, mutedUntil: number | null): void {
    this.#setMutedUntil.run(mutedUntil, id)
  }

  /** G7: the group's whole roster history goes with it. */
  deleteForGroup(groupId: number): void {
    this.#deleteForGroup.run(groupId)
  }

  activeUserIds(groupId: number): number[] {
    return this.#active.all(groupId).map((row) => row.user_id)
  }

  activeCount(groupId: number): number {
    return this.#activeCount.get(groupId)?.n ?? 0
  }

  /** G3: the caller's groups and states, ascending group id. */
  statesOf(userId: number): { group_id: number; state: MembershipState }[] {
    return this.#states.all(userId)
  }

  /** G2: groups the user has exited, latest exit first. */
  exitedGroupIds(userId: number): number[] {
    return this.#exitedGroupIds.all(userId).map((row) => row.group_id)
  }

  roles(group: GroupRow, membership: Pick<MembershipRow, 'user_id' | 'role'>): Role[] {
    if (membership.user_id === group.creator_user_id) return ['admin', 'owner']
    return membership.role === 'admin' ? ['admin'] : ['user']
  }

  isOwner(group: GroupRow, membership: Pick<MembershipRow, 'user_id'>): boolean {
    return membership.user_id === group.creator_user_id
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

  /** §8: muted while `muted_until` lies ahead; once it has passed, the member reads as unmuted. */
  isMuted(membership: Pick<MembershipRow, 'muted_until'>): boolean {
    return membership.muted_until !== null && membership.muted_until > this.#core.clock.now()
  }

  /** §15.4 members of a group, by ascending membership id. */
  members(group: GroupRow): Member[] {
    return this.#active.all(group.id).map((row) => this.member(group, row, { name: row.account_name, image_url: row.account_image_url }))
  }

  /** One membership with its account's name and avatar. */
  withAccount(id: number): RowWithAccount | undefined {
    return this.#withAccount.get(id)
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

  /** The member object of one membership, looked up with its account. */
  memberById(group: GroupRow, id: number): Member {
    const row = this.withAccount(id)
    if (row === undefined) throw new Error(`membership ${id} vanished`)
    return this.member(group, row, { name: row.account_name, image_url: row.account_image_url })
  }

  /** MB1: `active` members or `inactive` former ones (exited, removed, exited_removed), by id. */
  list(group: GroupRow, filter: 'active' | 'inactive'): MembershipJson[] {
    const rows = filter === 'active' ? this.#active.all(group.id) : this.#inactive.all(group.id)
    return rows.map((row) => ({
      id: String(row.id),
      user_id: String(row.user_id),
      name: row.account_name,
      nickname: row.nickname,
      image_url: row.account_image_url,
      state: row.state,
      roles: this.roles(group, row)
    }))
  }

  /** MB5: pending requests by ascending timestamp (then id). */
  pending(groupId: number): PendingJson[] {
    return this.#pending.all(groupId).map((row) => this.pendingShape(row))
  }

  pendingById(id: number): PendingJson {
    const row = this.withAccount(id)
    if (row === undefined) throw new Error(`membership ${id} vanished`)
    return this.pendingShape(row)
  }

  pendingShape(row: RowWithAccount): PendingJson {
    return {
      id: String(row.id),
      user_id: String(row.user_id),
      nickname: row.account_name,
      image_url: row.account_image_url,
      timestamp: row.state_changed_at,
      state: 'requested_pending',
      reason: {
        type: 'join_reason/membership_join_reason',
        question: row.join_question === null ? null : (JSON.parse(row.join_question) as PendingJson['reason']['question']),
        answer: row.join_answer === null ? null : (JSON.parse(row.join_answer) as PendingJson['reason']['answer']),
        method: 'share_link'
      }
    }
  }

  /** §15.4 mute object; an expired mute reads as unmuted (`muted_until: null`). */
  muteShape(id: number): MuteJson {
    const row = this.withAccount(id)
    if (row === undefined) throw new Error(`membership ${id} vanished`)
    const muted = this.isMuted(row)
    return {
      id: String(row.id),
      user_id: String(row.user_id),
      nickname: row.nickname,
      avatar_url: row.account_image_url,
      muted,
      muted_until: muted ? row.muted_until : null,
      muted_children: {},
      has_sound_enabled: true,
      autokicked: false
    }
  }
}
