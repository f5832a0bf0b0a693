import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import { notFound } from '../http/errors.js'
import { toId } from '../http/validation.js'
import type { Account } from './accounts.js'
import type { GroupRow } from './group-row.js'
import { Memberships, type Member, type MembershipRow } from './memberships.js'
import type { Attachment } from './message-content.js'
import { MessageShapes } from './message-shapes.js'
import { MessageStore } from './message-store.js'
import { randomAlnum } from './secrets.js'

/** Groups: creation, visibility, listing and the §15.2 shape. */

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

/** G6: the settings to change; an absent key keeps its value. */
export interface GroupChanges {
  name?: string
  description?: string
  /** `null` clears it. */
  imageUrl?: string | null
  officeMode?: boolean
  /** `null` restores the default theme. */
  themeName?: string | null
  /** `true` makes a share token if there is none; `false` discards it. */
  share?: boolean
  requiresApproval?: boolean
  showJoinQuestion?: boolean
  joinQuestionText?: string
  /** `null` removes it. */
  likeIcon?: LikeIcon | null
  visibility?: 'searchable' | 'hidden'
  type?: GroupRow['type']
  /** Already deduplicated. */
  messageDeletionMode?: ('admin' | 'sender')[]
}

export interface LikeIcon {
  type: 'emoji'
  pack_id: number
  pack_index: number
}

/** §15.3 cut-down group, the subject of `membership.create`. */
export interface CutDownGroupJson {
  avatar_url: string | null
  created_at: number
  creator_id: string
  description: string
  disable_sharing: false
  id: string
  max_memberships: 5000
  name: string
  phone_number: null
  preview_url: null
  share_url: string | null
  shared: boolean
  theme_name: string | null
  thread_id: null
  type: GroupRow['type']
  updated_at: number
}

/** The settings columns G6 writes. */
type Settings = Pick<
  GroupRow,
  | 'name'
  | 'description'
  | 'image_url'
  | 'office_mode'
  | 'theme_name'
  | 'share_token'
  | 'requires_approval'
  | 'show_join_question'
  | 'join_question_text'
  | 'like_icon'
  | 'visibility'
  | 'type'
  | 'message_deletion_mode'
