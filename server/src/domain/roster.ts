import type { Statement } from 'better-sqlite3-multiple-ciphers'
import { randomUUID } from 'node:crypto'
import type { Core } from '../core.js'
import { badRequest, forbidden, HttpError, notFound, unauthorized } from '../http/errors.js'
import { toId } from '../http/validation.js'
import { Accounts, type Account } from './accounts.js'
import { Blocks } from './blocks.js'
import type { GroupRow } from './group-row.js'
import { Groups, type VisibleGroup } from './groups.js'
import { Memberships, MUTED_FOREVER, type Member, type MembershipRow, type MuteJson, type PendingJson } from './memberships.js'
import { constantTimeEqual } from './secrets.js'
import { SystemMessages } from './system-messages.js'

/**
 * The roster of a group: every membership transition of §7 (add, join, rejoin, approve, deny,
 * remove, ban), nicknames, roles, owners and mutes, with the pushes and system messages §14.5
 * prescribes for each. Routes validate syntax and visibility; the role and state rules live here.
 */

/** One MB2 item after syntax checks: exactly one identifier is set. */
export interface AddItem {
  nickname: string
  user_id?: string | undefined
  phone_number?: string | undefined
  email?: string | undefined
  guid?: string | undefined
}

/** MB3 member: the member object plus `app_installed` and `guid`. */
export type AddedMember = Member & { app_installed: true; guid: string }

export type JoinOutcome = { kind: 'member'; group: GroupRow } | { kind: 'pending'; pending: PendingJson }

export interface OwnerChangeResult {
  group_id: string | null
  owner_id: string | null
  status: '200' | '400' | '403' | '404' | '405'
}

interface AddResultsRow {
  id: string
  group_id: number
  adder_user_id: number
  created_at_ms: number
  ready_at_ms: number
  members: string
}

/** MB2 results are kept for an hour (§9). */
export const ADD_RESULTS_TTL_MS = 3_600_000

const DEFAULT_QUESTION_TYPE = 'join_reason/questions/text'

type UserRef = { id: string; nickname: string }

const ref = (membership: Pick<MembershipRow, 'user_id' | 'nickname'>): UserRef => ({
  id: String(membership.user_id),
  nickname: membership.nickname
})

