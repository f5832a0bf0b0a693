import { describe, expect, it } from 'vitest'
import type { Message } from '@shared/messages'
import { mentions, notificationFor, shouldNotify, type Happening, type NotifyContext } from './notify-policy'

const ME = '1'
const GROUP = '42'

function message(overrides: Partial<Message> = {}): Message {
  return {
    id: '100',
    conversationId: GROUP,
    sourceGuid: 'g',
    senderId: '2',
    senderName: 'Bea',
    senderAvatarUrl: null,
    text: 'Lunch?',
    attachments: [],
    createdAt: 1_700_000_000,
    system: false,
    aboutUserIds: [],
    deleted: false,
    ...overrides
  }
}

const context: NotifyContext = {
  meId: ME,
  myNames: ['Ada Lovelace', 'ada'],
  lookingAt: null,
  status: 'active',
  globallyMuted: false,
  conversationMuted: false,
  enabled: true
}

const aMessage = (overrides: Partial<Message> = {}): Happening => ({ kind: 'message', message: message(overrides) })
const aReaction = (overrides: { reactorId?: string; onMessageBy?: string } = {}): Happening => ({
  kind: 'reaction',
  conversationId: GROUP,
  reactorId: overrides.reactorId ?? '2',
  reactorName: 'Bea',
  emoji: '❤️',
  message: message({ senderId: overrides.onMessageBy ?? ME, senderName: 'Ada' })
})
const mention = aMessage({ text: '@ada can you look?' })

describe('shouldNotify', () => {
  it.each<[string, Happening, Partial<NotifyContext>, boolean]>([
    ['a message from someone else', aMessage(), {}, true],
    ['your own message', aMessage({ senderId: ME }), {}, false],
    ['a deleted message', aMessage({ deleted: true }), {}, false],
    ['a system message about others', aMessage({ system: true, senderId: 'system', aboutUserIds: ['3'] }), {}, false],
    ['a system message about you (added, removed)', aMessage({ system: true, senderId: 'system', aboutUserIds: [ME] }), {}, true],
    ['while the window shows that conversation', aMessage(), { lookingAt: GROUP }, false],
    ['while the window shows another conversation', aMessage(), { lookingAt: '43' }, true],
    ['while Away', aMessage(), { status: 'away' }, true],
    ['during Do not disturb', aMessage(), { status: 'dnd' }, false],
    ['under a global mute', aMessage(), { globallyMuted: true }, false],
    ['with desktop notifications turned off', aMessage(), { enabled: false }, false],
    ['in a muted conversation', aMessage(), { conversationMuted: true }, false],
    ['a mention in a muted conversation', mention, { conversationMuted: true }, true],
    ['a mention during Do not disturb', mention, { status: 'dnd' }, false],
    ['a mention under a global mute', mention, { globallyMuted: true }, false],
    ['a reaction to your message', aReaction(), {}, true],
    ['a reaction to your message in a muted conversation', aReaction(), { conversationMuted: true }, true],
    ['a reaction to your message during Do not disturb', aReaction(), { status: 'dnd' }, false],
    ['a reaction to your message under a global mute', aReaction(), { globallyMuted: true }, false],
    ['a reaction to someone else’s message', aReaction({ onMessageBy: '3' }), {}, false],
    ['your own reaction to your message', aReaction({ reactorId: ME }), {}, false],
    ['a reaction while the window shows that conversation', aReaction(), { lookingAt: GROUP }, false]
  ])('%s → %s', (_case, happening, overrides, expected) => {
    expect(shouldNotify(happening, { ...context, ...overrides })).toBe(expected)
  })
})

describe('mentions', () => {
  it.each<[string, boolean]>([
    ['@Ada Lovelace, lunch?', true],
    ['lunch, @ADA?', true],
    ['@ada', true],
    ['(@ada)', true],
    ['@adam is here', false],
    ['mail ada@example.com', false],
    ['ada, lunch?', false],
    ['x@ada', false]
  ])('%s → %s', (text, expected) => {
    expect(mentions(text, ['Ada Lovelace', 'ada'])).toBe(expected)
  })

  it('ignores an empty nickname', () => {
    expect(mentions('@ hello', ['', '  '])).toBe(false)
  })

  it('finds a nickname as it is seen, whatever invisible direction marks it was pasted with', () => {
    expect(mentions('@Dana שלום, lunch?', ['Dana \u200fשלום\u200e'])).toBe(true)
    expect(mentions('@Dana\u200e, lunch?', ['Dana'])).toBe(true)
  })
})

describe('notificationFor', () => {
  const options = { conversationName: 'Climbing', unseen: 1, showMessageText: true }

  it('titles a group message with the group and prefixes the sender', () => {
    expect(notificationFor(aMessage(), options)).toEqual({ title: 'Climbing', body: 'Bea: Lunch?' })
  })

  it('titles a direct message with the sender', () => {
    expect(notificationFor(aMessage({ conversationId: '1+2' }), { ...options, conversationName: 'Bea' })).toEqual({ title: 'Bea', body: 'Lunch?' })
  })

  it('describes a message that has only a picture', () => {
    const picture = aMessage({ text: '', attachments: [{ type: 'image', url: 'http://x/image/i/1' }] })
    expect(notificationFor(picture, options).body).toBe('Bea: sent a picture')
  })

  it('counts what one notification stands for', () => {
    expect(notificationFor(aMessage(), { ...options, unseen: 3 })).toEqual({ title: 'Climbing', body: '3 new messages in Climbing' })
    expect(notificationFor(aMessage({ conversationId: '1+2' }), { ...options, conversationName: 'Bea', unseen: 2 })).toEqual({
      title: 'Bea',
      body: '2 new messages'
    })
  })

  it('says who wrote but not what when message text is hidden', () => {
    expect(notificationFor(aMessage(), { ...options, showMessageText: false })).toEqual({ title: 'Climbing', body: 'New message from Bea' })
  })

  it('tells of a reaction, quoting the message only when text is shown', () => {
    expect(notificationFor(aReaction(), options).body).toBe('Bea reacted ❤️ to your message: "Lunch?"')
    expect(notificationFor(aReaction(), { ...options, showMessageText: false }).body).toBe('Bea reacted ❤️ to your message')
  })

  it('names who reacted by the chat\'s name in a chat, and as Someone in a group that could not say', () => {
    const reaction = aReaction() as Extract<Happening, { kind: 'reaction' }>
    const inChat: Happening = { ...reaction, reactorName: null, conversationId: '1+2', message: message({ conversationId: '1+2', senderId: ME }) }
    expect(notificationFor(inChat, { ...options, conversationName: 'Bea' })).toEqual({ title: 'Bea', body: 'Bea reacted ❤️ to your message: "Lunch?"' })
    expect(notificationFor({ ...reaction, reactorName: null }, options).body).toBe('Someone reacted ❤️ to your message: "Lunch?"')
  })

  it('names no character for a reaction with a picture from an emoji pack', () => {
    const pictured: Happening = { ...(aReaction() as Extract<Happening, { kind: 'reaction' }>), emoji: null }
    expect(notificationFor(pictured, options).body).toBe('Bea reacted to your message: "Lunch?"')
  })
})
