// The conversation list: groups and direct messages together, newest activity first, each with
// its last message and how many messages arrived since the user last looked. The service keeps no
// read state, so "last looked" is the newest message id seen, kept per conversation on this device.
import { type ConversationId, compareIds, conversationKind, otherParticipant } from '@shared/conversation-id'
import { previewOf, type Conversation } from '@shared/conversations'
import type { Message, PendingMessage } from '@shared/messages'
import type { Mute } from '@shared/attention'
import type { Person } from '@shared/people'
import { AppError } from './app-error'
import { groupMute, inForce } from './mute'
import type { ConversationService, Preferences } from './ports'

export interface ConversationsDependencies {
  service: ConversationService
  preferences: Preferences
  /** Unix milliseconds: a conversation's mute ends on time. */
  now: () => number
  changed(conversations: Conversation[]): void
}

/** What `updateGroup` may change in a group's entry. */
export type GroupEntryChanges = Partial<Pick<Conversation, 'name' | 'avatarUrl'>> & {
  [K in 'groupType' | 'deletionMode' | 'myNickname' | 'myRole' | 'joinRequestCount']?: Conversation[K] | undefined
}

/** Beyond this many, the badge reads "100+" rather than costing more requests. */
export const UNREAD_COUNT_CAP = 100

/** setTimeout's longest delay; a later mute end is reached in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1

/** Read up to here: nothing yet, as every message id is greater. */
const BEFORE_ANY_MESSAGE = '0'

/** What the service's list previews a deleted message as (its tombstone's text). */
const DELETED_PREVIEW = 'This message was deleted'

export class Conversations {
  readonly #deps: ConversationsDependencies
  #byId = new Map<ConversationId, Conversation>()
  #meId: string | null = null
  #refreshes = 0
  #muteEndTimer: ReturnType<typeof setTimeout> | null = null
  /** Per conversation, the latest refresh started when its mute was last set here: a refresh started before knows an older mute. */
  readonly #muteSetDuring = new Map<ConversationId, number>()
  /**
   * Chats the user has started but not yet written in (the service knows a chat only from its
   * first message): found by `get`, so they can be opened and sent in, but listed only while
   * they hold messages not sent yet.
   */
  readonly #drafts = new Map<ConversationId, Conversation>()
  /**
   * Per conversation with messages in the outbox, when the first of them was written (Unix ms).
   * It mirrors the outbox, which outlives a sign-out, so it is not forgotten on `clear`.
   */
  readonly #unsentSince = new Map<ConversationId, number>()
  /** Per draft that became a listed chat, the latest refresh started by then: a refresh started before has not seen it. */
  readonly #listedDuring = new Map<ConversationId, number>()

  constructor(deps: ConversationsDependencies) {
    this.#deps = deps
  }

