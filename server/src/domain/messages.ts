import type { Statement } from 'better-sqlite3'
import { z } from 'zod'
import { isoFromMicros } from '../clock.js'
import type { Core } from '../core.js'
import { badRequest, conflict, forbidden, notFound } from '../http/errors.js'
import { text } from '../http/validation.js'
import { directMessageChannel, groupChannel } from '../push/channels.js'
import type { PushEvent } from '../push/publisher.js'
import { Accounts, type Account } from './accounts.js'
import { parseChatId } from './chats.js'
import type { GroupRow } from './group-row.js'
import { Groups, type VisibleGroup } from './groups.js'
import { Images } from './images.js'
import { Memberships, type MembershipRow } from './memberships.js'
import { anchorKey, MessageIds } from './message-ids.js'
import { MessageReactions, type ReactionEntry } from './message-reactions.js'
import { randomHex } from './secrets.js'

/**
 * Messages of groups and DMs: content rules (§10), storage, paging (MS1, C2), the §15.1 shape,
 * the 60 s `source_guid` rule, system messages (§14.5) and the `line.create` fan-out.
 */

export const MAX_TEXT = 1000
export const MAX_ATTACHMENTS = 10
export const GUID_WINDOW_SECONDS = 60
export const DELETED_TEXT = 'This message was deleted'
/** MS4 / C4: edits are allowed up to 15 minutes after `created_at` (`message_edit_period`). */
export const EDIT_PERIOD_SECONDS = 15 * 60
const PIN_SEQ_KEY = 'last_pin_seq'

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
  pin_seq: number | null
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
  reactions: ReactionEntry[]
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

/**
 * A conversation the caller may act in (§2.5 step 5 passed): a group they are a member of, or a
 * chat they are one of the pair of (the other user exists). `key` is its `Conversation`.
 */
export type ConversationScope =
  | { kind: 'group'; group: GroupRow; membership: MembershipRow; key: Conversation }
  | { kind: 'chat'; chatId: string; lo: number; hi: number; key: Conversation }

/** What MS4 / C4 send: a missing or null field keeps its old value (§10). */
export interface ContentEdit {
  text?: string | null | undefined
  attachments?: Attachment[] | null | undefined
}

export type Anchor = { before: string } | { since: string } | { after: string } | null

type NewRow = Omit<MessageRow, 'updated_at' | 'deleted_at_us' | 'deletion_actor' | 'pinned_at' | 'pinned_by' | 'pin_seq'>

