import type { Core } from '../core.js'
import { Conversations, type ConversationScope } from './conversations.js'
import { MessageIds } from './message-ids.js'
import { lineEvent, MessageShapes, type MessageJson } from './message-shapes.js'
import { MessageStore, type MessageRow, type SystemEvent } from './message-store.js'
import { randomHex } from './secrets.js'

/**
 * System messages (§14.5): what the service itself says in a conversation, from `System`. In a
 * group one is stored (listed, counted, previewed) or push-only; in a chat always push-only. They
 * reach people as `line.create` or `direct_message.create`, like any message.
 */

export class SystemMessages {
  readonly #core: Core

  constructor(core: Core) {
    this.#core = core
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
    this.#core.use(Conversations).pushToGroupMembers(groupId, message, alsoNotify)
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
    this.#core.use(Conversations).pushToGroupMembers(groupId, message)
    return message
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
