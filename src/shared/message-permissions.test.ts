import { describe, expect, it } from 'vitest'
import type { Conversation } from './conversations'
import type { Message } from './messages'
import { canDelete, canEdit, canReactOrPin, EDIT_WINDOW_SECONDS } from './message-permissions'

const SENT_AT = 1_700_000_000

function message(overrides: Partial<Message> = {}): Message {
  return {
    id: '10',
    conversationId: 'g',
    sourceGuid: 's',
    senderId: 'me',
    senderName: 'Me',
    senderAvatarUrl: null,
    text: 'hello',
    attachments: [],
    createdAt: SENT_AT,
    system: false,
    aboutUserIds: [],
    deleted: false,
    ...overrides
  }
}

function group(overrides: Partial<Conversation> = {}): Conversation {
  return {
    id: 'g',
    kind: 'group',
    name: 'G',
    avatarUrl: null,
    lastActivityAt: 0,
    lastMessageId: null,
    preview: null,
    unreadCount: 0,
    mute: null,
    ...overrides
  }
}

describe('what the view offers on a message', () => {
  it('offers Edit on your own message up to the end of the 15 minutes, and not after', () => {
    expect(canEdit(message(), 'me', SENT_AT + EDIT_WINDOW_SECONDS)).toBe(true)
    expect(canEdit(message(), 'me', SENT_AT + EDIT_WINDOW_SECONDS + 1)).toBe(false)
  })

  it("offers no Edit on someone else's message, a system message, a poll or a tombstone", () => {
    expect(canEdit(message({ senderId: 'other' }), 'me', SENT_AT)).toBe(false)
    expect(canEdit(message({ system: true }), 'me', SENT_AT)).toBe(false)
    expect(canEdit(message({ attachments: [{ type: 'poll', pollId: '1' }] }), 'me', SENT_AT)).toBe(false)
    expect(canEdit(message({ deleted: true }), 'me', SENT_AT)).toBe(false)
  })

  it('offers Delete as the deletion mode says: the sender, an admin or the owner', () => {
    const others = message({ senderId: 'other' })
    expect(canDelete(message(), 'me', group())).toBe(true)
    expect(canDelete(others, 'me', group({ myRole: 'user' }))).toBe(false)
    expect(canDelete(others, 'me', group({ myRole: 'admin' }))).toBe(true)
    expect(canDelete(others, 'me', group({ myRole: 'owner', deletionMode: ['admin'] }))).toBe(true)
    expect(canDelete(message(), 'me', group({ myRole: 'user', deletionMode: ['admin'] }))).toBe(false)
    expect(canDelete(others, 'me', group({ myRole: 'owner', deletionMode: ['sender'] }))).toBe(false)
    expect(canDelete(message(), 'me', group({ myRole: 'owner', deletionMode: [] }))).toBe(false)
  })

  it('lets only the sender delete in a chat, whatever a group would say', () => {
    const chat = group({ kind: 'dm', deletionMode: ['admin'], myRole: 'owner' })
    expect(canDelete(message(), 'me', chat)).toBe(true)
    expect(canDelete(message({ senderId: 'other' }), 'me', chat)).toBe(false)
  })

  it('never offers Delete on a system message or a tombstone, nor React or Pin on a tombstone', () => {
    expect(canDelete(message({ system: true }), 'me', group({ myRole: 'owner' }))).toBe(false)
    expect(canDelete(message({ deleted: true }), 'me', group())).toBe(false)
    expect(canReactOrPin(message({ deleted: true }))).toBe(false)
    expect(canReactOrPin(message({ system: true }))).toBe(true)
  })
})
