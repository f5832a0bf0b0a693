import type { Statement } from 'better-sqlite3'
import type { Core } from '../core.js'
import { notFound } from '../http/errors.js'
import { toId } from '../http/validation.js'
import type { Account } from './accounts.js'
import { Memberships, type Member, type MembershipRow } from './memberships.js'
import { Messages, type Attachment } from './messages.js'
import { randomAlnum } from './secrets.js'

/** Groups: creation, visibility, listing and the §15.2 shape. */

export interface GroupRow {
  id: number
  name: string
  description: string
  image_url: string | null
  type: 'private' | 'closed' | 'announcement'
  creator_user_id: number
  share_token: string | null
  office_mode: number
  requires_approval: number
  show_join_question: number
  join_question_text: string
  like_icon: string | null
  visibility: string
  message_deletion_mode: string
  theme_name: string | null
  created_at: number
  updated_at: number
}

export interface GroupJson {
  id: string
  group_id: string
  name: string
  type: GroupRow['type']
  description: string
  image_url: string | null
  creator_user_id: string
  created_at: number
  updated_at: number
  office_mode: boolean
  share_url: string | null
  members: Member[] | null
  members_count: number
  max_members: 5000
  messages: {
    count: number
    last_message_id: string | null
    last_message_created_at: number | null
    preview: { nickname: string | null; text: string | null; image_url: string | null; attachments: Attachment[] }
  }
  like_icon: unknown
  requires_approval: boolean
  show_join_question: boolean
  join_question: { type: 'join_reason/questions/text'; text: string }
  visibility: string
  message_deletion_mode: string[]
  message_edit_period: 15
  theme_name: string | null
}

export interface NewGroup {
  name: string
  description?: string
  imageUrl?: string | null
  share?: boolean
}

/** A group the caller may see, with the caller's active membership. */
export interface VisibleGroup {
  group: GroupRow
  membership: MembershipRow
}

export class Groups {
  readonly #core: Core
  readonly #find: Statement<[number], GroupRow>
  readonly #insert: Statement<[string, string, string | null, number, string | null, number, number], { id: number }>
  readonly #listFor: Statement<[{ user: number; limit: number; offset: number }], GroupRow>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#find = db.prepare('SELECT * FROM groups WHERE id = ?')
    this.#insert = db.prepare(
      `INSERT INTO groups (name, description, image_url, creator_user_id, share_token, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`
    )
    // Last activity: the last message's time, or the creation time of a group without messages.
    this.#listFor = db.prepare(
      `SELECT g.* FROM groups g JOIN memberships m ON m.group_id = g.id AND m.user_id = @user AND m.state = 'active'
       ORDER BY coalesce((SELECT created_at FROM messages WHERE group_id = g.id ORDER BY id DESC LIMIT 1), g.created_at) DESC,
                g.id DESC
       LIMIT @limit OFFSET @offset`
    )
  }

  find(id: number): GroupRow | undefined {
    return this.#find.get(id)
  }

  /**
   * §2.5 step 5 for group-scoped calls: the group must exist and the caller be a member, else
   * 404. A malformed id names no group, so it is 404 too.
   */
  requireVisible(groupId: string | number | undefined, userId: number): VisibleGroup {
    const id = typeof groupId === 'number' ? groupId : groupId === undefined ? null : toId(groupId)
    const group = id === null ? undefined : this.find(id)
    const membership = group === undefined ? undefined : this.#core.use(Memberships).active(group.id, userId)
    if (group === undefined || membership === undefined) throw notFound('Group not found')
    return { group, membership }
  }

  /** G5: the creator becomes owner with the account name as nickname. */
  create(creator: Account, init: NewGroup): GroupRow {
    const now = this.#core.clock.now()
    return this.#core.transaction(() => {
      const row = this.#insert.get(
        init.name,
        init.description ?? '',
        init.imageUrl ?? null,
        creator.id,
        init.share === true ? randomAlnum(8) : null,
        now,
        now
      )
      if (row === undefined) throw new Error('group insert returned nothing')
      this.#core.use(Memberships).activate(row.id, creator.id, creator.name, 'admin')
      const group = this.find(row.id)
      if (group === undefined) throw new Error('group vanished after insert')
      return group
    })
  }

  /** G1: the caller's groups by last activity, newest first. */
  listFor(userId: number, page: number, perPage: number): GroupRow[] {
    return this.#listFor.all({ user: userId, limit: perPage, offset: (page - 1) * perPage })
  }

  shareUrl(group: GroupRow): string | null {
    return group.share_token === null ? null : `${this.#core.origin}/join_group/${group.id}/${group.share_token}`
  }

  /** §15.2; `omitMembers` gives `members: null` (G1 `omit=memberships`). */
  shape(group: GroupRow, options: { omitMembers?: boolean } = {}): GroupJson {
    const memberships = this.#core.use(Memberships)
    const summary = this.#core.use(Messages).groupSummary(group.id)
    return {
      id: String(group.id),
      group_id: String(group.id),
      name: group.name,
      type: group.type,
      description: group.description,
      image_url: group.image_url,
      creator_user_id: String(group.creator_user_id),
      created_at: group.created_at,
      updated_at: group.updated_at,
      office_mode: group.office_mode === 1,
      share_url: this.shareUrl(group),
      members: options.omitMembers === true ? null : memberships.members(group),
      members_count: memberships.activeCount(group.id),
      max_members: 5000,
      messages: summary,
      like_icon: group.like_icon === null ? null : (JSON.parse(group.like_icon) as unknown),
      requires_approval: group.requires_approval === 1,
      show_join_question: group.show_join_question === 1,
      join_question: { type: 'join_reason/questions/text', text: group.join_question_text },
      visibility: group.visibility,
      message_deletion_mode: JSON.parse(group.message_deletion_mode) as string[],
      message_edit_period: 15,
      theme_name: group.theme_name
    }
  }
}
