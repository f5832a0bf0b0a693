import type { Statement } from 'better-sqlite3'
import { z } from 'zod'
import { isoFromMicros } from '../clock.js'
import type { Core } from '../core.js'
import { badRequest, conflict } from '../http/errors.js'
import { text } from '../http/validation.js'
import type { PushEvent } from '../push/publisher.js'
import type { Account } from './accounts.js'
import type { VisibleGroup } from './groups.js'
import { Images } from './images.js'
import { Memberships } from './memberships.js'
import { anchorKey, MessageIds } from './message-ids.js'
import { randomHex } from './secrets.js'

/**
 * Messages of groups and DMs: content rules (§10), storage, paging (MS1, C2), the §15.1 shape,
 * the 60 s `source_guid` rule, system messages (§14.5) and the `line.create` fan-out.
 */

export const MAX_TEXT = 1000
export const MAX_ATTACHMENTS = 10
export const GUID_WINDOW_SECONDS = 60
export const DELETED_TEXT = 'This message was deleted'

const imageAttachment = z.object({ type: z.literal('image'), url: z.string() })
const locationAttachment = z.object({ type: z.literal('location'), lat: z.string(), lng: z.string(), name: z.string() })
const emojiAttachment = z.object({
  type: z.literal('emoji'),
  placeholder: z.string(),
  charmap: z.array(z.tuple([z.int().min(1), z.int().min(0)])).min(1)
})

/** What a client may attach; `poll` attachments are made only by the service (§10). */
export const clientAttachmentSchema = z.discriminatedUnion('type', [imageAttachment, locationAttachment, emojiAttachment])

export type Attachment =
  | z.output<typeof clientAttachmentSchema>
  | { type: 'poll'; poll_id: string }

/** The `text` and `attachments` fields of MS2 / C3 (and, for edits, MS4 / C4). */
export const contentFields = {
  text: text(0, MAX_TEXT).nullish(),
  attachments: z.array(clientAttachmentSchema).max(MAX_ATTACHMENTS).nullish()
}

export interface Content {
  text: string
  attachments: Attachment[]
}

export interface MessageRow {
  id: string
  group_id: number | null
  chat_id: string | null
  recipient_id: number | null
  sender_id: string
  sender_type: 'user' | 'system'
  name: string
  avatar_url: string | null
  text: string
  attachments: string
  source_guid: string
  event: string | null
  created_at: number
  updated_at: number | null
  deleted_at_us: number | null
  deletion_actor: string | null
  pinned_at: number | null
  pinned_by: string | null
}

/** §15.1 message M. */
export interface MessageJson {
  id: string
  source_guid: string
  created_at: number
  user_id: string
  sender_id: string
  sender_type: 'user' | 'system'
  name: string
  avatar_url: string | null
  text: string
  system: boolean
  favorited_by: string[]
  reactions: unknown[]
  attachments: Attachment[]
  updated_at: number | null
  deleted_at: string | null
  deletion_actor: string | null
  pinned_at: number | null
  pinned_by: string | null
  parent_id: null
  picture_url: string | null
  location: { lat: string; lng: string; name: string | null }
  group_id?: string
  chat_id?: string
  conversation_id?: string
  recipient_id?: string
  event?: { type: string; data: unknown }
}

export interface SystemEvent {
  type: string
  data: unknown
}

/** Which conversation a page or a guid check is about. */
export type Conversation = { groupId: number } | { chatId: string }

export type Anchor = { before: string } | { since: string } | { after: string } | null

type NewRow = Omit<MessageRow, 'updated_at' | 'deleted_at_us' | 'deletion_actor' | 'pinned_at' | 'pinned_by'>