export class Roster {
  readonly #core: Core
  readonly #insertResults: Statement<[AddResultsRow]>
  readonly #findResults: Statement<[string], AddResultsRow>
  readonly #purgeResults: Statement<[number]>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#insertResults = db.prepare(
      `INSERT INTO add_results (id, group_id, adder_user_id, created_at_ms, ready_at_ms, members)
       VALUES (@id, @group_id, @adder_user_id, @created_at_ms, @ready_at_ms, @members)`
    )
    this.#findResults = db.prepare('SELECT * FROM add_results WHERE id = ?')
    this.#purgeResults = db.prepare('DELETE FROM add_results WHERE created_at_ms < ?')
  }

  get #memberships(): Memberships {
    return this.#core.use(Memberships)
  }

  get #groups(): Groups {
    return this.#core.use(Groups)
  }

  get #messages(): SystemMessages {
    return this.#core.use(SystemMessages)
  }

  // ── MB2 / MB3 ──────────────────────────────────────────────────────────────────────────────

  /**
   * MB2 after syntax, visibility and attestation: the caller must be a manager (403). Items are
   * resolved in order; failures are left out (§9). Returns the results id.
   */
  add(visible: VisibleGroup, items: AddItem[]): string {
    const { group, membership: adder } = visible
    if (!this.#memberships.canManage(group, adder)) throw forbidden('Only managers may add members to this group')
    const accounts = this.#core.use(Accounts)
    const blocks = this.#core.use(Blocks)
    const seen = new Set<number>()
    const added: { membership: MembershipRow; guid: string }[] = []
    this.#core.transaction(() => {
      for (const item of items) {
        const account = resolve(accounts, item)
        if (account === undefined) continue
        const duplicate = seen.has(account.id)
        seen.add(account.id)
        if (duplicate || blocks.blocks(account.id, adder.user_id)) continue
        const prior = this.#memberships.find(group.id, account.id)
        if (prior?.state === 'active' || prior?.state === 'exited_removed') continue
        const membership = this.#memberships.activate(group.id, account.id, item.nickname)
        added.push({ membership, guid: item.guid ?? randomUUID().toUpperCase() })
      }
      if (added.length > 0) this.#groups.touch(group.id)
    })

    const now = this.#groups.find(group.id) ?? group
    const members: AddedMember[] = added.map(({ membership, guid }) => ({
      ...this.#memberships.memberById(now, membership.id),
      app_installed: true,
      guid
    }))
    const nowMs = this.#core.clock.nowMs()
    const id = randomUUID()
    this.#purgeResults.run(nowMs - ADD_RESULTS_TTL_MS)
    this.#insertResults.run({
      id,
      group_id: group.id,
      adder_user_id: adder.user_id,
      created_at_ms: nowMs,
      ready_at_ms: nowMs + this.#core.config.addResultsDelayMs,
      members: JSON.stringify(members)
    })

    if (added.length > 0) {
      for (const { membership } of added) this.#announceMembership(now, membership.user_id)
      this.#messages.postGroupSystemMessage(
        group.id,
        `${adder.nickname} added ${listNames(added.map(({ membership }) => membership.nickname))} to the group`,
        {
          type: 'membership.announce.added',
          data: { added_users: added.map(({ membership }) => ref(membership)), adder_user: ref(adder) }
        }
      )
    }
    return id
  }

  /** MB3: 404 unknown, another group's, not the caller's or over an hour old; 503 not ready. */
  results(group: GroupRow, callerId: number, resultsId: string): AddedMember[] {
    const row = this.#findResults.get(resultsId)
    const nowMs = this.#core.clock.nowMs()
    if (
      row === undefined ||
      row.group_id !== group.id ||
      row.adder_user_id !== callerId ||
      nowMs - row.created_at_ms > ADD_RESULTS_TTL_MS
    ) {
      throw notFound('Results not found')
    }
    if (nowMs < row.ready_at_ms) throw new HttpError(503, 'Results are not ready yet')
    return JSON.parse(row.members) as AddedMember[]
  }

  // ── MB4 – MB9 ──────────────────────────────────────────────────────────────────────────────

  /** MB4: own → `exited`, someone else's → `removed`. */
  remove(visible: VisibleGroup, membershipId: number | null): void {
    const { group, membership: caller } = visible
    const target = this.#memberships.inGroup(group.id, membershipId)
    if (target?.state !== 'active') throw notFound('Membership not found')
    if (this.#memberships.isOwner(group, target)) throw forbidden('The owner can neither leave nor be removed')
    const own = target.user_id === caller.user_id
    if (!own && !this.#memberships.canManage(group, caller)) throw forbidden('Only managers may remove other members')
    this.#core.transaction(() => {
      this.#memberships.setState(target.id, own ? 'exited' : 'removed')
      this.#groups.touch(group.id)
    })
    if (own) {
      this.#messages.postGroupSystemMessage(
        group.id,
        `${target.nickname} has left the group`,
        { type: 'membership.notifications.exited', data: { removed_user: ref(target) } },
        [target.user_id]
      )
    } else {
      this.#messages.postGroupSystemMessage(
        group.id,
        `${caller.nickname} removed ${target.nickname} from the group`,
        { type: 'membership.notifications.removed', data: { remover_user: ref(caller), removed_user: ref(target) } },
        [target.user_id]
      )
    }
  }

  /** MB6: 404 not a pending request here (§2.5 existence), then 401 not a manager. */
  decide(visible: VisibleGroup, membershipId: number | null, approval: boolean): { membership_id: string; state: 'active' | 'denied' } {
    const { group, membership: caller } = visible
    const target = this.#memberships.inGroup(group.id, membershipId)
    if (target?.state !== 'requested_pending') throw notFound('Pending membership not found')
    if (!this.#memberships.canManage(group, caller)) throw unauthorized('Only managers may approve or deny requests')
    if (!approval) {
      this.#memberships.setState(target.id, 'denied')
      return { membership_id: String(target.id), state: 'denied' }
    }
    const member = this.#core.transaction(() => {
      const activated = this.#memberships.activate(group.id, target.user_id, target.nickname)
      this.#groups.touch(group.id)
      return activated
    })
    this.#announceMembership(this.#groups.find(group.id) ?? group, member.user_id)
    this.#postJoined(group.id, member)
    return { membership_id: String(target.id), state: 'active' }
  }

  /** MB7: `exited` → `exited_removed`; already banned → no change; others → 400. */
  ban(visible: VisibleGroup, membershipId: number | null): void {
    const { group, membership: caller } = visible
    const target = this.#memberships.inGroup(group.id, membershipId)
    if (target === undefined) throw notFound('Membership not found')
    if (!this.#memberships.canManage(group, caller)) throw forbidden('Only managers may ban')
    if (target.state === 'exited_removed') return
    if (target.state === 'active') throw badRequest('current members cannot be banned')
    if (target.state !== 'exited') throw badRequest(`a ${target.state} membership cannot be banned`)
    this.#memberships.setState(target.id, 'exited_removed')
  }

  /** MB8: the caller's nickname; a real change posts `membership.nickname_changed`. */
  rename(visible: VisibleGroup, nickname: string): Member & { app_installed: true } {
    const { group, membership } = visible
    if (nickname !== membership.nickname) {
      this.#memberships.setNickname(membership.id, nickname)
      this.#messages.postGroupSystemMessage(group.id, `${membership.nickname} changed name to ${nickname}`, {
        type: 'membership.nickname_changed',
        data: { user: ref(membership), name: nickname }
      })
    }
    return { ...this.#memberships.memberById(group, membership.id), app_installed: true }
  }

  /** MB9: 404 target not active, 403 caller not the owner, 400 target is the owner. */
  setRole(visible: VisibleGroup, membershipId: number | null, role: 'admin' | 'user'): Member {
    const { group, membership: caller } = visible
    const target = this.#memberships.inGroup(group.id, membershipId)
    if (target?.state !== 'active') throw notFound('Membership not found')
    if (!this.#memberships.isOwner(group, caller)) throw forbidden('Only the owner may change roles')
    if (this.#memberships.isOwner(group, target)) throw badRequest("The owner's role cannot be changed")
    if (target.role !== role) {
      this.#core.transaction(() => {
        this.#memberships.setRole(target.id, role)
        this.#groups.touch(group.id)
      })
    }
    return this.#memberships.memberById(this.#groups.find(group.id) ?? group, target.id)
  }

  // ── G7 – G10 ───────────────────────────────────────────────────────────────────────────────

  /** G7: owner only. */
  destroy(visible: VisibleGroup): void {
    if (!this.#memberships.isOwner(visible.group, visible.membership)) throw forbidden('Only the owner may destroy the group')
    this.#groups.destroy(visible.group.id)
  }

  /**
   * G8. 404 unknown group, sharing off or wrong token; 403 removed or banned. A member gets the
   * group; with `requires_approval` a request is made (or the pending one returned); otherwise the
   * caller joins.
   */
  join(groupIdParam: string | undefined, token: string | undefined, caller: Account, answer: string | undefined): JoinOutcome {
    const id = groupIdParam === undefined ? null : toId(groupIdParam)
    const group = id === null ? undefined : this.#groups.find(id)
    if (group?.share_token == null || token === undefined || !constantTimeEqual(token, group.share_token)) throw notFound('Group not found')
    const prior = this.#memberships.find(group.id, caller.id)
    if (prior?.state === 'active') return { kind: 'member', group }
    if (prior?.state === 'removed' || prior?.state === 'exited_removed') throw forbidden('You cannot join this group')
    if (group.requires_approval === 1) {
      if (prior?.state === 'requested_pending') return { kind: 'pending', pending: this.#memberships.pendingById(prior.id) }
      const question =
        group.show_join_question === 1 ? { type: DEFAULT_QUESTION_TYPE, text: group.join_question_text } : null
      const request = this.#memberships.request(group.id, caller.id, caller.name, {
        question,
        answer: answer === undefined ? null : { type: 'join_reason/answers/text', response: answer }
      })
      return { kind: 'pending', pending: this.#memberships.pendingById(request.id) }
    }
    const member = this.#core.transaction(() => {
      const activated = this.#memberships.activate(group.id, caller.id, caller.name)
      this.#groups.touch(group.id)
      return activated
    })
    this.#postJoined(group.id, member)
    return { kind: 'member', group: this.#groups.find(group.id) ?? group }
  }

  /**
   * G9: only from `exited` (with the old nickname). 404 unknown group or never a member (a pending
   * or denied request does not count, §18.8); 400 active; 403 removed or banned.
   */
  rejoin(groupIdValue: string, caller: Account): GroupRow {
    const id = toId(groupIdValue)
    const group = id === null ? undefined : this.#groups.find(id)
    const prior = group === undefined ? undefined : this.#memberships.find(group.id, caller.id)
    // Someone who left and then asked to join through a link is still someone who left.
    const requesting = prior !== undefined && (prior.state === 'requested_pending' || prior.state === 'denied')
    if (group === undefined || prior === undefined || (requesting && prior.exited_before_request === 0)) {
      throw notFound('Group not found')
    }
    if (prior.state === 'active') throw badRequest('You are already a member of this group')
    if (prior.state !== 'exited' && !requesting) throw forbidden('You cannot rejoin this group')
    const member = this.#core.transaction(() => {
      const activated = this.#memberships.activate(group.id, caller.id, prior.nickname)
      this.#groups.touch(group.id)
      return activated
    })
    this.#messages.postGroupSystemMessage(group.id, `${member.nickname} has rejoined the group`, {
      type: 'membership.announce.rejoined',
      data: { user: ref(member) }
    })
    return this.#groups.find(group.id) ?? group
  }

  /**
   * G10, one item: checked in the order 405, 404 (group), 403, 404 (`owner_id`), 400 (§7, §18.7).
   * A group the caller cannot see (unknown, destroyed, or not a member) is "404".
   */
  changeOwner(callerId: number, item: unknown): OwnerChangeResult {
    const fields = typeof item === 'object' && item !== null && !Array.isArray(item) ? (item as Record<string, unknown>) : {}
    const groupId = typeof fields['group_id'] === 'string' ? fields['group_id'] : null
    const ownerId = typeof fields['owner_id'] === 'string' ? fields['owner_id'] : null
    const result = (status: OwnerChangeResult['status']): OwnerChangeResult => ({ group_id: groupId, owner_id: ownerId, status })
    if (groupId === null || ownerId === null) return result('405')
    const gid = toId(groupId)
    const group = gid === null ? undefined : this.#groups.find(gid)
    const callerMembership = group === undefined ? undefined : this.#memberships.active(group.id, callerId)
    if (group === undefined || callerMembership === undefined) return result('404')
    if (!this.#memberships.isOwner(group, callerMembership)) return result('403')
    const uid = toId(ownerId)
    const next = uid === null ? undefined : this.#memberships.active(group.id, uid)
    if (next === undefined) return result('404')
    if (this.#memberships.isOwner(group, next)) return result('400')
    this.#core.transaction(() => {
      this.#memberships.setRole(callerMembership.id, 'admin')
      this.#memberships.setRole(next.id, 'admin')
      this.#groups.setOwner(group.id, next.user_id)
    })
    return result('200')
  }

  // ── MU1 – MU4 ──────────────────────────────────────────────────────────────────────────────

  /** MU1 / MU3: `duration` minutes, or null for indefinite. */
  mute(visible: VisibleGroup, durationMinutes: number | null): MuteJson {
    const until = durationMinutes === null ? MUTED_FOREVER : this.#core.clock.now() + 60 * durationMinutes
    this.#memberships.setMutedUntil(visible.membership.id, until)
    return this.#memberships.muteShape(visible.membership.id)
  }

  /** MU2 / MU4. */
  unmute(visible: VisibleGroup): MuteJson {
    this.#memberships.setMutedUntil(visible.membership.id, null)
    return this.#memberships.muteShape(visible.membership.id)
  }

  // ── pushes ─────────────────────────────────────────────────────────────────────────────────

  /** `membership.create` to a user who was added or approved (§14.4). */
  #announceMembership(group: GroupRow, userId: number): void {
    this.#core.push.toUsers([userId], {
      type: 'membership.create',
      alert: `You've been added to "${group.name}".`,
      subject: this.#groups.cutDown(group)
    })
  }

  #postJoined(groupId: number, member: MembershipRow): void {
    this.#messages.postGroupSystemMessage(groupId, `${member.nickname} has joined the group`, {
      type: 'membership.announce.joined',
      data: { user: ref(member) }
    })
  }
}

function resolve(accounts: Accounts, item: AddItem): Account | undefined {
  if (item.user_id !== undefined) {
    const id = toId(item.user_id)
    return id === null ? undefined : accounts.byId(id)
  }
  if (item.phone_number !== undefined) return accounts.byPhone(item.phone_number)
  if (item.email !== undefined) return accounts.byEmail(item.email)
  return undefined
}

/** "A", "A and B", "A, B and C". */
function listNames(names: string[]): string {
  if (names.length <= 1) return names.join('')
  return `${names.slice(0, -1).join(', ')} and ${names.at(-1) ?? ''}`
}
