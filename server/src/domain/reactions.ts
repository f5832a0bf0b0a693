import type { Statement } from 'better-sqlite3'
import { z } from 'zod'
import { isoFromMicros } from '../clock.js'
import type { Core } from '../core.js'
import { Messages, type ConversationScope, type MessageJson, type MessageRow } from './messages.js'

/**
 * Reactions (§12): one per user per message, entries ordered by first appearance, `user_ids` by
 * reaction time, the `favorite` push (§14.4) and the RX3–RX5 lists. Tombstones have none: a
 * delete drops the message's reactions.
 */

/** The 15 permitted unicode codes; ❤️ is U+2764 U+FE0F. */
export const REACTION_CODES: readonly string[] = [
  '\u2764\uFE0F',
  '👍',
  '🤣',
  '🎉',
  '🔥',
  '😮',
  '👀',
  '😭',
  '🥺',
  '🙏',
  '💀',
  '🫶',
  '🤬',
  '💅',
  '🫠'
]

export const HEART = { type: 'unicode', code: '\u2764\uFE0F' } as const

/** A reaction object (§12); unknown keys are dropped, anything else is a 400. */
export const reactionSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('unicode'),
    code: z.string().refine((code) => REACTION_CODES.includes(code), 'is not one of the permitted codes')
  }),
  z.object({ type: z.literal('emoji'), pack_id: z.int().min(1), pack_index: z.int().min(0) })
])

export type Reaction = z.output<typeof reactionSchema>

export type ReactionEntry = Reaction & { user_ids: string[] }

/** The stored form: fixed key order, so equal reactions have equal keys. */
export function reactionKey(reaction: Reaction): string {
  return reaction.type === 'unicode'
    ? JSON.stringify({ type: 'unicode', code: reaction.code })
    : JSON.stringify({ type: 'emoji', pack_id: reaction.pack_id, pack_index: reaction.pack_index })
}

/** A stored group `like_icon` as a reaction, or null when unset or not a valid reaction. */
export function reactionFromJson(json: string | null): Reaction | null {
  if (json === null) return null
  const parsed = reactionSchema.safeParse(JSON.parse(json))
  return parsed.success ? parsed.data : null
}

interface ReactionRow {
  id: number
  message_id: string
  user_id: number
  reaction: string
  liked_at_us: number
}

export type LikesPeriod = 'day' | 'week' | 'month'

const PERIOD_SECONDS: Record<LikesPeriod, number> = { day: 86_400, week: 604_800, month: 2_592_000 }
const LIST_LIMIT = 100