export class Messages {
  readonly #core: Core
  readonly #insert: Statement<[NewRow]>
  readonly #byId: Statement<[string], MessageRow>
  readonly #edit: Statement<[{ id: string; text: string; attachments: string; now: number }]>
  readonly #delete: Statement<[{ id: string; at: number; actor: string }]>
  readonly #pin: Statement<[{ id: string; at: number | null; by: string | null; seq: number | null }]>
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
    this.#edit = db.prepare('UPDATE messages SET text = @text, attachments = @attachments, updated_at = @now WHERE id = @id')
    // The tombstone (§10): the content is dropped for good, and so is the pin.
    this.#delete = db.prepare(
      `UPDATE messages SET text = '', attachments = '[]', deleted_at_us = @at, deletion_actor = @actor,
         pinned_at = NULL, pinned_by = NULL, pin_seq = NULL WHERE id = @id`
    )
    this.#pin = db.prepare('UPDATE messages SET pinned_at = @at, pinned_by = @by, pin_seq = @seq WHERE id = @id')
    const prepare = (column: 'group_id' | 'chat_id'): ConversationStatements => {
      const page = (where: string, order: 'ASC' | 'DESC'): Statement<[PageParams], MessageRow> =>
        db.prepare(`SELECT * FROM messages WHERE ${column} = @key ${where} ORDER BY id ${order} LIMIT @limit`)
      return {
        guidUsed: db.prepare(
          `SELECT 1 AS one FROM messages WHERE source_guid = @guid AND sender_id = @sender AND ${column} = @key
           AND created_at > @since LIMIT 1`
        ),
        // Kept by triggers (migration messages-002-counts); a group id is bound as a JS number.
        count: db.prepare(
          column === 'group_id'
            ? `SELECT n FROM message_counts WHERE conversation = 'g:' || CAST(@key AS INTEGER)`
            : `SELECT n FROM message_counts WHERE conversation = 'c:' || @key`
        ),
        last: db.prepare(`SELECT * FROM messages WHERE ${column} = @key ORDER BY id DESC LIMIT 1`),
        pinned: db.prepare(`SELECT * FROM messages WHERE ${column} = @key AND pin_seq IS NOT NULL ORDER BY pin_seq DESC`),
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
    this.assertImageUrls(content.attachments)
    return content
  }

  /** Image attachments must carry URLs of this service's image upload (400). */
  assertImageUrls(attachments: readonly Attachment[]): void {
    const images = this.#core.use(Images)
    attachments.forEach((attachment, index) => {
      if (attachment.type === 'image' && !images.isImageServiceUrl(attachment.url)) {
        throw badRequest(`attachments.${index}.url: must be an image-service URL`)
      }
    })
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
      ...UNTOUCHED
    }
    const message = this.shape(row)
    this.pushToGroupMembers(groupId, message)
    return message
  }

  pushToGroupMembers(groupId: number, message: MessageJson, alsoNotify: number[] = []): void {
    const members = this.#core.use(Memberships).activeUserIds(groupId)
    this.#core.push.toUsers([...members, ...alsoNotify], lineEvent('line.create', message))
  }

  /**
   * A push-only system message in a chat (§14.5): `direct_message.create` to both participants,
   * each copy with `recipient_id` = the receiving user. One id and `source_guid` for both.
   */
  pushChatSystemMessage(chat: { chatId: string; lo: number; hi: number }, textValue: string, event: SystemEvent): void {
    const fields = systemFields(textValue, event)
    const id = this.#core.use(MessageIds).next()
    const now = this.#core.clock.now()
    for (const userId of [chat.lo, chat.hi]) {
      const row: MessageRow = {
        ...fields,
        id,
        group_id: null,
        chat_id: chat.chatId,
        recipient_id: userId,
        created_at: now,
        ...UNTOUCHED
      }
      this.#core.push.toUsers([userId], lineEvent('direct_message.create', this.shape(row)))
    }
  }

  /** A push-only system message (`message.update`, `message.deleted`) in either kind of conversation. */
  pushSystemMessage(scope: ConversationScope, textValue: string, event: SystemEvent): void {
    if (scope.kind === 'group') this.pushGroupSystemMessage(scope.group.id, textValue, event)
    else this.pushChatSystemMessage(scope, textValue, event)
  }

  // ── conversations addressed by id, and the messages in them ─────────────────────────────────

  /**
   * §2.5 step 5 for a `:conversation_id` (MS5–MS7, RX1, RX2): a chat id when it has a `+`, else a
   * group id.
   */
  requireConversation(conversationId: string | undefined, callerId: number): ConversationScope {
    const raw = conversationId ?? ''
    if (raw.includes('+')) return this.requireChat(raw, callerId)
    return this.groupScope(this.#core.use(Groups).requireVisible(raw, callerId))
  }

  groupScope(visible: VisibleGroup): ConversationScope {
    return { kind: 'group', group: visible.group, membership: visible.membership, key: { groupId: visible.group.id } }
  }

  /**
   * A chat id as written: `lo+hi` only (§18.23), the caller one of the pair, the other user
   * existing; anything else is 404.
   */
  requireChat(chatId: string | undefined, callerId: number): ConversationScope {
    const pair = parseChatId(chatId ?? '')
    if (pair === null || (pair.lo !== callerId && pair.hi !== callerId)) throw notFound('Chat not found')
    const other = pair.lo === callerId ? pair.hi : pair.lo
    if (this.#core.use(Accounts).byId(other) === undefined) throw notFound('Chat not found')
    return this.chatScope(pair.lo, pair.hi)
  }

  /** The chat of two existing users (C5's `other_user_id` has been checked already). */
  chatScope(a: number, b: number): ConversationScope {
    const lo = Math.min(a, b)
    const hi = Math.max(a, b)
    const chatId = `${lo}+${hi}`
    return { kind: 'chat', chatId, lo, hi, key: { chatId } }
  }

  /**
   * A message of this conversation, else 404. A deleted message counts as nonexistent (§2.5) unless
   * `allowDeleted` (MS3 shows its tombstone).
   */
  requireMessage(scope: ConversationScope, messageId: string | undefined, options: { allowDeleted?: boolean } = {}): MessageRow {
    const row = messageId !== undefined && /^[1-9][0-9]{17}$/.test(messageId) ? this.byId(messageId) : undefined
    const inside =
      row !== undefined && (scope.kind === 'group' ? row.group_id === scope.group.id : row.chat_id === scope.chatId)
    if (!inside || (row.deleted_at_us !== null && options.allowDeleted !== true)) throw notFound('Message not found')
    return row
  }

  /** The channel a conversation's `favorite`, `message.update` and `message.deleted` go on. */
  channelOf(scope: ConversationScope): string {
    return scope.kind === 'group' ? groupChannel(scope.group.id) : directMessageChannel(scope.lo, scope.hi)
  }

  /**
   * MS4 / C4 once the message exists: 403 unless the caller sent it (never a system or poll
   * message) within the edit period; then the edit rules of §10 (400 on the result); then
   * `message.update` on the conversation channel and a push-only system message.
   */
  edit(scope: ConversationScope, row: MessageRow, callerId: number, change: ContentEdit): MessageJson {
    if (row.sender_type === 'system' || row.sender_id !== String(callerId)) throw forbidden('Only the sender may edit a message')
    if (isPollMessage(row)) throw forbidden('A poll message cannot be edited')
    const now = this.#core.clock.now()
    if (now - row.created_at > EDIT_PERIOD_SECONDS) throw forbidden('Messages can be edited only within 15 minutes')
    const content = this.normalizeContent({
      text: change.text ?? row.text,
      attachments: change.attachments ?? (JSON.parse(row.attachments) as Attachment[])
    })
    this.#edit.run({ id: row.id, text: content.text, attachments: JSON.stringify(content.attachments), now })
    const message = this.shape(this.#reload(row.id))
    this.#core.push.toChannel(this.channelOf(scope), { type: 'message.update', alert: '', subject: message })
    this.pushSystemMessage(scope, 'A message was edited.', {
      type: 'message.update',
      data: {
        message_id: message.id,
        sender_id: message.sender_id,
        updated_at: now,
        message: { text: message.text, attachments: message.attachments }
      }
    })
    return message
  }

  /**
   * MS5 once the message exists: the deletion modes in order (sender, then admin; DMs `["sender"]`;
   * system messages never), then the tombstone, `message.deleted` on the conversation channel and a
   * push-only system message.
   */
  delete(scope: ConversationScope, row: MessageRow, callerId: number): void {
    if (row.sender_type === 'system') throw forbidden('System messages cannot be deleted')
    const mode = scope.kind === 'chat' ? ['sender'] : (JSON.parse(scope.group.message_deletion_mode) as string[])
    let actor: 'sender' | 'admin'
    if (row.sender_id === String(callerId) && mode.includes('sender')) actor = 'sender'
    else if (scope.kind === 'group' && mode.includes('admin') && this.#core.use(Memberships).isAdminOrOwner(scope.group, scope.membership)) {
      actor = 'admin'
    } else throw forbidden('You may not delete this message')
    const at = this.#core.clock.nowMicros()
    this.#core.transaction(() => {
      this.#delete.run({ id: row.id, at, actor })
      this.#core.use(MessageReactions).clear(row.id)
    })
    const tombstone = this.shape(this.#reload(row.id))
    this.#core.push.toChannel(this.channelOf(scope), { type: 'message.deleted', alert: '', subject: tombstone })
    this.pushSystemMessage(scope, 'A message was deleted.', {
      type: 'message.deleted',
      data: { message_id: row.id, deleted_at: Math.floor(at / 1_000_000), deletion_actor: actor }
    })
  }

  /**
   * MS6 / MS7 once the message exists: 400 when already pinned / not pinned; then the
   * `message.pinned` system message (stored in groups, push-only in DMs).
   */
  setPinned(scope: ConversationScope, row: MessageRow, callerId: number, pinned: boolean): void {
    if (pinned && row.pinned_at !== null) throw badRequest('This message is already pinned')
    if (!pinned && row.pinned_at === null) throw badRequest('This message is not pinned')
    const now = this.#core.clock.now()
    const by = String(callerId)
    this.#pin.run(pinned ? { id: row.id, at: now, by, seq: this.#nextPinSeq() } : { id: row.id, at: null, by: null, seq: null })
    const actorName = scope.kind === 'group' ? scope.membership.nickname : (this.#core.use(Accounts).byId(callerId)?.name ?? 'Someone')
    const textValue = `${actorName} ${pinned ? 'pinned' : 'unpinned'} a message.`
    const event = { type: 'message.pinned', data: { message_id: row.id, pinned, pinned_at: now, pinned_by: by } }
    if (scope.kind === 'group') this.postGroupSystemMessage(scope.group.id, textValue, event)
    else this.pushChatSystemMessage(scope, textValue, event)
  }

  /** MS8 / C5: pinned messages, latest pin first. */
  pinned(conversation: Conversation): MessageRow[] {
    const { kind, key } = keys(conversation)
    return this.#by[kind].pinned.all({ key })
  }

  #nextPinSeq(): number {
    const next = Number(this.#core.meta.get(PIN_SEQ_KEY) ?? 0) + 1
    this.#core.meta.set(PIN_SEQ_KEY, String(next))
    return next
  }

  #reload(id: string): MessageRow {
    const row = this.byId(id)
    if (row === undefined) throw new Error('message vanished')
    return row
  }

  /** §15.1. Deleted messages come back as their tombstone (§10). */
  shape(row: MessageRow): MessageJson {
    const deleted = row.deleted_at_us !== null
    const { reactions, favorited_by } = deleted ? { reactions: [], favorited_by: [] } : this.#core.use(MessageReactions).of(row.id)
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
      favorited_by,
      reactions,
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
  pinned: Statement<[{ key: number | string }], MessageRow>
  newest: Statement<[PageParams], MessageRow>
  before: Statement<[PageParams], MessageRow>
  since: Statement<[PageParams], MessageRow>
  after: Statement<[PageParams], MessageRow>
}

/** The PL1 message: edits are refused (§10 MS4). */
function isPollMessage(row: MessageRow): boolean {
  return (JSON.parse(row.attachments) as Attachment[]).some((a) => a.type === 'poll')
}

/** The lifecycle of a message nobody has edited, deleted or pinned (§15.1): push-only system messages. */
const UNTOUCHED = {
  updated_at: null,
  deleted_at_us: null,
  deletion_actor: null,
  pinned_at: null,
  pinned_by: null,
  pin_seq: null
} as const satisfies Partial<MessageRow>

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