export class Messages {
  readonly #core: Core
  readonly #insert: Statement<[NewRow]>
  readonly #byId: Statement<[string], MessageRow>
  /** Per conversation kind, so each query walks one index in id order (no OR, no sort). */
  readonly #by: Record<'group' | 'chat', ConversationStatements>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#insert = db.prepare(
      `INSERT INTO messages (id, group_id, chat_id, recipient_id, sender_id, sender_type, name, avatar_url, text,
         attachments, source_guid, event, created_at)
       VALUES (@id, @group_id, @chat_id, @recipient_id, @sender_id, @sender_type, @name, @avatar_url, @text,
         @attachments, @source_guid, @event, @created_at)`
    )
    this.#byId = db.prepare('SELECT * FROM messages WHERE id = ?')
    const prepare = (column: 'group_id' | 'chat_id'): ConversationStatements => {
      const page = (where: string, order: 'ASC' | 'DESC'): Statement<[PageParams], MessageRow> =>
        db.prepare(`SELECT * FROM messages WHERE ${column} = @key ${where} ORDER BY id ${order} LIMIT @limit`)
      return {
        guidUsed: db.prepare(
          `SELECT 1 AS one FROM messages WHERE source_guid = @guid AND sender_id = @sender AND ${column} = @key
           AND created_at > @since LIMIT 1`
        ),
        count: db.prepare(`SELECT count(*) AS n FROM messages WHERE ${column} = @key`),
        last: db.prepare(`SELECT * FROM messages WHERE ${column} = @key ORDER BY id DESC LIMIT 1`),
        newest: page('', 'DESC'),
        before: page('AND id < @anchor', 'DESC'),
        since: page('AND id > @anchor', 'DESC'),
        after: page('AND id > @anchor', 'ASC')
      }
    }
    this.#by = { group: prepare('group_id'), chat: prepare('chat_id') }
  }

  byId(id: string): MessageRow | undefined {
    return this.#byId.get(id)
  }

  /**
   * The content rules beyond syntax (§10): text missing/null/"" is stored as ""; a message needs
   * text or an attachment; image URLs must come from this service's image upload.
   */
  normalizeContent(input: { text?: string | null | undefined; attachments?: Attachment[] | null | undefined }): Content {
    const content = { text: input.text ?? '', attachments: input.attachments ?? [] }
    if (content.text === '' && content.attachments.length === 0) throw badRequest('A message needs text or an attachment')
    const images = this.#core.use(Images)
    content.attachments.forEach((attachment, index) => {
      if (attachment.type === 'image' && !images.isImageServiceUrl(attachment.url)) {
        throw badRequest(`attachments.${index}.url: must be an image-service URL`)
      }
    })
    return content
  }

  /** §10/§11: the same sender may not reuse a `source_guid` in a conversation within 60 s. */
  assertGuidFree(conversation: Conversation, senderId: number, guid: string): void {
    const { kind, key } = keys(conversation)
    const used = this.#by[kind].guidUsed.get({ guid, sender: String(senderId), key, since: this.#core.clock.now() - GUID_WINDOW_SECONDS })
    if (used !== undefined) throw conflict('This source_guid was used in this conversation within the last 60 seconds')
  }

  count(conversation: Conversation): number {
    const { kind, key } = keys(conversation)
    return this.#by[kind].count.get({ key })?.n ?? 0
  }

  last(conversation: Conversation): MessageRow | undefined {
    const { kind, key } = keys(conversation)
    return this.#by[kind].last.get({ key })
  }

  /** MS1 / C2 paging: see the table in §10. */
  page(conversation: Conversation, anchor: Anchor, limit: number): MessageRow[] {
    const { kind, key } = keys(conversation)
    const statements = this.#by[kind]
    const params = { key, limit, anchor: '' }
    if (anchor === null) return statements.newest.all(params)
    if ('before' in anchor) return statements.before.all({ ...params, anchor: anchorKey(anchor.before) })
    if ('since' in anchor) return statements.since.all({ ...params, anchor: anchorKey(anchor.since) })
    return statements.after.all({ ...params, anchor: anchorKey(anchor.after) })
  }

  /** The `messages` object of a group (§15.2). */
  groupSummary(groupId: number): {
    count: number
    last_message_id: string | null
    last_message_created_at: number | null
    preview: { nickname: string | null; text: string | null; image_url: string | null; attachments: Attachment[] }
  } {
    const conversation = { groupId }
    const last = this.last(conversation)
    if (last === undefined) {
      return {
        count: 0,
        last_message_id: null,
        last_message_created_at: null,
        preview: { nickname: null, text: null, image_url: null, attachments: [] }
      }
    }
    const shaped = this.shape(last)
    return {
      count: this.count(conversation),
      last_message_id: last.id,
      last_message_created_at: last.created_at,
      preview: { nickname: shaped.name, text: shaped.text, image_url: shaped.picture_url, attachments: shaped.attachments }
    }
  }

  insert(row: NewRow): MessageRow {
    this.#insert.run(row)
    const stored = this.byId(row.id)
    if (stored === undefined) throw new Error('message vanished after insert')
    return stored
  }

  /** MS2: stores the message and pushes `line.create` to every member, sender included. */
  sendToGroup(visible: VisibleGroup, sender: Account, guid: string, content: Content): MessageJson {
    const { group, membership } = visible
    const row = this.#core.transaction(() =>
      this.insert({
        id: this.#core.use(MessageIds).next(),
        group_id: group.id,
        chat_id: null,
        recipient_id: null,
        sender_id: String(sender.id),
        sender_type: 'user',
        name: membership.nickname,
        avatar_url: sender.image_url,
        text: content.text,
        attachments: JSON.stringify(content.attachments),
        source_guid: guid,
        event: null,
        created_at: this.#core.clock.now()
      })
    )
    const message = this.shape(row)
    this.pushToGroupMembers(group.id, message)
    return message
  }

  /**
   * A system message in a group (§14.5): stored (listed, counted, previewed) and pushed as
   * `line.create` to the current members plus `alsoNotify` (e.g. the user who left).
   */
  postGroupSystemMessage(groupId: number, textValue: string, event: SystemEvent, alsoNotify: number[] = []): MessageJson {
    const row = this.insert({
      ...systemFields(textValue, event),
      id: this.#core.use(MessageIds).next(),
      group_id: groupId,
      chat_id: null,
      recipient_id: null,
      created_at: this.#core.clock.now()
    })
    const message = this.shape(row)
    this.pushToGroupMembers(groupId, message, alsoNotify)
    return message
  }

  /**
   * A push-only system message about a group (`message.update`, `message.deleted`): never stored,
   * but it takes a message id so clients can order it.
   */
  pushGroupSystemMessage(groupId: number, textValue: string, event: SystemEvent): MessageJson {
    const row: MessageRow = {
      ...systemFields(textValue, event),
      id: this.#core.use(MessageIds).next(),
      group_id: groupId,
      chat_id: null,
      recipient_id: null,
      created_at: this.#core.clock.now(),
      updated_at: null,
      deleted_at_us: null,
      deletion_actor: null,
      pinned_at: null,
      pinned_by: null
    }
    const message = this.shape(row)
    this.pushToGroupMembers(groupId, message)
    return message
  }

  pushToGroupMembers(groupId: number, message: MessageJson, alsoNotify: number[] = []): void {
    const members = this.#core.use(Memberships).activeUserIds(groupId)
    this.#core.push.toUsers([...members, ...alsoNotify], lineEvent('line.create', message))
  }

  /** §15.1. Deleted messages come back as their tombstone (§10). */
  shape(row: MessageRow): MessageJson {
    const deleted = row.deleted_at_us !== null
    const attachments = deleted ? [] : (JSON.parse(row.attachments) as Attachment[])
    const image = attachments.find((a) => a.type === 'image')
    const location = attachments.find((a) => a.type === 'location')
    const json: MessageJson = {
      id: row.id,
      source_guid: row.source_guid,
      created_at: row.created_at,
      user_id: row.sender_id,
      sender_id: row.sender_id,
      sender_type: row.sender_type,
      name: row.name,
      avatar_url: row.avatar_url,
      text: deleted ? DELETED_TEXT : row.text,
      system: row.sender_type === 'system',
      favorited_by: [],
      reactions: [],
      attachments,
      updated_at: row.updated_at,
      deleted_at: row.deleted_at_us === null ? null : isoFromMicros(row.deleted_at_us),
      deletion_actor: row.deletion_actor,
      pinned_at: deleted ? null : row.pinned_at,
      pinned_by: deleted ? null : row.pinned_by,
      parent_id: null,
      picture_url: image?.type === 'image' ? image.url : null,
      location:
        location?.type === 'location'
          ? { lat: location.lat, lng: location.lng, name: location.name }
          : { lat: '', lng: '', name: null }
    }
    if (row.group_id !== null) json.group_id = String(row.group_id)
    if (row.chat_id !== null) {
      json.chat_id = row.chat_id
      json.conversation_id = row.chat_id
      json.recipient_id = String(row.recipient_id)
    }
    if (row.event !== null) json.event = JSON.parse(row.event) as SystemEvent
    return json
  }
}

