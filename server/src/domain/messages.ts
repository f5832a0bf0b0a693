import type { Core } from '../core.js'
import { badRequest, forbidden, notFound } from '../http/errors.js'
import { directMessageChannel, groupChannel } from '../push/channels.js'
import { Accounts, type Account } from './accounts.js'
import { parseChatId } from './chats.js'
import type { GroupRow } from './group-row.js'
import { Groups, type VisibleGroup } from './groups.js'
import { Memberships, type MembershipRow } from './memberships.js'
import { MessageContent, type Attachment, type Content, type ContentEdit } from './message-content.js'
import { MessageIds } from './message-ids.js'
import { MessageReactions } from './message-reactions.js'
import { lineEvent, MessageShapes, type MessageJson } from './message-shapes.js'
import { MessageStore, type ConversationKey, type MessageRow, type SystemEvent } from './message-store.js'
import { randomHex } from './secrets.js'

/**
 * Messages of groups and DMs: sending to a group (MS2), editing, deleting and pinning (MS4–MS7,
 * C4), the conversations they are addressed by, system messages (§14.5) and the `line.create`
 * fan-out.
 */

/** MS4 / C4: edits are allowed up to 15 minutes after `created_at` (`message_edit_period`). */
export const EDIT_PERIOD_SECONDS = 15 * 60

/**
 * A conversation the caller may act in (§2.5 step 5 passed): a group they are a member of, or a
 * chat they are one of the pair of (the other user exists). `key` is its `ConversationKey`.
 */
export type ConversationScope =
  | { kind: 'group'; group: GroupRow; membership: MembershipRow; key: ConversationKey }
  | { kind: 'chat'; chatId: string; lo: number; hi: number; key: ConversationKey }

export class Messages {
  readonly #core: Core

  constructor(core: Core) {
    this.#core = core
  }

  /** MS2: stores the message and pushes `line.create` to every member, sender included. */
  sendToGroup(visible: VisibleGroup, sender: Account, guid: string, content: Content): MessageJson {
    const { group, membership } = visible
    const row = this.#core.transaction(() =>
      this.#core.use(MessageStore).insert({
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
    const message = this.#core.use(MessageShapes).shape(row)
    this.pushToGroupMembers(group.id, message)
    return message
  }

  /**
   * A system message in a group (§14.5): stored (listed, counted, previewed) and pushed as
   * `line.create` to the current members plus `alsoNotify` (e.g. the user who left).
   */
  postGroupSystemMessage(groupId: number, textValue: string, event: SystemEvent, alsoNotify: number[] = []): MessageJson {
    const row = this.#core.use(MessageStore).insert({
      ...systemFields(textValue, event),
      id: this.#core.use(MessageIds).next(),
      group_id: groupId,
      chat_id: null,
      recipient_id: null,
      created_at: this.#core.clock.now()
    })
    const message = this.#core.use(MessageShapes).shape(row)
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
    const message = this.#core.use(MessageShapes).shape(row)
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
      this.#core.push.toUsers([userId], lineEvent('direct_message.create', this.#core.use(MessageShapes).shape(row)))
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
    const content = this.#core.use(MessageContent).normalize({
      text: change.text ?? row.text,
      attachments: change.attachments ?? (JSON.parse(row.attachments) as Attachment[])
    })
    const store = this.#core.use(MessageStore)
    store.writeContent(row.id, content, now)
    const message = this.#core.use(MessageShapes).shape(store.reload(row.id))
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
    const store = this.#core.use(MessageStore)
    this.#core.transaction(() => {
      store.tombstone(row.id, at, actor)
      this.#core.use(MessageReactions).clear(row.id)
    })
    const tombstone = this.#core.use(MessageShapes).shape(store.reload(row.id))
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
    const store = this.#core.use(MessageStore)
    if (pinned) store.pin(row.id, now, by)
    else store.unpin(row.id)
    const actorName = scope.kind === 'group' ? scope.membership.nickname : (this.#core.use(Accounts).byId(callerId)?.name ?? 'Someone')
    const textValue = `${actorName} ${pinned ? 'pinned' : 'unpinned'} a message.`
    const event = { type: 'message.pinned', data: { message_id: row.id, pinned, pinned_at: now, pinned_by: by } }
    if (scope.kind === 'group') this.postGroupSystemMessage(scope.group.id, textValue, event)
    else this.pushChatSystemMessage(scope, textValue, event)
  }
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