export class Reactions {
  readonly #core: Core
  readonly #ofMessage: Statement<[string], ReactionRow>
  readonly #mine: Statement<[string, number], ReactionRow>
  readonly #remove: Statement<[string, number]>
  readonly #removeAll: Statement<[string]>
  readonly #insert: Statement<[{ message: string; user: number; reaction: string; at: number }]>
  readonly #entriesOf: Statement<[string], { reaction: string }>
  readonly #openEntry: Statement<[string, string, number | bigint]>
  readonly #dropEmptyEntry: Statement<[string, string, string, string]>
  readonly #clearEntries: Statement<[string]>
  readonly #popular: Statement<[{ group: number; since: number; limit: number }], MessageRow>
  readonly #likedBy: Statement<[{ group: number; user: number; limit: number }], MessageRow & { liked_at_us: number }>
  readonly #forAuthor: Statement<[{ group: number; user: number; author: string; limit: number }], MessageRow>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
    this.#ofMessage = db.prepare('SELECT * FROM reactions WHERE message_id = ? ORDER BY id')
    this.#mine = db.prepare('SELECT * FROM reactions WHERE message_id = ? AND user_id = ?')
    this.#remove = db.prepare('DELETE FROM reactions WHERE message_id = ? AND user_id = ?')
    this.#removeAll = db.prepare('DELETE FROM reactions WHERE message_id = ?')
    this.#insert = db.prepare(
      'INSERT INTO reactions (message_id, user_id, reaction, liked_at_us) VALUES (@message, @user, @reaction, @at)'
    )
    this.#entriesOf = db.prepare('SELECT reaction FROM reaction_entries WHERE message_id = ? ORDER BY first_reaction_id')
    this.#openEntry = db.prepare(
      'INSERT OR IGNORE INTO reaction_entries (message_id, reaction, first_reaction_id) VALUES (?, ?, ?)'
    )
    this.#dropEmptyEntry = db.prepare(
      `DELETE FROM reaction_entries WHERE message_id = ? AND reaction = ?
         AND NOT EXISTS (SELECT 1 FROM reactions WHERE message_id = ? AND reaction = ?)`
    )
    this.#clearEntries = db.prepare('DELETE FROM reaction_entries WHERE message_id = ?')
    this.#popular = db.prepare(
      `SELECT m.* FROM messages m JOIN (SELECT message_id, count(*) AS n FROM reactions GROUP BY message_id) r
         ON r.message_id = m.id
       WHERE m.group_id = @group AND m.created_at >= @since AND m.deleted_at_us IS NULL
       ORDER BY r.n DESC, m.id DESC LIMIT @limit`
    )
    this.#likedBy = db.prepare(
      `SELECT m.*, r.liked_at_us FROM reactions r JOIN messages m ON m.id = r.message_id
       WHERE r.user_id = @user AND m.group_id = @group AND m.deleted_at_us IS NULL
       ORDER BY r.liked_at_us DESC, r.id DESC LIMIT @limit`
    )
    this.#forAuthor = db.prepare(
      `SELECT m.* FROM messages m
       WHERE m.group_id = @group AND m.sender_id = @author AND m.deleted_at_us IS NULL
         AND EXISTS (SELECT 1 FROM reactions r WHERE r.message_id = m.id AND r.user_id <> @user)
       ORDER BY m.id DESC LIMIT @limit`
    )
  }

  /**
   * `reactions` and `favorited_by` of a message (§12): entries in order of appearance, `user_ids`
   * and `favorited_by` in order of reaction.
   */
  of(messageId: string): { reactions: ReactionEntry[]; favorited_by: string[] } {
    const rows = this.#ofMessage.all(messageId)
    if (rows.length === 0) return { reactions: [], favorited_by: [] }
    const entries = new Map<string, ReactionEntry>()
    for (const { reaction } of this.#entriesOf.all(messageId)) {
      entries.set(reaction, { ...(JSON.parse(reaction) as Reaction), user_ids: [] })
    }
    for (const row of rows) entries.get(row.reaction)?.user_ids.push(String(row.user_id))
    return {
      reactions: [...entries.values()].filter((entry) => entry.user_ids.length > 0),
      favorited_by: rows.map((row) => String(row.user_id))
    }
  }

  /** When the user's current reaction to a message was made (ISO), if any. */
  likedAt(messageId: string, userId: number): string | null {
    const row = this.#mine.get(messageId, userId)
    return row === undefined ? null : isoFromMicros(row.liked_at_us)
  }

  /**
   * RX1: sets the caller's reaction (`null` = the conversation's default), replacing an earlier
   * different one; the same one again changes nothing.
   */
  like(conversation: ConversationScope, message: MessageRow, userId: number, requested: Reaction | null): ReactionEntry[] {
    const reaction = requested ?? this.defaultReaction(conversation)
    const key = reactionKey(reaction)
    this.#core.transaction(() => {
      const current = this.#mine.get(message.id, userId)
      if (current?.reaction === key) return
      if (current !== undefined) this.#removeReaction(current)
      const inserted = this.#insert.run({ message: message.id, user: userId, reaction: key, at: this.#core.clock.nowMicros() })
      this.#openEntry.run(message.id, key, inserted.lastInsertRowid)
    })
    return this.#announce(conversation, message, userId)
  }

  /** RX2: removes the caller's reaction; no change if there was none. */
  unlike(conversation: ConversationScope, message: MessageRow, userId: number): ReactionEntry[] {
    this.#core.transaction(() => {
      const current = this.#mine.get(message.id, userId)
      if (current !== undefined) this.#removeReaction(current)
    })
    return this.#announce(conversation, message, userId)
  }

  /** A delete drops every reaction (the tombstone has none, §10). */
  clear(messageId: string): void {
    this.#removeAll.run(messageId)
    this.#clearEntries.run(messageId)
  }

  /** Removes one reaction, and its entry once nobody is left in it. */
  #removeReaction(row: ReactionRow): void {
    this.#remove.run(row.message_id, row.user_id)
    this.#dropEmptyEntry.run(row.message_id, row.reaction, row.message_id, row.reaction)
  }

  /** §12 default: the group's `like_icon` if set, else ❤️; in DMs always ❤️. */
  defaultReaction(conversation: ConversationScope): Reaction {
    if (conversation.kind === 'chat') return HEART
    return reactionFromJson(conversation.group.like_icon) ?? HEART
  }

  /** RX3: messages created in the period with ≥ 1 reaction, most reactions first. */
  popular(groupId: number, period: LikesPeriod): MessageJson[] {
    const since = this.#core.clock.now() - PERIOD_SECONDS[period]
    const messages = this.#core.use(Messages)
    return this.#popular.all({ group: groupId, since, limit: LIST_LIMIT }).map((row) => messages.shape(row))
  }

  /** RX4: what the caller reacted to, latest reaction first, each with `liked_at`. */
  mine(groupId: number, userId: number): (MessageJson & { liked_at: string })[] {
    const messages = this.#core.use(Messages)
    return this.#likedBy
      .all({ group: groupId, user: userId, limit: LIST_LIMIT })
      .map((row) => ({ ...messages.shape(row), liked_at: isoFromMicros(row.liked_at_us) }))
  }

  /** RX5: the caller's messages someone else reacted to, newest first. */
  forMe(groupId: number, userId: number): MessageJson[] {
    const messages = this.#core.use(Messages)
    return this.#forAuthor
      .all({ group: groupId, user: userId, author: String(userId), limit: LIST_LIMIT })
      .map((row) => messages.shape(row))
  }

  /**
   * The `favorite` push (§14.4) on the conversation channel, and on the author's `/user` channel
   * when the actor is someone else. Returns the message's entries after the change.
   */
  #announce(conversation: ConversationScope, message: MessageRow, actorId: number): ReactionEntry[] {
    const shaped = this.#core.use(Messages).shape(message)
    const now = this.#core.clock.now()
    const subject = {
      [conversation.kind === 'group' ? 'line' : 'direct_message']: { ...shaped, favorited_at: now },
      reactions: shaped.reactions,
      user_id: String(actorId)
    }
    const event = { type: 'favorite', alert: '', subject }
    this.#core.push.toChannel(this.#core.use(Messages).channelOf(conversation), event)
    if (message.sender_type === 'user' && message.sender_id !== String(actorId)) this.#core.push.toUsers([message.sender_id], event)
    return shaped.reactions
  }
}
