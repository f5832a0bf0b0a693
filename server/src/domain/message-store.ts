import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import { conflict } from '../http/errors.js'
import type { Content } from './message-content.js'
import { anchorKey } from './message-ids.js'

/**
 * The stored messages of groups and DMs: rows, paging (MS1, C2), counts, pins and the 60 s
 * `source_guid` rule. The rules for sending, editing, deleting and pinning are in `messages.ts`.
 */

export const GUID_WINDOW_SECONDS = 60
const PIN_SEQ_KEY = 'last_pin_seq'

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

/** A message as it is first stored: nobody has edited, deleted or pinned it yet. */
export type NewMessageRow = Omit<MessageRow, 'updated_at' | 'deleted_at_us' | 'deletion_actor' | 'pinned_at' | 'pinned_by' | 'pin_seq'>

/** The `event` of a system message (§14.5), stored as JSON in its row. */
export interface SystemEvent {
  type: string
  data: unknown
}

/** Which conversation a page, a count or a guid check is about. */
export type ConversationKey = { groupId: number } | { chatId: string }

export type Anchor = { before: string } | { since: string } | { after: string } | null

export class MessageStore {
  readonly #core: Core
  readonly #insert: Statement<[NewMessageRow]>
  readonly #byId: Statement<[string], MessageRow>
  readonly #writeContent: Statement<[{ id: string; text: string; attachments: string; now: number }]>
  readonly #tombstone: Statement<[{ id: string; at: number; actor: string }]>
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
    this.#writeContent = db.prepare('UPDATE messages SET text = @text, attachments = @attachments, updated_at = @now WHERE id = @id')
    // The tombstone (§10): the content is dropped for good, and so is the pin.
    this.#tombstone = db.prepare(
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

  /** A message that must exist, as it is now (after a write). */
  reload(id: string): MessageRow {
    const row = this.byId(id)
    if (row === undefined) throw new Error('message vanished')
    return row
  }

  /** §10/§11: the same sender may not reuse a `source_guid` in a conversation within 60 s. */
  assertGuidFree(conversation: ConversationKey, senderId: number, guid: string): void {
    const { kind, key } = keys(conversation)
    const used = this.#by[kind].guidUsed.get({ guid, sender: String(senderId), key, since: this.#core.clock.now() - GUID_WINDOW_SECONDS })
    if (used !== undefined) throw conflict('This source_guid was used in this conversation within the last 60 seconds')
  }

  count(conversation: ConversationKey): number {
    const { kind, key } = keys(conversation)
    return this.#by[kind].count.get({ key })?.n ?? 0
  }

  last(conversation: ConversationKey): MessageRow | undefined {
    const { kind, key } = keys(conversation)
    return this.#by[kind].last.get({ key })
  }

  /** MS1 / C2 paging: see the table in §10. */
  page(conversation: ConversationKey, anchor: Anchor, limit: number): MessageRow[] {
    const { kind, key } = keys(conversation)
    const statements = this.#by[kind]
    const params = { key, limit, anchor: '' }
    if (anchor === null) return statements.newest.all(params)
    if ('before' in anchor) return statements.before.all({ ...params, anchor: anchorKey(anchor.before) })
    if ('since' in anchor) return statements.since.all({ ...params, anchor: anchorKey(anchor.since) })
    return statements.after.all({ ...params, anchor: anchorKey(anchor.after) })
  }

  /** MS8 / C5: pinned messages, latest pin first. */
  pinned(conversation: ConversationKey): MessageRow[] {
    const { kind, key } = keys(conversation)
    return this.#by[kind].pinned.all({ key })
  }

  insert(row: NewMessageRow): MessageRow {
    this.#insert.run(row)
    const stored = this.byId(row.id)
    if (stored === undefined) throw new Error('message vanished after insert')
    return stored
  }

  /** MS4 / C4: the edited content, edited `now`. */
  writeContent(id: string, content: Content, now: number): void {
    this.#writeContent.run({ id, text: content.text, attachments: JSON.stringify(content.attachments), now })
  }

  tombstone(id: string, at: number, actor: 'sender' | 'admin'): void {
    this.#tombstone.run({ id, at, actor })
  }

  /** MS6: the pin takes the next place in the pin order (latest pin first in MS8 / C5). */
  pin(id: string, at: number, by: string): void {
    this.#pin.run({ id, at, by, seq: this.#nextPinSeq() })
  }

  unpin(id: string): void {
    this.#pin.run({ id, at: null, by: null, seq: null })
  }

  #nextPinSeq(): number {
    const next = Number(this.#core.meta.get(PIN_SEQ_KEY) ?? 0) + 1
    this.#core.meta.set(PIN_SEQ_KEY, String(next))
    return next
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

function keys(conversation: ConversationKey): { kind: 'group' | 'chat'; key: number | string } {
  return 'groupId' in conversation ? { kind: 'group', key: conversation.groupId } : { kind: 'chat', key: conversation.chatId }
}
