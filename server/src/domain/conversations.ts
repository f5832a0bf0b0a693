import type { Core } from '../core.js'
import { notFound } from '../http/errors.js'
import { directMessageChannel, groupChannel } from '../push/channels.js'
import { Accounts } from './accounts.js'
import { parseChatId } from './chats.js'
import type { GroupRow } from './group-row.js'
import { Groups, type VisibleGroup } from './groups.js'
import { Memberships, type MembershipRow } from './memberships.js'
import { lineEvent, type MessageJson } from './message-shapes.js'
import { MessageStore, type ConversationKey, type MessageRow } from './message-store.js'

/**
 * The conversation a call is about (§2.5 step 5): a group or a chat addressed by id, whether the
 * caller is in it, which of its messages a path names, and who hears what happens in it.
 */

/**
 * A conversation the caller may act in (§2.5 step 5 passed): a group they are a member of, or a
 * chat they are one of the pair of (the other user exists). `key` is its `ConversationKey`.
 */
export type ConversationScope =
  | { kind: 'group'; group: GroupRow; membership: MembershipRow; key: ConversationKey }
  | { kind: 'chat'; chatId: string; lo: number; hi: number; key: ConversationKey }

export class Conversations {
  readonly #core: Core

  constructor(core: Core) {
    this.#core = core
  }

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
    const row = messageId !== undefined && /^[1-9][0-9]{17}$/.test(messageId) ? this.#core.use(MessageStore).byId(messageId) : undefined
    const inside =
      row !== undefined && (scope.kind === 'group' ? row.group_id === scope.group.id : row.chat_id === scope.chatId)
    if (!inside || (row.deleted_at_us !== null && options.allowDeleted !== true)) throw notFound('Message not found')
    return row
  }

  /** The channel a conversation's `favorite`, `message.update` and `message.deleted` go on. */
  channelOf(scope: ConversationScope): string {
    return scope.kind === 'group' ? groupChannel(scope.group.id) : directMessageChannel(scope.lo, scope.hi)
  }

  /** A new message of a group as `line.create` to every current member, plus `alsoNotify`. */
  pushToGroupMembers(groupId: number, message: MessageJson, alsoNotify: number[] = []): void {
    const members = this.#core.use(Memberships).activeUserIds(groupId)
    this.#core.push.toUsers([...members, ...alsoNotify], lineEvent('line.create', message))
  }
}
