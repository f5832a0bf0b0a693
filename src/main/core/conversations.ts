// The conversation list: groups and direct messages together, newest activity first, each with
// its last message and how many messages arrived since the user last looked. The service keeps no
// read state, so "last looked" is the newest message id seen, kept per conversation on this device.
import type { Conversation, ConversationId, Message } from '../../shared/domain'
import { compareIds } from '../../shared/conversation-id'
import type { ConversationService, Preferences } from './ports'

export interface ConversationsDependencies {
  service: ConversationService
  preferences: Preferences
  changed(conversations: Conversation[]): void
}

/** Beyond this many, the badge reads "100+" rather than costing more requests. */
export const UNREAD_COUNT_CAP = 100

/** Read up to here: nothing yet, as every message id is greater. */
const BEFORE_ANY_MESSAGE = '0'

export class Conversations {
  readonly #deps: ConversationsDependencies
  #byId = new Map<ConversationId, Conversation>()
  #meId: string | null = null
  #refreshes = 0

  constructor(deps: ConversationsDependencies) {
    this.#deps = deps
  }

  list(): Conversation[] {
    return [...this.#byId.values()].sort(
      (a, b) => b.lastActivityAt - a.lastActivityAt || compareIds(b.lastMessageId ?? b.id, a.lastMessageId ?? a.id)
    )
  }

  get(conversationId: ConversationId): Conversation | undefined {
    return this.#byId.get(conversationId)
  }

  /** Fetches the list again and recounts what is unread; call on sign-in and after every reconnect. */
  async refresh(meId: string): Promise<Conversation[]> {
    this.#meId = meId
    const firstLook = this.#readState() === undefined
    const generation = ++this.#refreshes
    const fetched = await this.#deps.service.listConversations()
    const counted = await Promise.all(fetched.map((conversation) => this.#withUnreadCount(conversation, meId, firstLook)))
    // Overlapping refreshes (sign-in and the first push connect, say) may answer out of order:
    // only the latest one started is allowed to replace the list.
    if (generation !== this.#refreshes || this.#meId !== meId) return this.list()
    if (firstLook && this.#readState() === undefined) this.#saveReadState({})
    this.#byId = new Map(counted.map((conversation) => [conversation.id, this.#newerOf(conversation, this.#byId.get(conversation.id))]))
    this.#announce()
    return this.list()
  }

  /**
   * A message arrived (pushed, caught up, or our own accepted). Returns false when the list
   * already knew it, so a message seen twice is never counted twice.
   */
  record(message: Message, options: { read: boolean }): boolean {
    const conversation = this.#byId.get(message.conversationId)
    if (!conversation) return false
    if (conversation.lastMessageId !== null && compareIds(message.id, conversation.lastMessageId) <= 0) return false
    const countsAsUnread = !options.read && this.#countsAsUnread(message)
    this.#byId.set(conversation.id, {
      ...conversation,
      lastActivityAt: Math.max(conversation.lastActivityAt, message.createdAt),
      lastMessageId: message.id,
      preview: { senderName: message.senderName, text: message.text, hasAttachments: message.attachments.length > 0 },
      unreadCount: countsAsUnread ? Math.min(conversation.unreadCount + 1, UNREAD_COUNT_CAP) : conversation.unreadCount
    })
    if (options.read) this.#rememberRead(conversation.id, message.id)
    this.#announce()
    return true
  }

  /** The user is looking at this conversation: everything in it up to its newest message is read. */
  markRead(conversationId: ConversationId): void {
    const conversation = this.#byId.get(conversationId)
    if (!conversation) return
    if (conversation.lastMessageId !== null) this.#rememberRead(conversationId, conversation.lastMessageId)
    if (conversation.unreadCount === 0) return
    this.#byId.set(conversationId, { ...conversation, unreadCount: 0 })
    this.#announce()
  }

  clear(): void {
    this.#byId.clear()
    this.#meId = null
    this.#announce()
  }

  async #withUnreadCount(conversation: Conversation, meId: string, firstLook: boolean): Promise<Conversation> {
    const lastRead = this.#readState()?.[conversation.id]
    if (conversation.lastMessageId === null) {
      // Seen while empty: whatever is written in it from now on is news, in a group as in a chat,
      // so it must not look like one the user is yet to be shown the history of.
      if (lastRead === undefined) this.#rememberRead(conversation.id, BEFORE_ANY_MESSAGE)
      return { ...conversation, unreadCount: 0 }
    }
    if (lastRead === undefined && (firstLook || conversation.kind === 'group')) {
      // History this device never showed is not news: on the first sign-in here, and in a group
      // the user was just added to. A new direct chat, though, is someone writing to them.
      this.#rememberRead(conversation.id, conversation.lastMessageId)
      return { ...conversation, unreadCount: 0 }
    }
    if (lastRead !== undefined && compareIds(conversation.lastMessageId, lastRead) <= 0) return { ...conversation, unreadCount: 0 }
    const newer = await this.#deps.service.messagesAfter(conversation.id, lastRead ?? BEFORE_ANY_MESSAGE, UNREAD_COUNT_CAP)
    const unreadCount = newer.filter((message) => message.senderId !== meId && this.#countsAsUnread(message)).length
    return { ...conversation, unreadCount }
  }

  /** A message recorded while the list was being fetched is newer than what the fetch saw. */
  #newerOf(fetched: Conversation, known: Conversation | undefined): Conversation {
    if (known?.lastMessageId == null) return fetched
    if (fetched.lastMessageId !== null && compareIds(fetched.lastMessageId, known.lastMessageId) >= 0) return fetched
    const { lastActivityAt, lastMessageId, preview, unreadCount } = known
    return { ...fetched, lastActivityAt, lastMessageId, preview, unreadCount }
  }

  #countsAsUnread(message: Message): boolean {
    return message.senderId !== this.#meId && !message.system && !message.deleted
  }

  #rememberRead(conversationId: ConversationId, messageId: string): void {
    const lastRead = this.#readState() ?? {}
    const previous = lastRead[conversationId]
    if (previous !== undefined && compareIds(previous, messageId) >= 0) return
    this.#saveReadState({ ...lastRead, [conversationId]: messageId })
  }

  /** What this account has read on this device; undefined before its first sign-in here. */
  #readState(): Record<ConversationId, string> | undefined {
    return this.#meId === null ? undefined : this.#deps.preferences.get('lastRead')?.[this.#meId]
  }

  #saveReadState(readState: Record<ConversationId, string>): void {
    if (this.#meId === null) return
    this.#deps.preferences.set('lastRead', { ...this.#deps.preferences.get('lastRead'), [this.#meId]: readState })
  }

  #announce(): void {
    this.#deps.changed(this.list())
  }
}
