import { describe, expect, it } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import { RecordingNotifier } from '../../../tests/support/memory-platform'
import { Notifications, type Situation } from './notifications'
import { DEFAULT_SETTINGS } from '@shared/settings'

const ME = { id: '1', name: 'Ada', avatarUrl: null }
const GROUP = '42'
const OTHER_GROUP = '43'
const CHAT = '1+2'

function conversation(id: ConversationId, name: string): Conversation {
  return {
    id,
    kind: id.includes('+') ? 'dm' : 'group',
    name,
    avatarUrl: null,
    lastActivityAt: 0,
    lastMessageId: null,
    preview: null,
    unreadCount: 0,
    mute: null
  }
}

let lastId = 100
function message(conversationId: ConversationId, overrides: Partial<Message> = {}): Message {
  lastId += 1
  return {
    id: String(lastId),
    conversationId,
    sourceGuid: `g${lastId}`,
    senderId: '2',
    senderName: 'Grace',
    senderAvatarUrl: null,
    text: `Message ${lastId}`,
    attachments: [],
    createdAt: 1_700_000_000,
    system: false,
    aboutUserIds: [],
    deleted: false,
    ...overrides
  }
}

function notificationsWith(changes: Partial<Situation> = {}, options: { groupMuted?: boolean } = {}) {
  const notifier = new RecordingNotifier()
  const conversations = new Map([
    [GROUP, { ...conversation(GROUP, 'Book Club'), mute: options.groupMuted === true ? { until: null } : null }],
    [OTHER_GROUP, conversation(OTHER_GROUP, 'Climbing')],
    [CHAT, conversation(CHAT, 'Grace')]
  ])
  const situation: Omit<Situation, 'conversation'> = {
    me: ME,
    nickname: null,
    lookingAt: null,
    status: 'active',
    globallyMuted: false,
    settings: DEFAULT_SETTINGS,
    ...changes
  }
  const opened: ConversationId[] = []
  const replies: [ConversationId, string][] = []
  const notifications = new Notifications({
    notifier,
    situation: (conversationId) => {
      const found = conversations.get(conversationId)
      return found === undefined ? null : { ...situation, conversation: found }
    },
    open: (conversationId) => void opened.push(conversationId),
    reply: (conversationId, text) => void replies.push([conversationId, text])
  })
  return { notifications, notifier, opened, replies }
}

