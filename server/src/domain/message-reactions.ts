import type { Statement } from 'better-sqlite3-multiple-ciphers'
import { z } from 'zod'
import { isoFromMicros } from '../clock.js'
import type { Core } from '../core.js'

/**
 * The reactions on each message (§12): what a reaction is, one per user per message, and the
 * entries that keep their order of first appearance while they have users. Every shaped message
 * reads its reactions here; RX1–RX5 and the `favorite` push are in `reactions.ts`.
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

interface ReactionRow {
  id: number
  message_id: string
  user_id: number
  reaction: string
  liked_at_us: number
}

export class MessageReactions {
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

  /** The user's reaction to a message, replacing an earlier different one; the same one again changes nothing. */
  set(messageId: string, userId: number, reaction: Reaction): void {
    const key = reactionKey(reaction)
    this.#core.transaction(() => {
      const current = this.#mine.get(messageId, userId)
      if (current?.reaction === key) return
      if (current !== undefined) this.#removeReaction(current)
      const inserted = this.#insert.run({ message: messageId, user: userId, reaction: key, at: this.#core.clock.nowMicros() })
      this.#openEntry.run(messageId, key, inserted.lastInsertRowid)
    })
  }

  /** Removes the user's reaction to a message; no change if there was none. */
  remove(messageId: string, userId: number): void {
    this.#core.transaction(() => {
      const current = this.#mine.get(messageId, userId)
      if (current !== undefined) this.#removeReaction(current)
    })
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
}