  list(): Conversation[] {
    // A draft with a message waiting or refused is listed, so that message can be found again.
    const draftsWithUnsent = [...this.#drafts.values()].filter((draft) => this.#unsentSince.has(draft.id))
    return [...this.#byId.values(), ...draftsWithUnsent].map((conversation) => this.#withMuteInForce(conversation)).sort(
      (a, b) => b.lastActivityAt - a.lastActivityAt || compareIds(b.lastMessageId ?? b.id, a.lastMessageId ?? a.id)
    )
  }

  get(conversationId: ConversationId): Conversation | undefined {
    const conversation = this.#byId.get(conversationId) ?? this.#drafts.get(conversationId)
    return conversation === undefined ? undefined : this.#withMuteInForce(conversation)
  }

  /** The conversation, as `get`; throws NOT_FOUND, in the user's words, when it is not in the list. */
  listed(conversationId: ConversationId): Conversation {
    const conversation = this.get(conversationId)
    if (conversation === undefined) throw new AppError('NOT_FOUND', 'That conversation is not in your list any more.')
    return conversation
  }

  /**
   * A chat the user starts: kept as a draft, known to `get` but left out of `list` until it holds
   * an unsent message, its first message is recorded, or a refresh lists it. Answers the conversation already known under its
   * id, if any, instead.
   */
  addDraft(chat: Conversation): Conversation {
    const known = this.get(chat.id)
    if (known !== undefined) return known
    this.#drafts.set(chat.id, chat)
    if (this.#unsentSince.has(chat.id)) this.#announce()
    return chat
  }

  /** The outbox's messages in this conversation changed: a draft is listed while it holds any. */
  unsentChanged(conversationId: ConversationId, pending: PendingMessage[]): void {
    const wasListed = this.#drafts.has(conversationId) && this.#unsentSince.has(conversationId)
    if (pending.length === 0) this.#unsentSince.delete(conversationId)
    else this.#unsentSince.set(conversationId, Math.min(...pending.map((message) => message.queuedAt)))
    const isListed = this.#drafts.has(conversationId) && this.#unsentSince.has(conversationId)
    if (wasListed !== isListed) this.#announce()
  }

  /**
   * Chats started on an earlier run (or before a sign-out) that the service does not know yet,
   * since their first message never went: drafts again, listed with their unsent messages.
   * Named by `whoIs` (U3), or by the other person's id when that fails. Call after `refresh`.
   */
  async restoreDrafts(whoIs: (userId: string) => Promise<Person>): Promise<void> {
    const meId = this.#meId
    if (meId === null) return
    const unknown = [...this.#unsentSince.keys()].filter(
      (id) => conversationKind(id) === 'dm' && id.split('+').includes(meId) && this.get(id) === undefined
    )
    const people = await Promise.all(
      unknown.map(async (id): Promise<Person> => {
        const userId = otherParticipant(id, meId)
        try {
          return await whoIs(userId)
        } catch {
          return { id: userId, name: userId, avatarUrl: null }
        }
      })
    )
    if (this.#meId !== meId) return
    let restored = 0
    unknown.forEach((id, index) => {
      const person = people[index]
      const since = this.#unsentSince.get(id)
      // Listed, started again or sent meanwhile: what is known now stands.
      if (person === undefined || since === undefined || this.get(id) !== undefined) return
      this.#drafts.set(id, {
        id,
        kind: 'dm',
        name: person.name,
        avatarUrl: person.avatarUrl,
        lastActivityAt: Math.floor(since / 1000),
        lastMessageId: null,
        preview: null,
        unreadCount: 0,
        mute: null
      })
      restored++
    })
    if (restored > 0) this.#announce()
  }

  /** What the badge counts: unread messages in conversations that are not muted. */
  badgeCount(): number {
    return this.list().reduce((sum, conversation) => sum + (conversation.mute === null ? conversation.unreadCount : 0), 0)
  }

  /**
   * The conversation's mute is now this (null: unmuted). A chat's mute is kept on this device; a
   * group's lives on the service, which the caller has already told, and only its end is kept here.
   */
  setMute(conversationId: ConversationId, mute: Mute | null): Conversation | undefined {
    const conversation = this.#byId.get(conversationId)
    if (!conversation) return undefined
    if (conversation.kind === 'dm') this.#saveChatMute(conversationId, mute)
    else this.#saveGroupMuteEnd(conversationId, mute?.until ?? null)
    this.#muteSetDuring.set(conversationId, this.#refreshes)
    this.#byId.set(conversationId, { ...conversation, mute })
    this.#announce()
    return this.get(conversationId)
  }

  /**
   * A group's entry as the user just changed it: settings the service announces to nobody (§14.5),
   * the user's own nickname, the requests still waiting. The list shows it at once; an `undefined`
   * value takes that field away. Answers the entry, or undefined for a group not in the list.
   */
  updateGroup(groupId: ConversationId, changes: GroupEntryChanges): Conversation | undefined {
    const conversation = this.#byId.get(groupId)
    if (conversation?.kind !== 'group') return undefined
    const given = Object.entries(changes).filter(([, value]) => value !== undefined)
    const cleared = new Set(Object.keys(changes).filter((key) => changes[key as keyof GroupEntryChanges] === undefined))
    const kept = Object.entries(conversation).filter(([key]) => !cleared.has(key))
    this.#byId.set(groupId, Object.fromEntries([...kept, ...given]) as unknown as Conversation)
    this.#announce()
    return this.get(groupId)
  }

  /**
   * The list as this device kept it, shown until the service's comes: ignored once a list is
   * shown, since whatever the service answered is newer.
   */
  showKept(kept: Conversation[]): void {
    if (this.#byId.size > 0 || kept.length === 0) return
    this.#byId = new Map(kept.map((conversation) => [conversation.id, conversation]))
    this.#announce()
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
    // A draft written in while the list was on its way is newer than the list: it stays listed.
    const listedSince = [...this.#byId.values()].filter(
      (known) => (this.#listedDuring.get(known.id) ?? -1) >= generation && !fetched.some((conversation) => conversation.id === known.id)
    )
    if (firstLook && this.#readState() === undefined) this.#saveReadState({})
    const chatMutes = this.#chatMutes()
    const groupMuteEnds = this.#groupMuteEnds()
    const withMutes = counted.map((conversation) => {
      const known = this.#byId.get(conversation.id)
      // Muted or unmuted here while the list was on its way: the list tells of the mute before.
      if (known !== undefined && (this.#muteSetDuring.get(conversation.id) ?? -1) >= generation) return { ...conversation, mute: known.mute }
      if (conversation.kind === 'dm') return { ...conversation, mute: chatMutes[conversation.id] ?? null }
      return { ...conversation, mute: groupMute(conversation.mute !== null, groupMuteEnds[conversation.id], this.#deps.now()) }
    })
    // Ends of mutes the service no longer has (unmuted or ended elsewhere, or the group is gone) are forgotten.
    const endsStillMeant: Record<ConversationId, number> = {}
    for (const { id, kind, mute } of withMutes) if (kind === 'group' && typeof mute?.until === 'number') endsStillMeant[id] = mute.until
    this.#saveGroupMuteEnds(endsStillMeant)
    this.#byId = new Map([
      ...withMutes.map((conversation): [ConversationId, Conversation] => [conversation.id, this.#newerOf(conversation, this.#byId.get(conversation.id))]),
      ...listedSince.map((conversation): [ConversationId, Conversation] => [conversation.id, conversation])
    ])
    for (const id of this.#byId.keys()) this.#drafts.delete(id)
    for (const { id } of fetched) this.#listedDuring.delete(id)
    this.#announce()
    return this.list()
  }

  /**
   * A message arrived (pushed, caught up, or our own accepted). Returns false when the list
   * already knew it, so a message seen twice is never counted twice.
   */
  /** Whether `record` would take this message as the conversation's newest. */
  isNewest(message: Message): boolean {
    const conversation = this.get(message.conversationId)
    return conversation !== undefined && (conversation.lastMessageId === null || compareIds(message.id, conversation.lastMessageId) > 0)
  }

  record(message: Message, options: { read: boolean }): boolean {
    this.#listDraft(message.conversationId)
    const conversation = this.#byId.get(message.conversationId)
    if (!conversation || !this.isNewest(message)) return false
    const countsAsUnread = !options.read && this.#countsAsUnread(message)
    this.#byId.set(conversation.id, {
      ...conversation,
      lastActivityAt: Math.max(conversation.lastActivityAt, message.createdAt),
      lastMessageId: message.id,
      preview: previewOf(message.senderName, message.text, message.attachments),
      unreadCount: countsAsUnread ? Math.min(conversation.unreadCount + 1, UNREAD_COUNT_CAP) : conversation.unreadCount,
      // The service's count was of the messages before this one: the history's positions count it too.
      ...(conversation.messageCount === undefined ? {} : { messageCount: conversation.messageCount + 1 })
    })
    if (options.read) this.#rememberRead(conversation.id, message.id)
    this.#announce()
    return true
  }

  /**
   * The service's new copy of a message (edited or deleted, by push or found on reading it again):
   * when it is the conversation's newest, the preview says what it says now, as the service's list
   * would. A deleted one reads as the service's own tombstone text.
   */
  replaced(message: Message): void {
    const conversation = this.#byId.get(message.conversationId)
    if (conversation === undefined || conversation.lastMessageId !== message.id) return
    const preview = previewOf(message.senderName, message.deleted ? DELETED_PREVIEW : message.text, message.deleted ? [] : message.attachments)
    const shown = conversation.preview
    if (
      shown !== null &&
      shown.senderName === preview.senderName &&
      shown.text === preview.text &&
      shown.hasAttachments === preview.hasAttachments &&
      shown.attachmentKind === preview.attachmentKind
    )
      return
    this.#byId.set(conversation.id, { ...conversation, preview })
    this.#announce()
  }

  /**
   * The oldest message the user has not seen yet, where the history shows its "New messages"
   * divider. Call before `markRead`. Looks in `loaded` (the newest page) first, and only when
   * everything there is unread, so the divider may lie further back, in what `readAfter` reads
   * (the service's history by default; this device's store first, given one).
   */
  async firstUnreadId(
    conversationId: ConversationId,
    loaded: Message[],
    readAfter: (afterId: string, limit: number) => Promise<Message[]> = (afterId, limit) => this.#deps.service.messagesAfter(conversationId, afterId, limit)
  ): Promise<string | null> {
    const conversation = this.#byId.get(conversationId)
    const lastRead = this.#readState()?.[conversationId]
    if (conversation === undefined || lastRead === undefined || conversation.unreadCount === 0) return null
    const oldestLoaded = loaded[0]
    const candidates =
      oldestLoaded !== undefined && compareIds(oldestLoaded.id, lastRead) <= 0
        ? loaded
        : await readAfter(lastRead, UNREAD_COUNT_CAP)
    return candidates.find((message) => compareIds(message.id, lastRead) > 0 && this.#countsAsUnread(message))?.id ?? null
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

  /** A group that is gone for the user (deleted, or they are out of it) leaves the list now, ahead of the next fetch. */
  forget(conversationId: ConversationId): void {
    if (!this.#byId.delete(conversationId)) return
    this.#announce()
  }

  clear(): void {
    this.#byId.clear()
    this.#drafts.clear()
    this.#listedDuring.clear()
    this.#muteSetDuring.clear()
    this.#meId = null
    this.#announce()
  }

  /** The computer woke: a conversation's mute may have ended while timers slept. */
  resumed(): void {
    this.#announce()
  }

  stop(): void {
    if (this.#muteEndTimer !== null) clearTimeout(this.#muteEndTimer)
    this.#muteEndTimer = null
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

  /** A draft's first message makes it a chat like any other: listed from now on. */
  #listDraft(conversationId: ConversationId): void {
    const draft = this.#drafts.get(conversationId)
    if (draft === undefined) return
    this.#drafts.delete(conversationId)
    this.#byId.set(conversationId, draft)
    this.#listedDuring.set(conversationId, this.#refreshes)
  }

  /** A message recorded while the list was being fetched is newer than what the fetch saw. */
  #newerOf(fetched: Conversation, known: Conversation | undefined): Conversation {
    if (known?.lastMessageId == null) return fetched
    if (fetched.lastMessageId !== null && compareIds(fetched.lastMessageId, known.lastMessageId) >= 0) return fetched
    const { lastActivityAt, lastMessageId, preview, unreadCount, messageCount } = known
    return { ...fetched, lastActivityAt, lastMessageId, preview, unreadCount, ...(messageCount === undefined ? {} : { messageCount }) }
  }

  #withMuteInForce(conversation: Conversation): Conversation {
    const mute = inForce(conversation.mute, this.#deps.now())
    return mute === conversation.mute ? conversation : { ...conversation, mute }
  }

  /** This account's chat mutes on this device. */
  #chatMutes(): Record<ConversationId, Mute> {
    return this.#meId === null ? {} : (this.#deps.preferences.get('chatMutes')?.[this.#meId] ?? {})
  }

  #saveChatMute(conversationId: ConversationId, mute: Mute | null): void {
    if (this.#meId === null) return
    const { [conversationId]: _previous, ...others } = this.#chatMutes()
    const mutes = mute === null ? others : { ...others, [conversationId]: mute }
    this.#deps.preferences.set('chatMutes', { ...this.#deps.preferences.get('chatMutes'), [this.#meId]: mutes })
  }

  /** This account's ends of group mutes made on this device. */
  #groupMuteEnds(): Record<ConversationId, number> {
    return this.#meId === null ? {} : (this.#deps.preferences.get('groupMuteEnds')?.[this.#meId] ?? {})
  }

  #saveGroupMuteEnd(groupId: ConversationId, until: number | null): void {
    const { [groupId]: _previous, ...others } = this.#groupMuteEnds()
    this.#saveGroupMuteEnds(until === null ? others : { ...others, [groupId]: until })
  }

  #saveGroupMuteEnds(ends: Record<ConversationId, number>): void {
    if (this.#meId === null) return
    const all = this.#deps.preferences.get('groupMuteEnds')
    if (all === undefined && Object.keys(ends).length === 0) return
    this.#deps.preferences.set('groupMuteEnds', { ...all, [this.#meId]: ends })
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
    this.#scheduleMuteEnd()
  }

  /** Announces the list again when the next timed mute ends, so its icon and the badge change on time. */
  #scheduleMuteEnd(): void {
    this.stop()
    const now = this.#deps.now()
    let next = Infinity
    for (const conversation of this.#byId.values()) {
      const until = inForce(conversation.mute, now)?.until
      if (typeof until === 'number') next = Math.min(next, until)
    }
    if (next === Infinity) return
    this.#muteEndTimer = setTimeout(() => {
      this.#muteEndTimer = null
      this.#announce()
    }, Math.min(next - now, LONGEST_TIMER_MS))
    this.#muteEndTimer.unref?.()
  }
}