interface PageParams {
  key: number | string
  limit: number
  anchor: string
}

interface ConversationStatements {
  guidUsed: Statement<[{ guid: string; sender: string; key: number | string; since: number }], { one: number }>
  count: Statement<[{ key: number | string }], { n: number }>
  last: Statement<[{ key: number | string }], MessageRow>
  newest: Statement<[PageParams], MessageRow>
  before: Statement<[PageParams], MessageRow>
  since: Statement<[PageParams], MessageRow>
  after: Statement<[PageParams], MessageRow>
}

function keys(conversation: Conversation): { kind: 'group' | 'chat'; key: number | string } {
  return 'groupId' in conversation ? { kind: 'group', key: conversation.groupId } : { kind: 'chat', key: conversation.chatId }
}

function systemFields(textValue: string, event: SystemEvent): Pick<
  MessageRow,
  'sender_id' | 'sender_type' | 'name' | 'avatar_url' | 'text' | 'attachments' | 'source_guid' | 'event'
> {
  return {
    sender_id: 'system',
    sender_type: 'system',
    name: 'System',
    avatar_url: null,
    text: textValue,
    attachments: '[]',
    source_guid: randomHex(32),
    event: JSON.stringify(event)
  }
}

/** `line.create` / `direct_message.create` data (§14.4). */
export function lineEvent(type: 'line.create' | 'direct_message.create', message: MessageJson): PushEvent {
  return { type, alert: alertOf(message), subject: message }
}

/** `<name>: <text>`; a system message's alert is its text (§14.4). */
export function alertOf(message: MessageJson): string {
  if (message.system) return message.text
  if (message.text !== '') return `${message.name}: ${message.text}`
  return message.picture_url === null ? `${message.name} sent an attachment` : `${message.name} posted a picture`
}
