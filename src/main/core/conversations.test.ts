import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Message, PendingMessage } from '@shared/messages'
import type { Person } from '@shared/people'
import { MemoryPreferences } from '../../../tests/support/memory-platform'
import { Conversations, UNREAD_COUNT_CAP } from './conversations'
import { MemoryService } from './testing/memory-service'

const ME = { id: '1', name: 'Ada' }
const GROUP = '42'
const CHAT = '1+2'

function conversationsOver(service: MemoryService, preferences = new MemoryPreferences()) {
  const announced: Conversation[][] = []
  const conversations = new Conversations({ service, preferences, now: () => Date.now(), changed: (list) => void announced.push(list) })
  return { conversations, preferences, announced }
}

function serviceWith(...conversationIds: ConversationId[]): MemoryService {
  const service = new MemoryService(ME)
  for (const id of conversationIds) service.addConversation(id)
  return service
}

/** Preferences of a device this account has used before, having read each conversation up to the given id. */
function seenBefore(lastRead: Record<ConversationId, string>, accountId = ME.id): MemoryPreferences {
  const preferences = new MemoryPreferences()
  preferences.set('lastRead', { [accountId]: lastRead })
  return preferences
}

const unread = (list: Conversation[]): Record<ConversationId, number> =>
  Object.fromEntries(list.map((conversation) => [conversation.id, conversation.unreadCount]))

