import type { Core } from '../core.js'
import { badRequest, forbidden } from '../http/errors.js'
import { Accounts, type Account } from './accounts.js'
import { Conversations, type ConversationScope } from './conversations.js'
import type { VisibleGroup } from './groups.js'
import { Memberships } from './memberships.js'
import { MessageContent, type Attachment, type Content, type ContentEdit } from './message-content.js'
import { MessageIds } from './message-ids.js'
import { MessageReactions } from './message-reactions.js'
import { MessageShapes, type MessageJson } from './message-shapes.js'
import { MessageStore, type MessageRow } from './message-store.js'
import { SystemMessages } from './system-messages.js'

/**
 * What a user does with a message of a group or DM: send one to a group (MS2), edit (MS4, C4),
 * delete (MS5) and pin or unpin it (MS6, MS7), with the rules for who may, the pushes and the
 * system messages each one emits (§14.5). C3 sends DMs from `chats.ts`.
 */

/** MS4 / C4: edits are allowed up to 15 minutes after `created_at` (`message_edit_period`). */
export const EDIT_PERIOD_SECONDS = 15 * 60

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
    this.#core.use(Conversations).pushToGroupMembers(group.id, message)
    return message
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
    this.#core.push.toChannel(this.#core.use(Conversations).channelOf(scope), { type: 'message.update', alert: '', subject: message })
    this.#core.use(SystemMessages).pushSystemMessage(scope, 'A message was edited.', {
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
    this.#core.push.toChannel(this.#core.use(Conversations).channelOf(scope), { type: 'message.deleted', alert: '', subject: tombstone })
    this.#core.use(SystemMessages).pushSystemMessage(scope, 'A message was deleted.', {
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
    const systemMessages = this.#core.use(SystemMessages)
    if (scope.kind === 'group') systemMessages.postGroupSystemMessage(scope.group.id, textValue, event)
    else systemMessages.pushChatSystemMessage(scope, textValue, event)
  }
}

/** The PL1 message: edits are refused (§10 MS4). */
function isPollMessage(row: MessageRow): boolean {
  return (JSON.parse(row.attachments) as Attachment[]).some((a) => a.type === 'poll')
}