describe('Notifications', () => {
  it('shows one notification per conversation, updated in place with how many messages it stands for', () => {
    const { notifications, notifier } = notificationsWith()
    notifications.consider({ kind: 'message', message: message(GROUP, { text: 'Chapter 3 tonight?' }) })
    notifications.consider({ kind: 'message', message: message(GROUP) })
    notifications.consider({ kind: 'message', message: message(GROUP) })
    notifications.consider({ kind: 'message', message: message(OTHER_GROUP, { text: 'Saturday?' }) })

    expect(notifier.shown.map(({ key, title, body }) => ({ key, title, body }))).toEqual([
      { key: GROUP, title: 'Book Club', body: 'Grace: Chapter 3 tonight?' },
      { key: GROUP, title: 'Book Club', body: '2 new messages in Book Club' },
      { key: GROUP, title: 'Book Club', body: '3 new messages in Book Club' },
      { key: OTHER_GROUP, title: 'Climbing', body: 'Grace: Saturday?' }
    ])
    expect(new Set(notifier.shown.map((shown) => shown.key)).size).toBe(2)
  })

  it('closes a conversation\'s notification once it is seen, and counts from one again afterwards', () => {
    const { notifications, notifier } = notificationsWith()
    notifications.consider({ kind: 'message', message: message(GROUP) })
    notifications.consider({ kind: 'message', message: message(GROUP) })
    notifications.seen(GROUP)
    expect(notifier.closed).toEqual([GROUP])

    notifications.consider({ kind: 'message', message: message(GROUP, { text: 'Back again' }) })
    expect(notifier.shown.at(-1)?.body).toBe('Grace: Back again')
  })

  it('closes nothing when a conversation without a notification is seen', () => {
    const { notifications, notifier } = notificationsWith()
    notifications.seen(GROUP)
    expect(notifier.closed).toEqual([])
  })

  it('clears every notification on sign-out', () => {
    const { notifications, notifier } = notificationsWith()
    notifications.consider({ kind: 'message', message: message(GROUP) })
    notifications.consider({ kind: 'message', message: message(CHAT) })
    notifications.clear()
    expect(notifier.closed.sort()).toEqual([CHAT, GROUP].sort())
    notifications.clear()
    expect(notifier.closed).toHaveLength(2)
  })

  it('plays the sound while Sound is on, and shows silently once it is off', () => {
    const withSound = notificationsWith()
    withSound.notifications.consider({ kind: 'message', message: message(GROUP) })
    expect(withSound.notifier.shown[0]?.silent).toBe(false)

    const silent = notificationsWith({ settings: { ...DEFAULT_SETTINGS, sound: false } })
    silent.notifications.consider({ kind: 'message', message: message(GROUP) })
    expect(silent.notifier.shown[0]?.silent).toBe(true)
  })

  it('says who wrote but not what while "Show message text" is off', () => {
    const { notifications, notifier } = notificationsWith({ settings: { ...DEFAULT_SETTINGS, showMessageText: false } })
    notifications.consider({ kind: 'message', message: message(CHAT, { text: 'The secret plan' }) })
    expect(notifier.shown[0]).toMatchObject({ title: 'Grace', body: 'New message from Grace' })
    expect(JSON.stringify(notifier.shown)).not.toContain('secret')
  })

  it('opens the conversation on a click, and takes its notification away', () => {
    const { notifications, notifier, opened } = notificationsWith()
    notifications.consider({ kind: 'message', message: message(GROUP) })
    notifier.shown[0]?.onClick()
    expect(opened).toEqual([GROUP])
    expect(notifier.closed).toEqual([GROUP])
  })

  it('sends a reply written in the notification to its conversation', () => {
    const { notifications, notifier, replies } = notificationsWith()
    notifications.consider({ kind: 'message', message: message(CHAT) })
    notifier.shown[0]?.onReply?.('On my way')
    expect(replies).toEqual([[CHAT, 'On my way']])
  })

  it('shows nothing the policy refuses: Do not disturb, a global mute, the conversation on screen, your own message', () => {
    for (const changes of [{ status: 'dnd' }, { globallyMuted: true }, { lookingAt: GROUP }, { settings: { ...DEFAULT_SETTINGS, desktopNotifications: false } }] as const) {
      const { notifications, notifier } = notificationsWith(changes)
      notifications.consider({ kind: 'message', message: message(GROUP) })
      expect(notifier.shown, JSON.stringify(changes)).toEqual([])
    }
    const { notifications, notifier } = notificationsWith()
    notifications.consider({ kind: 'message', message: message(GROUP, { senderId: ME.id }) })
    expect(notifier.shown).toEqual([])
  })

  it('does not count a refused message towards the next notification', () => {
    const { notifications, notifier } = notificationsWith()
    notifications.consider({ kind: 'message', message: message(GROUP, { senderId: ME.id }) })
    notifications.consider({ kind: 'message', message: message(GROUP, { text: 'Hi' }) })
    expect(notifier.shown.map((shown) => shown.body)).toEqual(['Grace: Hi'])
  })

  it('shows nothing for a conversation it does not know (or once signed out)', () => {
    const { notifications, notifier } = notificationsWith()
    notifications.consider({ kind: 'message', message: message('99') })
    expect(notifier.shown).toEqual([])
  })

  it('lets through a muted group only a mention of your name or of your nickname there', () => {
    const { notifications, notifier } = notificationsWith({ nickname: 'Countess' }, { groupMuted: true })
    notifications.consider({ kind: 'message', message: message(GROUP, { text: 'Anyone for tea?' }) })
    notifications.consider({ kind: 'message', message: message(GROUP, { text: '@countess tea?' }) })
    notifications.consider({ kind: 'message', message: message(GROUP, { text: '@Ada tea?' }) })
    expect(notifier.shown.map((shown) => shown.body)).toEqual(['Grace: @countess tea?', '2 new messages in Book Club'])
  })

  it('knows only your name where your nickname is not known', () => {
    const { notifications, notifier } = notificationsWith({}, { groupMuted: true })
    notifications.consider({ kind: 'message', message: message(GROUP, { text: '@countess tea?' }) })
    expect(notifier.shown).toEqual([])
  })

  it('does not count a reaction as a message: a message after one is told as the first', () => {
    const { notifications, notifier } = notificationsWith()
    const mine = message(GROUP, { senderId: ME.id, senderName: 'Ada', text: 'Cake on Friday' })
    const reaction = { kind: 'reaction', conversationId: GROUP, reactorId: '2', reactorName: 'Grace', emoji: '🎉', message: mine } as const
    notifications.consider(reaction)
    notifications.consider({ kind: 'message', message: message(GROUP, { text: 'Which cake?' }) })
    notifications.consider(reaction)
    notifications.consider({ kind: 'message', message: message(GROUP) })
    expect(notifier.shown.map((shown) => shown.body)).toEqual([
      'Grace reacted 🎉 to your message: "Cake on Friday"',
      'Grace: Which cake?',
      'Grace reacted 🎉 to your message: "Cake on Friday"',
      '2 new messages in Book Club'
    ])
    notifications.seen(GROUP)
    expect(notifier.closed).toEqual([GROUP])
  })

  it('closes a notification that showed only a reaction once the conversation is seen', () => {
    const { notifications, notifier } = notificationsWith()
    const mine = message(GROUP, { senderId: ME.id, senderName: 'Ada' })
    notifications.consider({ kind: 'reaction', conversationId: GROUP, reactorId: '2', reactorName: 'Grace', emoji: '🎉', message: mine })
    notifications.seen(GROUP)
    expect(notifier.closed).toEqual([GROUP])
  })

  it('tells of a reaction to your message, in a muted group too', () => {
    const { notifications, notifier } = notificationsWith({}, { groupMuted: true })
    const mine = message(GROUP, { senderId: ME.id, senderName: 'Ada', text: 'Cake on Friday' })
    notifications.consider({ kind: 'reaction', conversationId: GROUP, reactorId: '2', reactorName: 'Grace', emoji: '🎉', message: mine })
    expect(notifier.shown[0]).toMatchObject({ key: GROUP, title: 'Book Club', body: 'Grace reacted 🎉 to your message: "Cake on Friday"' })
  })
})