describe('Conversations', () => {
  it('lists the newest activity first, and of two equally recent the one with the newer id', async () => {
    const service = new MemoryService(ME)
    for (const id of ['10', '11', '12', '13']) service.addConversation(id)
    service.addConversation('20', { createdAt: 50 })
    service.addConversation('30', { createdAt: 50 })
    service.write('10', { senderId: '2', at: 100 })
    service.write('11', { senderId: '2', at: 200 })
    service.write('13', { senderId: '2', at: 150 })
    service.write('12', { senderId: '2', at: 150 })
    const { conversations } = conversationsOver(service)

    const listed = await conversations.refresh(ME.id)
    expect(listed.map((conversation) => conversation.id)).toEqual(['11', '12', '13', '10', '30', '20'])
    expect(conversations.list()).toEqual(listed)
  })

  it('answers a listed conversation by its id, and refuses one that is not in the list in the user’s words', async () => {
    const { conversations } = conversationsOver(serviceWith(GROUP))
    await conversations.refresh(ME.id)
    expect(conversations.listed(GROUP)).toEqual(conversations.get(GROUP))
    expect(() => conversations.listed('99')).toThrow(expect.objectContaining({ code: 'NOT_FOUND', message: 'That conversation is not in your list any more.' }))
  })

  it('counts nothing as unread on the first sign-in on this device, and remembers where each conversation stood', async () => {
    const service = serviceWith(GROUP, CHAT)
    service.writeMany(GROUP, 3, '2')
    const chatMessages = service.writeMany(CHAT, 2, '2')
    const { conversations, preferences } = conversationsOver(service)

    expect(unread(await conversations.refresh(ME.id))).toEqual({ [GROUP]: 0, [CHAT]: 0 })
    expect(preferences.get('lastRead')).toEqual({
      [ME.id]: { [GROUP]: service.messagesIn(GROUP).at(-1)?.id, [CHAT]: chatMessages.at(-1)?.id }
    })
    expect(service.callsOf('messagesAfter')).toEqual([])
  })

  it('counts what others wrote since the user last looked, leaving out their own, system and deleted messages', async () => {
    const service = serviceWith(GROUP)
    const [read] = service.writeMany(GROUP, 1, '2')
    service.writeMany(GROUP, 2, '2')
    service.write(GROUP, { senderId: ME.id })
    service.write(GROUP, { senderId: 'system', system: true })
    service.write(GROUP, { senderId: '3', deleted: true })
    service.write(GROUP, { senderId: '3' })
    const { conversations } = conversationsOver(service, seenBefore({ [GROUP]: read?.id ?? '' }))

    expect(unread(await conversations.refresh(ME.id))).toEqual({ [GROUP]: 3 })
  })

  it('asks nothing more of a conversation read up to its newest message', async () => {
    const service = serviceWith(GROUP)
    const messages = service.writeMany(GROUP, 2, '2')
    const { conversations } = conversationsOver(service, seenBefore({ [GROUP]: messages[1]?.id ?? '' }))
    expect(unread(await conversations.refresh(ME.id))).toEqual({ [GROUP]: 0 })
    expect(service.callsOf('messagesAfter')).toEqual([])
  })

  it('counts a new direct chat as unread in full, but takes a group the user was just added to as read', async () => {
    const service = serviceWith(GROUP, CHAT)
    service.writeMany(GROUP, 3, '2')
    service.writeMany(CHAT, 2, '2')
    const { conversations, preferences } = conversationsOver(service, seenBefore({}))

    expect(unread(await conversations.refresh(ME.id))).toEqual({ [GROUP]: 0, [CHAT]: 2 })
    expect(preferences.get('lastRead')?.[ME.id]).toEqual({ [GROUP]: service.messagesIn(GROUP).at(-1)?.id })
  })

  it('takes a first look that found no conversations as a look, so what arrives afterwards is news', async () => {
    const service = new MemoryService(ME)
    const { conversations, preferences } = conversationsOver(service)
    expect(await conversations.refresh(ME.id)).toEqual([])
    expect(preferences.get('lastRead')).toEqual({ [ME.id]: {} })

    service.addConversation(CHAT)
    service.writeMany(CHAT, 2, '2')
    expect(unread(await conversations.refresh(ME.id))).toEqual({ [CHAT]: 2 })
  })

  it('counts what is written in a group that was empty when the user last looked, across refreshes and restarts', async () => {
    const service = serviceWith(GROUP)
    const { conversations, preferences } = conversationsOver(service)
    expect(unread(await conversations.refresh(ME.id))).toEqual({ [GROUP]: 0 })

    const arrived = service.write(GROUP, { senderId: '2' })
    conversations.record(arrived, { read: false })
    expect(conversations.get(GROUP)?.unreadCount).toBe(1)
    // A reconnect recounts ...
    expect(unread(await conversations.refresh(ME.id))).toEqual({ [GROUP]: 1 })
    // ... and so does the next start.
    service.write(GROUP, { senderId: '2' })
    expect(unread(await conversationsOver(service, preferences).conversations.refresh(ME.id))).toEqual({ [GROUP]: 2 })
  })

  it(`stops counting at ${UNREAD_COUNT_CAP}, rather than asking for more`, async () => {
    const service = serviceWith(GROUP)
    const [read] = service.writeMany(GROUP, 1, '2')
    service.writeMany(GROUP, UNREAD_COUNT_CAP + 50, '2')
    const { conversations } = conversationsOver(service, seenBefore({ [GROUP]: read?.id ?? '' }))

    expect(unread(await conversations.refresh(ME.id))).toEqual({ [GROUP]: UNREAD_COUNT_CAP })
    expect(service.callsOf('messagesAfter')).toEqual([[GROUP, read?.id, UNREAD_COUNT_CAP]])

    conversations.record(service.write(GROUP, { senderId: '2' }), { read: false })
    expect(conversations.get(GROUP)?.unreadCount).toBe(UNREAD_COUNT_CAP)
  })

  it('keeps what each account has read apart', async () => {
    const service = serviceWith(GROUP)
    const [read] = service.writeMany(GROUP, 1, '2')
    service.writeMany(GROUP, 2, '2')
    const preferences = seenBefore({ [GROUP]: read?.id ?? '' }, 'someone-else')
    const { conversations } = conversationsOver(service, preferences)

    // This account's first sign-in here, though another account has used the device.
    expect(unread(await conversations.refresh(ME.id))).toEqual({ [GROUP]: 0 })
    expect(preferences.get('lastRead')).toEqual({
      'someone-else': { [GROUP]: read?.id },
      [ME.id]: { [GROUP]: service.messagesIn(GROUP).at(-1)?.id }
    })
  })

  it('records an arriving message as the conversation’s last, counting it unread when someone else wrote it', async () => {
    const service = serviceWith(GROUP, CHAT)
    service.writeMany(GROUP, 1, '2')
    const { conversations, announced } = conversationsOver(service, seenBefore({}))
    await conversations.refresh(ME.id)
    announced.length = 0

    service.now = 1_800_000_000
    const arrived = service.write(GROUP, { senderId: '2', text: 'news' })
    expect(conversations.record(arrived, { read: false })).toBe(true)
    expect(conversations.get(GROUP)).toMatchObject({
      lastMessageId: arrived.id,
      lastActivityAt: arrived.createdAt,
      preview: { senderName: arrived.senderName, text: 'news', hasAttachments: false },
      unreadCount: 1
    })
    expect(conversations.list()[0]?.id).toBe(GROUP)
    expect(announced).toEqual([conversations.list()])

    // A place shared without words: the list names what it is.
    const place: Message = { ...service.write(GROUP, { senderId: '2', text: '' }), attachments: [{ type: 'location', lat: '51.5', lng: '-0.12', name: 'Trailhead' }] }
    conversations.record(place, { read: false })
    expect(conversations.get(GROUP)?.preview).toEqual({ senderName: place.senderName, text: '', hasAttachments: true, attachmentKind: 'location' })
  })

  it('records a message only once, and never one older than the conversation’s last', async () => {
    const service = serviceWith(GROUP)
    const [older] = service.writeMany(GROUP, 1, '2')
    const { conversations, announced } = conversationsOver(service, seenBefore({}))
    await conversations.refresh(ME.id)
    const arrived = service.write(GROUP, { senderId: '2' })
    conversations.record(arrived, { read: false })
    announced.length = 0

    expect(conversations.record(arrived, { read: false })).toBe(false)
    expect(conversations.record(older as Message, { read: false })).toBe(false)
    expect(conversations.get(GROUP)?.unreadCount).toBe(1)
    expect(announced).toEqual([])
  })

  it('counts each newer message into the service’s count of the conversation, and a message already known not again', async () => {
    const service = new MemoryService(ME)
    service.addConversation(GROUP, { counted: true })
    service.addConversation(CHAT)
    service.writeMany(GROUP, 3, '2')
    const { conversations } = conversationsOver(service, seenBefore({}))
    await conversations.refresh(ME.id)
    expect(conversations.get(GROUP)?.messageCount).toBe(3)

    const arrived = service.write(GROUP, { senderId: '2' })
    conversations.record(arrived, { read: false })
    conversations.record(arrived, { read: false })
    conversations.record(service.write(GROUP, { senderId: ME.id }), { read: true })
    expect(conversations.get(GROUP)?.messageCount).toBe(5)

    // Not said by the service: not made up here.
    conversations.record(service.write(CHAT, { senderId: '2' }), { read: false })
    expect(conversations.get(CHAT)?.messageCount).toBeUndefined()
  })

  it('previews the newest message as the service now has it, edited or deleted, and leaves the preview alone for any other', async () => {
    const service = serviceWith(GROUP)
    const [older, newest] = service.writeMany(GROUP, 2, '2') as [Message, Message]
    const { conversations, announced } = conversationsOver(service, seenBefore({}))
    await conversations.refresh(ME.id)
    announced.length = 0

    conversations.replaced({ ...older, text: 'an older edit' })
    expect(conversations.get(GROUP)?.preview).toEqual({ senderName: newest.senderName, text: newest.text, hasAttachments: false })
    expect(announced).toEqual([])

    conversations.replaced({ ...newest, text: 'edited', editedAt: 1 })
    expect(conversations.get(GROUP)?.preview).toEqual({ senderName: newest.senderName, text: 'edited', hasAttachments: false })
    conversations.replaced({ ...newest, text: '', attachments: [], deleted: true })
    expect(conversations.get(GROUP)?.preview).toEqual({ senderName: newest.senderName, text: 'This message was deleted', hasAttachments: false })
    expect(announced).toHaveLength(2)
    // The same again says nothing new.
    conversations.replaced({ ...newest, text: 'This message was deleted', attachments: [], deleted: true })
    expect(announced).toHaveLength(2)
    expect(conversations.get(GROUP)?.unreadCount).toBe(0)
  })

  it('does not record a message of a conversation not in the list', async () => {
    const service = serviceWith(GROUP)
    const { conversations, announced } = conversationsOver(service)
    await conversations.refresh(ME.id)
    service.addConversation(CHAT)
    expect(conversations.record(service.write(CHAT, { senderId: '2' }), { read: false })).toBe(false)
    expect(conversations.get(CHAT)).toBeUndefined()
    expect(announced).toHaveLength(1)
  })

  it('does not count own, system or deleted messages as unread when they arrive', async () => {
    const service = serviceWith(GROUP)
    const { conversations } = conversationsOver(service, seenBefore({}))
    await conversations.refresh(ME.id)
    for (const writing of [{ senderId: ME.id }, { senderId: 'system', system: true }, { senderId: '2', deleted: true }]) {
      expect(conversations.record(service.write(GROUP, writing), { read: false })).toBe(true)
    }
    expect(conversations.get(GROUP)?.unreadCount).toBe(0)
  })

  it('remembers a message that arrives while the user is looking as read, across a restart', async () => {
    const service = serviceWith(GROUP)
    const { conversations, preferences } = conversationsOver(service, seenBefore({}))
    await conversations.refresh(ME.id)
    const seen = service.write(GROUP, { senderId: '2' })
    conversations.record(seen, { read: true })
    expect(conversations.get(GROUP)?.unreadCount).toBe(0)
    expect(preferences.get('lastRead')?.[ME.id]).toEqual({ [GROUP]: seen.id })

    service.write(GROUP, { senderId: '2' })
    const restarted = conversationsOver(service, preferences).conversations
    expect(unread(await restarted.refresh(ME.id))).toEqual({ [GROUP]: 1 })
  })

  it('marks a conversation read up to its newest message, and it stays read after a restart', async () => {
    const service = serviceWith(GROUP)
    const [read] = service.writeMany(GROUP, 1, '2')
    const newer = service.writeMany(GROUP, 2, '2')
    const { conversations, preferences, announced } = conversationsOver(service, seenBefore({ [GROUP]: read?.id ?? '' }))
    await conversations.refresh(ME.id)
    announced.length = 0

    conversations.markRead(GROUP)
    expect(conversations.get(GROUP)?.unreadCount).toBe(0)
    expect(announced).toEqual([conversations.list()])
    expect(preferences.get('lastRead')?.[ME.id]).toEqual({ [GROUP]: newer[1]?.id })

    const restarted = conversationsOver(service, preferences).conversations
    expect(unread(await restarted.refresh(ME.id))).toEqual({ [GROUP]: 0 })
  })

  it('finds the first unread message in the loaded page, past the user\'s own and system messages', async () => {
    const service = serviceWith(GROUP)
    const [read] = service.writeMany(GROUP, 1, '2')
    service.write(GROUP, { senderId: ME.id })
    service.write(GROUP, { senderId: 'system', system: true })
    const [firstUnread] = service.writeMany(GROUP, 2, '2')
    const { conversations } = conversationsOver(service, seenBefore({ [GROUP]: read?.id ?? '' }))
    await conversations.refresh(ME.id)
    const callsBefore = service.callsOf('messagesAfter').length

    expect(await conversations.firstUnreadId(GROUP, service.messagesIn(GROUP))).toBe(firstUnread?.id)
    expect(service.callsOf('messagesAfter')).toHaveLength(callsBefore)
  })

  it('asks the service for the first unread message when the loaded page is unread all through', async () => {
    const service = serviceWith(GROUP)
    const [read] = service.writeMany(GROUP, 1, '2')
    const [firstUnread] = service.writeMany(GROUP, 80, '2')
    const { conversations } = conversationsOver(service, seenBefore({ [GROUP]: read?.id ?? '' }))
    await conversations.refresh(ME.id)

    expect(await conversations.firstUnreadId(GROUP, service.messagesIn(GROUP).slice(-50))).toBe(firstUnread?.id)
    expect(service.callsOf('messagesAfter').at(-1)).toEqual([GROUP, read?.id, UNREAD_COUNT_CAP])
  })

  it('has no first unread message in a conversation read to its end, nor once it is marked read', async () => {
    const service = serviceWith(GROUP, CHAT)
    const [read] = service.writeMany(GROUP, 1, '2')
    service.writeMany(GROUP, 3, '2')
    service.writeMany(CHAT, 2, '2')
    const { conversations } = conversationsOver(service, seenBefore({ [GROUP]: read?.id ?? '', [CHAT]: service.messagesIn(CHAT).at(-1)?.id ?? '' }))
    await conversations.refresh(ME.id)

    expect(await conversations.firstUnreadId(CHAT, service.messagesIn(CHAT))).toBeNull()
    conversations.markRead(GROUP)
    expect(await conversations.firstUnreadId(GROUP, service.messagesIn(GROUP))).toBeNull()
  })

  it('says nothing when marking read a conversation with nothing unread, nor one it does not know', async () => {
    const service = serviceWith(GROUP)
    service.writeMany(GROUP, 1, '2')
    const { conversations, announced } = conversationsOver(service)
    await conversations.refresh(ME.id)
    announced.length = 0
    conversations.markRead(GROUP)
    conversations.markRead('unknown')
    expect(announced).toEqual([])
  })

  it('announces the list after each refresh', async () => {
    const service = serviceWith(GROUP)
    const { conversations, announced } = conversationsOver(service)
    const listed = await conversations.refresh(ME.id)
    expect(announced).toEqual([listed])
  })

  it('lets only the latest refresh replace the list when an earlier one answers after it', async () => {
    const service = serviceWith(GROUP)
    const { conversations } = conversationsOver(service, seenBefore({}))
    const release = service.holdNext('listConversations')
    const stale = conversations.refresh(ME.id)

    service.addConversation(CHAT)
    service.writeMany(CHAT, 1, '2')
    await conversations.refresh(ME.id)
    release()
    expect((await stale).map((conversation) => conversation.id)).toEqual([CHAT, GROUP])
    expect(conversations.get(CHAT)).toBeDefined()
  })

  it('keeps a message recorded while the list was being fetched', async () => {
    const service = serviceWith(GROUP)
    service.writeMany(GROUP, 1, '2')
    const { conversations } = conversationsOver(service, seenBefore({}))
    await conversations.refresh(ME.id)
    const release = service.holdNext('listConversations')
    const refreshing = conversations.refresh(ME.id)

    const arrived = service.write(GROUP, { senderId: '2', text: 'meanwhile' })
    conversations.record(arrived, { read: false })
    release()
    await refreshing
    expect(conversations.get(GROUP)).toMatchObject({ lastMessageId: arrived.id, preview: { text: 'meanwhile' }, unreadCount: 1 })
  })

  it('forgets the list on clear and says so, and a refresh that was under way brings nothing back', async () => {
    const service = serviceWith(GROUP)
    const { conversations, announced } = conversationsOver(service)
    await conversations.refresh(ME.id)
    const release = service.holdNext('listConversations')
    const refreshing = conversations.refresh(ME.id)

    conversations.clear()
    expect(conversations.list()).toEqual([])
    expect(announced.at(-1)).toEqual([])
    release()
    expect(await refreshing).toEqual([])
    expect(conversations.get(GROUP)).toBeUndefined()
  })

  it('passes a failed refresh on and keeps the list it had', async () => {
    const service = serviceWith(GROUP)
    const { conversations, announced } = conversationsOver(service)
    const listed = await conversations.refresh(ME.id)
    service.failNext('listConversations', 'NETWORK')
    await expect(conversations.refresh(ME.id)).rejects.toMatchObject({ code: 'NETWORK' })
    expect(conversations.list()).toEqual(listed)
    expect(announced).toHaveLength(1)
  })
})

