// An in-memory stand-in for the service's conversations and messages, for unit tests of core's
// logic: ids increase as on the real service (as decimal strings past 2^53, so nothing may treat
// them as numbers), pages are cut as the ports promise, and a test can make the next call of an
// operation fail with an AppError or answer late. Core's behaviour against the real service is
// tested in tests/integration/.
import { type ConversationId, compareIds, conversationKind } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import type { ErrorCode } from '@shared/window-api'
import { AppError } from '../app-error'
import { userMessageFor } from '../failures'
import type { ConversationService, ServiceGateway, TimelineService } from '../ports'

/** What the memory service answers: the conversation and message operations of the gateway. */
export type MessageService = ConversationService & TimelineService & Pick<ServiceGateway, 'sendMessage'>
export type Operation = keyof MessageService

export interface Call {
  operation: Operation
  args: unknown[]
}

interface Failure {
  code: ErrorCode
  /** The service did the work, and only its answer was lost on the way back. */
  afterEffect: boolean
}

interface StoredConversation {
  id: ConversationId
  name: string
  createdAt: number
  messages: Message[]
  counted: boolean
}

/** How long the service refuses a repeated source_guid, from the message that used it. */
const SOURCE_GUID_WINDOW_S = 60

export interface Writing {
  senderId: string
  text?: string
  /** Unix seconds; the service's clock when left out. */
  at?: number
  system?: boolean
  deleted?: boolean
  sourceGuid?: string
}

export class MemoryService implements MessageService {
  /** Every call, in the order made, with its arguments. */
  readonly calls: Call[] = []
  /** The service's clock, in Unix seconds: each message written without a time takes the next second. */
  now = 1_700_000_000
  /** Groups the user muted, as the service shows them in the list: muted, with no end time. */
  readonly mutedGroups = new Set<ConversationId>()
  readonly #me: { id: string; name: string }
  readonly #conversations = new Map<ConversationId, StoredConversation>()
  /** What becomes of the next calls of each operation, in order: a failure, or null to let one through. */
  readonly #failures = new Map<Operation, (Failure | null)[]>()
  readonly #holds = new Map<Operation, Promise<void>[]>()
  #lastId = 9_007_199_254_740_993n

  /** `me` is the signed-in user: what they send is stored as theirs. */
  constructor(me: { id: string; name: string }) {
    this.#me = me
  }

  /** `counted`: the list says how many messages it has, as the service's does. */
  addConversation(id: ConversationId, options: { name?: string; createdAt?: number; counted?: boolean } = {}): void {
    this.#conversations.set(id, { id, name: options.name ?? `Conversation ${id}`, createdAt: options.createdAt ?? this.now, messages: [], counted: options.counted === true })
  }

  /** Someone writes in a conversation, as the service would store it. */
  write(conversationId: ConversationId, writing: Writing): Message {
    const conversation = this.#conversation(conversationId)
    this.#lastId += 1n
    const message: Message = {
      id: this.#lastId.toString(),
      conversationId,
      sourceGuid: writing.sourceGuid ?? `guid-${this.#lastId}`,
      senderId: writing.senderId,
      senderName: writing.senderId === this.#me.id ? this.#me.name : `User ${writing.senderId}`,
      senderAvatarUrl: null,
      text: writing.text ?? `message ${this.#lastId}`,
      attachments: [],
      createdAt: writing.at ?? (this.now += 1),
      system: writing.system ?? false,
      aboutUserIds: [],
      deleted: writing.deleted ?? false
    }
    conversation.messages.push(message)
    return message
  }

  /** Several messages from `senderId`, one after another. */
  writeMany(conversationId: ConversationId, count: number, senderId: string): Message[] {
    return Array.from({ length: count }, () => this.write(conversationId, { senderId }))
  }

  /** The service's new copy of a message it holds (edited, reacted to, pinned, deleted): listed from now on. */
  replace(message: Message): void {
    const messages = this.#conversation(message.conversationId).messages
    const at = messages.findIndex((held) => held.id === message.id)
    if (at === -1) throw new Error(`no message ${message.id} to replace`)
    messages[at] = message
  }

  /** A message gone from the service altogether, tombstone and all, as a deployment's retention removes one. */
  remove(conversationId: ConversationId, messageId: string): void {
    const conversation = this.#conversation(conversationId)
    conversation.messages = conversation.messages.filter((message) => message.id !== messageId)
  }

