import { describe, expect, it } from 'vitest'
import type { Message } from '../../shared/domain'
import { notificationFor, shouldNotify } from './notify-policy'

function message(overrides: Partial<Message> = {}): Message {
  return {
    id: '100000000000000001',
    conversationId: '42',
    sourceGuid: 'guid-1',
    senderId: '2',
    senderName: 'Bea',
    senderAvatarUrl: null,
    text: 'Lunch?',
    attachments: [],
    createdAt: 1_700_000_000,
    system: false,
    deleted: false,
    ...overrides
  }
}

describe('shouldNotify', () => {
  it('notifies of a message from someone else while the window is in the background', () => {
    expect(shouldNotify(message(), { meId: '1', windowFocused: false })).toBe(true)
  })

  it('stays quiet while the user is looking at the app', () => {
    expect(shouldNotify(message(), { meId: '1', windowFocused: true })).toBe(false)
  })

  it('never notifies of the user’s own messages', () => {
    expect(shouldNotify(message({ senderId: '1' }), { meId: '1', windowFocused: false })).toBe(false)
  })

  it('never notifies of system messages', () => {
    expect(shouldNotify(message({ system: true, senderId: 'system' }), { meId: '1', windowFocused: false })).toBe(false)
  })
})

describe('notificationFor', () => {
  it('titles a group message with the group and prefixes the sender', () => {
    expect(notificationFor(message(), 'Climbing')).toEqual({ title: 'Climbing', body: 'Bea: Lunch?' })
  })

  it('titles a direct message with the sender', () => {
    expect(notificationFor(message({ conversationId: '1+2' }), 'Bea')).toEqual({ title: 'Bea', body: 'Lunch?' })
  })

  it('describes a message that has only a picture', () => {
    const picture = message({ text: '', attachments: [{ type: 'image', url: 'http://x/image/i/1' }] })
    expect(notificationFor(picture, 'Climbing').body).toBe('Bea: sent a picture')
  })
})