describe('Conversations: a chat the user starts', () => {
  /** A chat as core starts it: named by the other person, with nothing in it yet. */
  const started = (name = 'Grace'): Conversation => ({
    id: CHAT,
    kind: 'dm',
    name,
    avatarUrl: null,
    lastActivityAt: 1_700_000_000,
    lastMessageId: null,
    preview: null,
    unreadCount: 0,
    mute: null
  })

  it('knows a started chat by its id but leaves it out of the list, and announces nothing', async () => {
    const { conversations, announced } = conversationsOver(serviceWith(GROUP))
    await conversations.refresh(ME.id)
    announced.length = 0

    expect(conversations.addDraft(started())).toEqual(started())
    expect(conversations.get(CHAT)).toEqual(started())
    expect(conversations.list().map((conversation) => conversation.id)).toEqual([GROUP])
    expect(announced).toEqual([])
  })

  it('answers the chat already listed under that id instead of starting another', async () => {
    const service = serviceWith(CHAT)
    service.writeMany(CHAT, 1, '2')
    const { conversations } = conversationsOver(service)
    await conversations.refresh(ME.id)

    const listed = conversations.get(CHAT)
    expect(conversations.addDraft(started())).toEqual(listed)
    expect(listed?.name).toBe(`Conversation ${CHAT}`)
    expect(conversations.list()).toHaveLength(1)
  })

  it('answers the same draft when the chat is started twice', async () => {
    const { conversations } = conversationsOver(serviceWith(GROUP))
    await conversations.refresh(ME.id)
    conversations.addDraft(started('Grace'))
    expect(conversations.addDraft(started('Grace Hopper')).name).toBe('Grace')
  })

  it('lists the chat, and announces it, once its first message is recorded', async () => {
    const service = serviceWith(GROUP)
    const { conversations, announced } = conversationsOver(service, seenBefore({}))
    await conversations.refresh(ME.id)
    conversations.addDraft(started())
    announced.length = 0

    service.addConversation(CHAT)
    service.now = 1_800_000_000
    const first = service.write(CHAT, { senderId: ME.id, text: 'hello' })
    expect(conversations.record(first, { read: true })).toBe(true)
    expect(conversations.list()[0]).toMatchObject({ id: CHAT, name: 'Grace', lastMessageId: first.id, preview: { text: 'hello' }, unreadCount: 0 })
    expect(announced.at(-1)?.map((conversation) => conversation.id)).toEqual([CHAT, GROUP])
  })

  it('counts a first message from the other side into a started chat as unread', async () => {
    const service = serviceWith(GROUP)
    const { conversations } = conversationsOver(service, seenBefore({}))
    await conversations.refresh(ME.id)
    conversations.addDraft(started())

    service.addConversation(CHAT)
    expect(conversations.record(service.write(CHAT, { senderId: '2' }), { read: false })).toBe(true)
    expect(conversations.get(CHAT)?.unreadCount).toBe(1)
  })

  it('keeps the draft, unlisted, through a refresh that does not list the chat', async () => {
    const { conversations } = conversationsOver(serviceWith(GROUP))
    await conversations.refresh(ME.id)
    conversations.addDraft(started())

    await conversations.refresh(ME.id)
    expect(conversations.get(CHAT)).toEqual(started())
    expect(conversations.list().map((conversation) => conversation.id)).toEqual([GROUP])
  })

  it('takes the chat as the service lists it once a refresh finds it', async () => {
    const service = serviceWith(GROUP)
    const { conversations } = conversationsOver(service)
    await conversations.refresh(ME.id)
    conversations.addDraft(started())

    service.addConversation(CHAT, { name: 'Grace Hopper' })
    service.writeMany(CHAT, 1, '2')
    await conversations.refresh(ME.id)
    expect(conversations.list().map((conversation) => conversation.id)).toContain(CHAT)
    expect(conversations.get(CHAT)?.name).toBe('Grace Hopper')
  })

  it('keeps a chat first written in while a refresh that began before was on its way', async () => {
    const service = serviceWith(GROUP)
    const { conversations } = conversationsOver(service, seenBefore({}))
    await conversations.refresh(ME.id)
    conversations.addDraft(started())
    const release = service.holdNext('listConversations')
    const refreshing = conversations.refresh(ME.id)

    service.addConversation(CHAT)
    const first = service.write(CHAT, { senderId: ME.id, text: 'hello' })
    conversations.record(first, { read: true })
    release()
    await refreshing
    expect(conversations.list().map((conversation) => conversation.id)).toContain(CHAT)
    expect(conversations.get(CHAT)).toMatchObject({ lastMessageId: first.id })
  })

  it('forgets started chats on clear', async () => {
    const { conversations } = conversationsOver(serviceWith(GROUP))
    await conversations.refresh(ME.id)
    conversations.addDraft(started())
    conversations.clear()
    expect(conversations.get(CHAT)).toBeUndefined()
  })
})

