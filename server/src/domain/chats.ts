import type { Statement } from 'better-sqlite3-multiple-ciphers'
import type { Core } from '../core.js'
import { badRequest, forbidden, notFound } from '../http/errors.js'
import { toId } from '../http/validation.js'
import { Accounts, type Account } from './accounts.js'
import { Blocks } from './blocks.js'
import { MessageIds } from './message-ids.js'
import type { Content } from './message-content.js'
import { lineEvent, MessageShapes, type MessageJson } from './message-shapes.js'
import { MessageStore } from './message-store.js'

/** Direct-message chats (§11): chat ids, sending (C3), listing (C1) and the §15.5 shape. */

/** `"<lo>+<hi>"`: the two user ids, smaller number first (§2.1). */
export function chatIdOf(a: number, b: number): string {
  return a < b ? `${a}+${b}` : `${b}+${a}`
}

/**
 * The participants of a chat id as written: `lo+hi` only (§18.23), else null. A path may carry
 * `+` or `%2B`; fastify has decoded either to `+` by now.
 */
export function parseChatId(chatId: string): { lo: number; hi: number } | null {
  const parts = chatId.split('+')
  if (parts.length !== 2) return null
  const lo = toId(parts[0] ?? '')
  const hi = toId(parts[1] ?? '')
  return lo !== null && hi !== null && lo < hi ? { lo, hi } : null
}

interface ChatRow {
  id: string
  user_lo: number
  user_hi: number
  created_at: number
  updated_at: number
}

/** §15.5. */
export interface ChatJson {
  created_at: number
  updated_at: number
  messages_count: number
  last_message: MessageJson | null
  other_user: { id: string; name: string; avatar_url: string | null }
  message_deletion_mode: ['sender']
  message_edit_period: 15
}

export class Chats {
  readonly #core: Core
  readonly #open: Statement<[{ id: string; lo: number; hi: number; now: number }]>
  readonly #touch: Statement<[number, string]>
  readonly #listFor: Statement<[{ user: number; limit: number; offset: number }], ChatRow>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#open = db.prepare(
      'INSERT OR IGNORE INTO chats (id, user_lo, user_hi, created_at, updated_at) VALUES (@id, @lo, @hi, @now, @now)'
    )
    this.#touch = db.prepare('UPDATE chats SET updated_at = ? WHERE id = ?')
    this.#listFor = db.prepare(
      `SELECT * FROM chats WHERE user_lo = @user OR user_hi = @user
       ORDER BY updated_at DESC, (SELECT max(id) FROM messages WHERE chat_id = chats.id) DESC
       LIMIT @limit OFFSET @offset`
    )
  }

  /**
   * §2.5 step 5 for DM-scoped calls with `other_user_id`: the other user must exist (404).
   * Addressing oneself is a syntax error (400), as C3 says for its recipient.
   */
  requireOtherUser(callerId: number, otherUserId: string): Account {
    const id = toId(otherUserId)
    if (id !== null && id === callerId) throw badRequest('A direct message needs another user')
    const other = id === null ? undefined : this.#core.use(Accounts).byId(id)
    if (other === undefined) throw notFound('User not found')
    return other
  }

  /** C3: stores the DM and pushes `direct_message.create` to both participants. */
  send(sender: Account, recipientIdRaw: string, guid: string, content: Content): MessageJson {
    const recipient = this.requireOtherUser(sender.id, recipientIdRaw)
    if (this.#core.use(Blocks).blocks(recipient.id, sender.id)) throw forbidden('This user does not accept your messages')
    const chatId = chatIdOf(sender.id, recipient.id)
    const store = this.#core.use(MessageStore)
    store.assertGuidFree({ chatId }, sender.id, guid)
    const now = this.#core.clock.now()
    const row = this.#core.transaction(() => {
      this.#open.run({ id: chatId, lo: Math.min(sender.id, recipient.id), hi: Math.max(sender.id, recipient.id), now })
      this.#touch.run(now, chatId)
      return store.insert({
        id: this.#core.use(MessageIds).next(),
        group_id: null,
        chat_id: chatId,
        recipient_id: recipient.id,
        sender_id: String(sender.id),
        sender_type: 'user',
        name: sender.name,
        avatar_url: sender.image_url,
        text: content.text,
        attachments: JSON.stringify(content.attachments),
        source_guid: guid,
        event: null,
        created_at: now
      })
    })
    const message = this.#core.use(MessageShapes).shape(row)
    this.#core.push.toUsers([sender.id, recipient.id], lineEvent('direct_message.create', message))
    return message
  }

  /** C1: the caller's chats, most recently active first. */
  list(userId: number, page: number, perPage: number): ChatJson[] {
    return this.#listFor.all({ user: userId, limit: perPage, offset: (page - 1) * perPage }).map((row) => this.shape(row, userId))
  }

  shape(row: ChatRow, viewerId: number): ChatJson {
    const store = this.#core.use(MessageStore)
    const otherId = row.user_lo === viewerId ? row.user_hi : row.user_lo
    const other = this.#core.use(Accounts).byId(otherId)
    const last = store.last({ chatId: row.id })
    return {
      created_at: row.created_at,
      updated_at: row.updated_at,
      messages_count: store.count({ chatId: row.id }),
      last_message: last === undefined ? null : this.#core.use(MessageShapes).shape(last),
      other_user: { id: String(otherId), name: other?.name ?? '', avatar_url: other?.image_url ?? null },
      message_deletion_mode: ['sender'],
      message_edit_period: 15
    }
  }
}