>

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
  readonly #writeSettings: Statement<[Settings & { id: number; updated_at: number }]>
  readonly #touch: Statement<[number, number]>
  readonly #setOwner: Statement<[number, number, number]>
  readonly #destroy: Statement<[number, number]>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#find = db.prepare('SELECT * FROM groups WHERE id = ? AND destroyed_at IS NULL')
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
    this.#writeSettings = db.prepare(
      `UPDATE groups SET name = @name, description = @description, image_url = @image_url, office_mode = @office_mode,
         theme_name = @theme_name, share_token = @share_token, requires_approval = @requires_approval,
         show_join_question = @show_join_question, join_question_text = @join_question_text, like_icon = @like_icon,
         visibility = @visibility, type = @type, message_deletion_mode = @message_deletion_mode, updated_at = @updated_at
       WHERE id = @id`
    )
    this.#touch = db.prepare('UPDATE groups SET updated_at = ? WHERE id = ?')
    this.#setOwner = db.prepare('UPDATE groups SET creator_user_id = ?, updated_at = ? WHERE id = ?')
    this.#destroy = db.prepare('UPDATE groups SET destroyed_at = ?, share_token = NULL WHERE id = ?')
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

  /**
   * G6, already validated: applies every change at once. `updated_at` moves only when a setting
   * really changed. Returns the group as it is now.
   */
  update(group: GroupRow, changes: GroupChanges): GroupRow {
    const current: Settings = {
      name: group.name,
      description: group.description,
      image_url: group.image_url,
      office_mode: group.office_mode,
      theme_name: group.theme_name,
      share_token: group.share_token,
      requires_approval: group.requires_approval,
      show_join_question: group.show_join_question,
      join_question_text: group.join_question_text,
      like_icon: group.like_icon,
      visibility: group.visibility,
      type: group.type,
      message_deletion_mode: group.message_deletion_mode
    }
    const flag = (value: boolean | undefined, old: number): number => (value === undefined ? old : value ? 1 : 0)
    const next: Settings = {
      name: changes.name ?? current.name,
      description: changes.description ?? current.description,
      image_url: changes.imageUrl === undefined ? current.image_url : changes.imageUrl,
      office_mode: flag(changes.officeMode, current.office_mode),
      theme_name: changes.themeName === undefined ? current.theme_name : changes.themeName,
      share_token:
        changes.share === undefined ? current.share_token : changes.share ? (current.share_token ?? randomAlnum(8)) : null,
      requires_approval: flag(changes.requiresApproval, current.requires_approval),
      show_join_question: flag(changes.showJoinQuestion, current.show_join_question),
      join_question_text: changes.joinQuestionText ?? current.join_question_text,
      like_icon:
        changes.likeIcon === undefined
          ? current.like_icon
          : changes.likeIcon === null
            ? null
            : JSON.stringify({ type: 'emoji', pack_id: changes.likeIcon.pack_id, pack_index: changes.likeIcon.pack_index }),
      visibility: changes.visibility ?? current.visibility,
      type: changes.type ?? current.type,
      message_deletion_mode:
        changes.messageDeletionMode === undefined ? current.message_deletion_mode : JSON.stringify(changes.messageDeletionMode)
    }
    const changed = (Object.keys(next) as (keyof Settings)[]).some((key) => next[key] !== current[key])
    if (!changed) return group
    this.#writeSettings.run({ ...next, id: group.id, updated_at: this.#core.clock.now() })
    return this.#reload(group.id)
  }

  /** A change to the roster: `updated_at` = now (§15.2). */
  touch(groupId: number): void {
    this.#touch.run(this.#core.clock.now(), groupId)
  }

  /** G10: `userId` becomes `creator_user_id`. */
  setOwner(groupId: number, userId: number): void {
    this.#setOwner.run(userId, this.#core.clock.now(), groupId)
  }

  /**
   * G7: the group is gone. Its row stays (marked destroyed) so that other areas' rows referring to
   * it never block this; its memberships are deleted, so it leaves G1–G3, push access and every
   * per-user listing, and `find` no longer returns it.
   */
  destroy(groupId: number): void {
    this.#core.transaction(() => {
      this.#destroy.run(this.#core.clock.now(), groupId)
      this.#core.use(Memberships).deleteForGroup(groupId)
    })
  }

  /** G2: groups the user has exited, latest exit first. */
  formerOf(userId: number): GroupRow[] {
    return this.#core
      .use(Memberships)
      .exitedGroupIds(userId)
      .map((id) => this.find(id))
      .filter((group): group is GroupRow => group !== undefined)
  }

  #reload(id: number): GroupRow {
    const group = this.find(id)
    if (group === undefined) throw new Error(`group ${id} vanished`)
    return group
  }

  /** §15.3 + §18.5: the subject of `membership.create`. */
  cutDown(group: GroupRow): CutDownGroupJson {
    return {
      avatar_url: group.image_url,
      created_at: group.created_at,
      creator_id: String(group.creator_user_id),
      description: group.description,
      disable_sharing: false,
      id: String(group.id),
      max_memberships: 5000,
      name: group.name,
      phone_number: null,
      preview_url: null,
      share_url: this.shareUrl(group),
      shared: group.share_token !== null,
      theme_name: group.theme_name,
      thread_id: null,
      type: group.type,
      updated_at: group.updated_at
    }
  }

  shareUrl(group: GroupRow): string | null {
    return group.share_token === null ? null : `${this.#core.origin}/join_group/${group.id}/${group.share_token}`
  }

  /** The `messages` object of §15.2: the count, and the last message as a preview. */
  #messagesSummary(groupId: number): GroupJson['messages'] {
    const store = this.#core.use(MessageStore)
    const conversation = { groupId }
    const last = store.last(conversation)
    if (last === undefined) {
      return {
        count: 0,
        last_message_id: null,
        last_message_created_at: null,
        preview: { nickname: null, text: null, image_url: null, attachments: [] }
      }
    }
    const shaped = this.#core.use(MessageShapes).shape(last)
    return {
      count: store.count(conversation),
      last_message_id: last.id,
      last_message_created_at: last.created_at,
      preview: { nickname: shaped.name, text: shaped.text, image_url: shaped.picture_url, attachments: shaped.attachments }
    }
  }

  /** §15.2; `omitMembers` gives `members: null` (G1 `omit=memberships`). */
  shape(group: GroupRow, options: { omitMembers?: boolean } = {}): GroupJson {
    const memberships = this.#core.use(Memberships)
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
      messages: this.#messagesSummary(group.id),
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