describe('Conversations: a started chat with messages not sent yet', () => {
  const started = (): Conversation => ({
    id: CHAT,
    kind: 'dm',
    name: 'Grace',
    avatarUrl: null,
    lastActivityAt: 1_700_000_000,
    lastMessageId: null,
    preview: null,
    unreadCount: 0,
    mute: null
  })
  const unsent = (overrides: Partial<PendingMessage> = {}): PendingMessage => ({
    clientId: 'c1',
    conversationId: CHAT,
    text: 'Hello?',
    queuedAt: 1_750_000_000_000,
    state: 'failed',
    error: 'Not sent: Grace is not accepting messages from you.',
    ...overrides
  })
  const grace: Person = { id: '2', name: 'Grace Hopper', avatarUrl: 'https://example.test/grace.png' }
  const ids = (list: Conversation[]): ConversationId[] => list.map((conversation) => conversation.id)

  it('lists a draft, and announces it, while the outbox holds a message for it, and no longer once none is left', async () => {
    const { conversations, announced } = conversationsOver(serviceWith(GROUP))
    await conversations.refresh(ME.id)
    conversations.addDraft(started())
    announced.length = 0

    conversations.unsentChanged(CHAT, [unsent({ state: 'sending', error: null })])
    expect(ids(conversations.list())).toEqual([CHAT, GROUP])
    expect(announced.map(ids)).toEqual([[CHAT, GROUP]])
    conversations.unsentChanged(CHAT, [unsent()])
    expect(announced).toHaveLength(1)

    conversations.unsentChanged(CHAT, [])
    expect(ids(conversations.list())).toEqual([GROUP])
    expect(announced.map(ids)).toEqual([[CHAT, GROUP], [GROUP]])
    expect(conversations.get(CHAT)).toEqual(started())
  })

  it('keeps a draft with a failed message listed through a refresh that does not list the chat', async () => {
    const { conversations } = conversationsOver(serviceWith(GROUP))
    await conversations.refresh(ME.id)
    conversations.addDraft(started())
    conversations.unsentChanged(CHAT, [unsent()])

    await conversations.refresh(ME.id)
    expect(ids(conversations.list())).toEqual([CHAT, GROUP])
  })

  it('lists a draft started after the outbox told of its messages', async () => {
    const { conversations, announced } = conversationsOver(serviceWith(GROUP))
    conversations.unsentChanged(CHAT, [unsent()])
    await conversations.refresh(ME.id)
    expect(ids(conversations.list())).toEqual([GROUP])
    announced.length = 0

    conversations.addDraft(started())
    expect(ids(announced.at(-1) ?? [])).toEqual([CHAT, GROUP])
  })

  it('restores a chat the list does not know from the outbox, named by the other person, dated by its first unsent message', async () => {
    const { conversations, announced } = conversationsOver(serviceWith(GROUP))
    conversations.unsentChanged(CHAT, [unsent({ clientId: 'c2', queuedAt: 1_750_000_009_000 }), unsent()])
    conversations.unsentChanged(GROUP, [unsent({ conversationId: GROUP })])
    await conversations.refresh(ME.id)
    announced.length = 0
    const asked: string[] = []

    await conversations.restoreDrafts(async (userId) => {
      asked.push(userId)
      return grace
    })
    expect(asked).toEqual(['2'])
    expect(conversations.get(CHAT)).toEqual({ ...started(), name: 'Grace Hopper', avatarUrl: grace.avatarUrl, lastActivityAt: 1_750_000_000 })
    expect(ids(conversations.list())).toEqual([CHAT, GROUP])
    expect(announced.map(ids)).toEqual([[CHAT, GROUP]])
  })

  it('names a restored chat by the other person’s id when they cannot be read', async () => {
    const { conversations } = conversationsOver(serviceWith(GROUP))
    conversations.unsentChanged(CHAT, [unsent()])
    await conversations.refresh(ME.id)

    await conversations.restoreDrafts(() => Promise.reject(new Error('unreachable')))
    expect(conversations.get(CHAT)).toMatchObject({ id: CHAT, kind: 'dm', name: '2', avatarUrl: null })
    expect(ids(conversations.list())).toContain(CHAT)
  })

  it('restores nothing, and asks nobody, for chats the list already knows or with nothing unsent', async () => {
    const service = serviceWith(CHAT)
    service.writeMany(CHAT, 1, '2')
    const { conversations, announced } = conversationsOver(service)
    conversations.unsentChanged(CHAT, [unsent()])
    conversations.unsentChanged('1+3', [unsent({ conversationId: '1+3' })])
    conversations.unsentChanged('1+3', [])
    await conversations.refresh(ME.id)
    announced.length = 0

    await conversations.restoreDrafts(() => Promise.reject(new Error('nobody should be asked')))
    expect(conversations.get(CHAT)?.name).toBe(`Conversation ${CHAT}`)
    expect(conversations.get('1+3')).toBeUndefined()
    expect(announced).toEqual([])
  })

  it('restores nothing before anyone is signed in, and the outbox’s word outlives a sign-out', async () => {
    const { conversations } = conversationsOver(serviceWith(GROUP))
    conversations.unsentChanged(CHAT, [unsent()])
    await conversations.restoreDrafts(async () => grace)
    expect(conversations.get(CHAT)).toBeUndefined()

    await conversations.refresh(ME.id)
    conversations.clear()
    await conversations.refresh(ME.id)
    await conversations.restoreDrafts(async () => grace)
    expect(ids(conversations.list())).toEqual([CHAT, GROUP])
  })
})