  messagesIn(conversationId: ConversationId): Message[] {
    return [...this.#conversation(conversationId).messages]
  }

  /**
   * The next `times` calls of `operation` fail with `code`, once `after` calls have gone through;
   * with `afterEffect`, only once the service has done the work.
   */
  failNext(operation: Operation, code: ErrorCode, options: { times?: number; after?: number; afterEffect?: boolean } = {}): void {
    const queue = this.#failures.get(operation) ?? []
    for (let i = 0; i < (options.after ?? 0); i += 1) queue.push(null)
    for (let i = 0; i < (options.times ?? 1); i += 1) queue.push({ code, afterEffect: options.afterEffect ?? false })
    this.#failures.set(operation, queue)
  }

  /**
   * The next call of `operation` is answered as the service sees things at the time of the call,
   * but its answer arrives only when the returned function is called.
   */
  holdNext(operation: Operation): () => void {
    let release!: () => void
    const gate = new Promise<void>((resolve) => (release = resolve))
    this.#holds.set(operation, [...(this.#holds.get(operation) ?? []), gate])
    return release
  }

  callsOf(operation: Operation): unknown[][] {
    return this.calls.filter((call) => call.operation === operation).map((call) => call.args)
  }

  listConversations(): Promise<Conversation[]> {
    return this.#answer('listConversations', [], () =>
      [...this.#conversations.values()].map((stored) => {
        const last = stored.messages.at(-1)
        return {
          id: stored.id,
          kind: conversationKind(stored.id),
          name: stored.name,
          avatarUrl: null,
          lastActivityAt: last?.createdAt ?? stored.createdAt,
          lastMessageId: last?.id ?? null,
          preview: last ? { senderName: last.senderName, text: last.text, hasAttachments: false } : null,
          unreadCount: 0,
          mute: this.mutedGroups.has(stored.id) ? { until: null } : null,
          ...(stored.counted ? { messageCount: stored.messages.length } : {})
        }
      })
    )
  }

  latestMessages(conversationId: ConversationId, limit: number): Promise<Message[]> {
    return this.#answer('latestMessages', [conversationId, limit], () => this.#conversation(conversationId).messages.slice(-limit))
  }

  messagesBefore(conversationId: ConversationId, beforeId: string, limit: number): Promise<Message[]> {
    return this.#answer('messagesBefore', [conversationId, beforeId, limit], () =>
      this.#conversation(conversationId)
        .messages.filter((message) => compareIds(message.id, beforeId) < 0)
        .slice(-limit)
    )
  }

  messagesAfter(conversationId: ConversationId, afterId: string, limit: number): Promise<Message[]> {
    return this.#answer('messagesAfter', [conversationId, afterId, limit], () =>
      this.#conversation(conversationId)
        .messages.filter((message) => compareIds(message.id, afterId) > 0)
        .slice(0, limit)
    )
  }

  sendMessage(conversationId: ConversationId, text: string, sourceGuid: string): Promise<Message> {
    return this.#answer('sendMessage', [conversationId, text, sourceGuid], () => {
      // The service refuses a second message with the same source_guid (409), for 60 s from the first (§18 #24).
      const within = (message: Message): boolean => message.sourceGuid === sourceGuid && this.now - message.createdAt < SOURCE_GUID_WINDOW_S
      if (this.#conversation(conversationId).messages.some(within)) throw failure('CONFLICT')
      return this.write(conversationId, { senderId: this.#me.id, text, sourceGuid })
    })
  }

  async #answer<T>(operation: Operation, args: unknown[], answer: () => T): Promise<T> {
    this.calls.push({ operation, args })
    const planned = this.#failures.get(operation)?.shift()
    if (planned && !planned.afterEffect) throw failure(planned.code)
    const result = answer()
    const gate = this.#holds.get(operation)?.shift()
    if (gate) await gate
    if (planned) throw failure(planned.code)
    return result
  }

  #conversation(conversationId: ConversationId): StoredConversation {
    const conversation = this.#conversations.get(conversationId)
    if (!conversation) throw failure('NOT_FOUND')
    return conversation
  }
}

/** A failure as the service connection reports it. */
export function failure(code: ErrorCode): AppError {
  return new AppError(code, userMessageFor(code))
}
