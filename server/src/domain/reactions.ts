import type { Statement } from 'better-sqlite3-multiple-ciphers'
import { isoFromMicros } from '../clock.js'
import type { Core } from '../core.js'
import { Conversations, type ConversationScope } from './conversations.js'
import { MessageReactions, reactionSchema, type Reaction, type ReactionEntry } from './message-reactions.js'
import { MessageShapes, type MessageJson } from './message-shapes.js'
import type { MessageRow } from './message-store.js'

/**
 * RX1–RX5 (§12): reacting to a message in a group or chat with the conversation's default
 * reaction or a chosen one, the `favorite` push (§14.4), and the group likes lists. What a
 * reaction is and how a message's reactions are stored is in `message-reactions.ts`.
 */

export const HEART = { type: 'unicode', code: '\u2764\uFE0F' } as const

/** A stored group `like_icon` as a reaction, or null when unset or not a valid reaction. */
export function reactionFromJson(json: string | null): Reaction | null {
  if (json === null) return null
  const parsed = reactionSchema.safeParse(JSON.parse(json))
  return parsed.success ? parsed.data : null
}

export type LikesPeriod = 'day' | 'week' | 'month'

const PERIOD_SECONDS: Record<LikesPeriod, number> = { day: 86_400, week: 604_800, month: 2_592_000 }
const LIST_LIMIT = 100

export class Reactions {
  readonly #core: Core
  readonly #popular: Statement<[{ group: number; since: number; limit: number }], MessageRow>
  readonly #likedBy: Statement<[{ group: number; user: number; limit: number }], MessageRow & { liked_at_us: number }>
  readonly #forAuthor: Statement<[{ group: number; user: number; author: string; limit: number }], MessageRow>

  constructor(core: Core) {
    this.#core = core
    const db = core.db
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
   * RX1: sets the caller's reaction (`null` = the conversation's default), replacing an earlier
   * different one; the same one again changes nothing.
   */
  like(conversation: ConversationScope, message: MessageRow, userId: number, requested: Reaction | null): ReactionEntry[] {
    this.#core.use(MessageReactions).set(message.id, userId, requested ?? this.defaultReaction(conversation))
    return this.#announce(conversation, message, userId)
  }

  /** RX2: removes the caller's reaction; no change if there was none. */
  unlike(conversation: ConversationScope, message: MessageRow, userId: number): ReactionEntry[] {
    this.#core.use(MessageReactions).remove(message.id, userId)
    return this.#announce(conversation, message, userId)
  }

  /** §12 default: the group's `like_icon` if set, else ❤️; in DMs always ❤️. */
  defaultReaction(conversation: ConversationScope): Reaction {
    if (conversation.kind === 'chat') return HEART
    return reactionFromJson(conversation.group.like_icon) ?? HEART
  }

  /** RX3: messages created in the period with ≥ 1 reaction, most reactions first. */
  popular(groupId: number, period: LikesPeriod): MessageJson[] {
    const since = this.#core.clock.now() - PERIOD_SECONDS[period]
    const shapes = this.#core.use(MessageShapes)
    return this.#popular.all({ group: groupId, since, limit: LIST_LIMIT }).map((row) => shapes.shape(row))
  }

  /** RX4: what the caller reacted to, latest reaction first, each with `liked_at`. */
  mine(groupId: number, userId: number): (MessageJson & { liked_at: string })[] {
    const shapes = this.#core.use(MessageShapes)
    return this.#likedBy
      .all({ group: groupId, user: userId, limit: LIST_LIMIT })
      .map((row) => ({ ...shapes.shape(row), liked_at: isoFromMicros(row.liked_at_us) }))
  }

  /** RX5: the caller's messages someone else reacted to, newest first. */
  forMe(groupId: number, userId: number): MessageJson[] {
    const shapes = this.#core.use(MessageShapes)
    return this.#forAuthor
      .all({ group: groupId, user: userId, author: String(userId), limit: LIST_LIMIT })
      .map((row) => shapes.shape(row))
  }

  /**
   * The `favorite` push (§14.4) on the conversation channel, and on the author's `/user` channel
   * when the actor is someone else. Returns the message's entries after the change.
   */
  #announce(conversation: ConversationScope, message: MessageRow, actorId: number): ReactionEntry[] {
    const shaped = this.#core.use(MessageShapes).shape(message)
    const now = this.#core.clock.now()
    const subject = {
      [conversation.kind === 'group' ? 'line' : 'direct_message']: { ...shaped, favorited_at: now },
      reactions: shaped.reactions,
      user_id: String(actorId)
    }
    const event = { type: 'favorite', alert: '', subject }
    this.#core.push.toChannel(this.#core.use(Conversations).channelOf(conversation), event)
    if (message.sender_type === 'user' && message.sender_id !== String(actorId)) this.#core.push.toUsers([message.sender_id], event)
    return shaped.reactions
  }
}