describe('Conversations: mutes', () => {
  const HOUR = 60 * 60 * 1000
  const START = Date.UTC(2026, 5, 10, 12, 0)

  function mutableOver(service: MemoryService, preferences = new MemoryPreferences()) {
    const clock = { now: START }
    const announced: Conversation[][] = []
    const conversations = new Conversations({ service, preferences, now: () => clock.now, changed: (list) => void announced.push(list) })
    return { conversations, preferences, clock, announced }
  }

  const muteOf = (conversations: Conversations, id: ConversationId) => conversations.get(id)?.mute

  it('keeps a chat\'s mute on this device, per account, across a restart', async () => {
    const service = serviceWith(GROUP, CHAT)
    const first = mutableOver(service)
    await first.conversations.refresh(ME.id)
    first.conversations.setMute(CHAT, { until: START + HOUR })
    expect(first.preferences.get('chatMutes')).toEqual({ [ME.id]: { [CHAT]: { until: START + HOUR } } })

    const restarted = mutableOver(service, first.preferences)
    await restarted.conversations.refresh(ME.id)
    expect(muteOf(restarted.conversations, CHAT)).toEqual({ until: START + HOUR })
    restarted.conversations.setMute(CHAT, null)
    expect(restarted.preferences.get('chatMutes')).toEqual({ [ME.id]: {} })
  })

  it('shows a group muted on the service with the end chosen on this device, across a restart', async () => {
    const service = serviceWith(GROUP, CHAT)
    const first = mutableOver(service)
    await first.conversations.refresh(ME.id)
    service.mutedGroups.add(GROUP)
    first.conversations.setMute(GROUP, { until: START + HOUR })
    expect(first.preferences.get('groupMuteEnds')).toEqual({ [ME.id]: { [GROUP]: START + HOUR } })

    const restarted = mutableOver(service, first.preferences)
    await restarted.conversations.refresh(ME.id)
    expect(muteOf(restarted.conversations, GROUP)).toEqual({ until: START + HOUR })
  })

  it('shows a group muted elsewhere as muted with no end, and one unmuted elsewhere as unmuted, forgetting its end', async () => {
    const service = serviceWith(GROUP, '43')
    const { conversations, preferences } = mutableOver(service)
    await conversations.refresh(ME.id)
    service.mutedGroups.add(GROUP)
    conversations.setMute(GROUP, { until: START + HOUR })
    service.mutedGroups.add('43')
    service.mutedGroups.delete(GROUP)

    await conversations.refresh(ME.id)
    expect(muteOf(conversations, '43')).toEqual({ until: null })
    expect(muteOf(conversations, GROUP)).toBeNull()
    expect(preferences.get('groupMuteEnds')).toEqual({ [ME.id]: {} })
  })

  it('ends a group\'s mute at its end, even while the service still rounds it up to the minute', async () => {
    const service = serviceWith(GROUP)
    const { conversations, clock } = mutableOver(service)
    await conversations.refresh(ME.id)
    service.mutedGroups.add(GROUP)
    conversations.setMute(GROUP, { until: START + HOUR })
    clock.now = START + HOUR
    expect(muteOf(conversations, GROUP)).toBeNull()
    await conversations.refresh(ME.id)
    expect(muteOf(conversations, GROUP)).toBeNull()
  })

  it('keeps a mute set while the list was on its way, which the list cannot know of yet', async () => {
    const service = serviceWith(GROUP, CHAT)
    const { conversations, preferences } = mutableOver(service)
    await conversations.refresh(ME.id)
    const release = service.holdNext('listConversations')
    const refreshing = conversations.refresh(ME.id)
    await Promise.resolve()
    service.mutedGroups.add(GROUP)
    conversations.setMute(GROUP, { until: START + HOUR })
    conversations.setMute(CHAT, { until: null })
    release()
    await refreshing

    expect(muteOf(conversations, GROUP)).toEqual({ until: START + HOUR })
    expect(muteOf(conversations, CHAT)).toEqual({ until: null })
    expect(preferences.get('groupMuteEnds')).toEqual({ [ME.id]: { [GROUP]: START + HOUR } })

    // The next list knows of it.
    await conversations.refresh(ME.id)
    expect(muteOf(conversations, GROUP)).toEqual({ until: START + HOUR })
  })

  it('leaves a muted conversation\'s unread messages out of the badge, and counts them again once unmuted', async () => {
    const service = serviceWith(GROUP, CHAT)
    const { conversations } = mutableOver(service, seenBefore({ [GROUP]: '0', [CHAT]: '0' }))
    service.writeMany(GROUP, 3, '2')
    service.writeMany(CHAT, 2, '2')
    await conversations.refresh(ME.id)
    expect(conversations.badgeCount()).toBe(5)

    conversations.setMute(GROUP, { until: null })
    expect(conversations.badgeCount()).toBe(2)
    conversations.setMute(CHAT, { until: START + HOUR })
    expect(conversations.badgeCount()).toBe(0)
    conversations.setMute(GROUP, null)
    expect(conversations.badgeCount()).toBe(3)
  })
})

describe('Conversations: a timed mute ends on time', () => {
  const HOUR = 60 * 60 * 1000
  const START = Date.UTC(2026, 5, 10, 12, 0)

  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(START)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  async function mutedFor(duration: number) {
    const service = serviceWith(GROUP, CHAT)
    const announced: Conversation[][] = []
    const conversations = new Conversations({
      service,
      preferences: seenBefore({ [GROUP]: '0', [CHAT]: '0' }),
      now: () => Date.now(),
      changed: (list) => void announced.push(list)
    })
    service.writeMany(GROUP, 2, '2')
    await conversations.refresh(ME.id)
    conversations.setMute(GROUP, { until: START + duration })
    conversations.setMute(CHAT, { until: START + 2 * duration })
    return { conversations, announced }
  }

  const mutesIn = (list: Conversation[] | undefined) => Object.fromEntries((list ?? []).map((c) => [c.id, c.mute]))

  it('announces the list when each mute ends, and the muted messages count again from then', async () => {
    const { conversations, announced } = await mutedFor(HOUR)
    expect(conversations.badgeCount()).toBe(0)

    vi.advanceTimersByTime(HOUR - 1)
    expect(mutesIn(announced.at(-1))).toEqual({ [GROUP]: { until: START + HOUR }, [CHAT]: { until: START + 2 * HOUR } })
    vi.advanceTimersByTime(1)
    expect(mutesIn(announced.at(-1))).toEqual({ [GROUP]: null, [CHAT]: { until: START + 2 * HOUR } })
    expect(conversations.badgeCount()).toBe(2)
    vi.advanceTimersByTime(HOUR)
    expect(mutesIn(announced.at(-1))).toEqual({ [GROUP]: null, [CHAT]: null })
    conversations.stop()
  })

  it('after a sleep through a mute\'s end, announces it on resume', async () => {
    const { conversations, announced } = await mutedFor(HOUR)
    vi.setSystemTime(START + 3 * HOUR)
    conversations.resumed()
    expect(mutesIn(announced.at(-1))).toEqual({ [GROUP]: null, [CHAT]: null })
    conversations.stop()
  })

  it('announces nothing more once stopped', async () => {
    const { conversations, announced } = await mutedFor(HOUR)
    conversations.stop()
    const before = announced.length
    vi.advanceTimersByTime(3 * HOUR)
    expect(announced).toHaveLength(before)
  })
})

describe('Conversations: a group the user just changed', () => {
  it('shows the new settings at once, takes a field away when told undefined, and leaves chats and unknown groups alone', async () => {
    const service = serviceWith(GROUP, CHAT)
    const { conversations, announced } = conversationsOver(service)
    await conversations.refresh(ME.id)
    const before = announced.length

    const changed = conversations.updateGroup(GROUP, { name: 'Supper club', groupType: 'closed', deletionMode: ['admin'], joinRequestCount: 2 })
    expect(changed).toMatchObject({ id: GROUP, name: 'Supper club', groupType: 'closed', deletionMode: ['admin'], joinRequestCount: 2 })
    expect(conversations.get(GROUP)).toEqual(changed)
    expect(announced).toHaveLength(before + 1)

    const cleared = conversations.updateGroup(GROUP, { joinRequestCount: undefined })
    expect(cleared).not.toHaveProperty('joinRequestCount')
    expect(cleared).toMatchObject({ name: 'Supper club', groupType: 'closed' })

    expect(conversations.updateGroup(CHAT, { name: 'Not a group' })).toBeUndefined()
    expect(conversations.updateGroup('99', { name: 'Unknown' })).toBeUndefined()
    expect(conversations.get(CHAT)?.name).not.toBe('Not a group')
    expect(announced).toHaveLength(before + 2)
  })
})
