import { describe, expect, it } from 'vitest'
import { directMessageEnvelope, unixSeconds, wireChat, wireGroup, wireMessage, wireTokenResult } from './decoders'
import { chatToConversation, groupToConversation, toMessage } from './to-domain'

const message = {
  id: '175141257527047935',
  text: 'hi',
  created_at: 1751412575,
  source_guid: 'g-1',
  user_id: '93645911',
  sender_id: '93645911',
  sender_type: 'user',
  name: 'Isaac',
  avatar_url: null,
  system: false,
  attachments: [{ type: 'image', url: 'http://x/i/1' }, { type: 'video', url: 'http://x/v' }],
  favorited_by: [],
  group_id: '108466446'
}

describe('wire decoders', () => {
  it('coerce the loose shapes old recordings use', () => {
    const decoded = wireMessage.parse({ ...message, id: 12345, group_id: 678, created_at: '1438605511', text: null, name: null })
    expect(decoded).toMatchObject({ id: '12345', group_id: '678', created_at: 1438605511, text: '', name: null })
    expect(unixSeconds.parse('2024-10-01T20:38:31.690372Z')).toBe(1727815111)
  })

  it('keep unknown keys and survive odd types in fields the app only displays', () => {
    const decoded = wireMessage.parse({ ...message, platform: 'gm', avatar_url: 42, attachments: 'nope', system: 'x' })
    expect(decoded).toMatchObject({ platform: 'gm', avatar_url: null, attachments: null, system: null })
  })

  it('refuse a message without the fields the app relies on', () => {
    expect(wireMessage.safeParse({ ...message, id: undefined }).success).toBe(false)
    expect(wireMessage.safeParse({ ...message, id: '' }).success).toBe(false)
    expect(wireMessage.safeParse({ ...message, text: { rich: true } }).success).toBe(false)
    expect(wireMessage.safeParse({ ...message, created_at: 'yesterday' }).success).toBe(false)
    expect(wireTokenResult.safeParse({ user_id: '1' }).success).toBe(false)
    expect(wireGroup.safeParse({ name: 'no id' }).success).toBe(false)
  })

  it('take C3 answers under either key', () => {
    expect(directMessageEnvelope.parse({ message }).id).toBe(message.id)
    expect(directMessageEnvelope.parse({ direct_message: message, message }).id).toBe(message.id)
    expect(directMessageEnvelope.safeParse({}).success).toBe(false)
  })
})

describe('domain mapping', () => {
  it('maps a message and drops attachment kinds the app cannot show', () => {
    expect(toMessage(wireMessage.parse(message), '108466446')).toEqual({
      id: '175141257527047935',
      conversationId: '108466446',
      sourceGuid: 'g-1',
      senderId: '93645911',
      senderName: 'Isaac',
      senderAvatarUrl: null,
      text: 'hi',
      attachments: [{ type: 'image', url: 'http://x/i/1' }],
      createdAt: 1751412575,
      system: false,
      aboutUserIds: [],
      deleted: false
    })
  })

  it('marks tombstones and system messages', () => {
    const tombstone = toMessage(wireMessage.parse({ ...message, deleted_at: '2025-07-01T23:40:22.8912Z', deletion_actor: 'sender' }), 'g')
    expect(tombstone.deleted).toBe(true)
    const system = toMessage(wireMessage.parse({ ...message, user_id: 'system', sender_id: 'system', sender_type: 'system', system: true }), 'g')
    expect(system).toMatchObject({ system: true, senderId: 'system', aboutUserIds: [] })
  })

  it('names who a system message is about: the added, the joined, the removed', () => {
    const about = (event: unknown): string[] =>
      toMessage(wireMessage.parse({ ...message, sender_type: 'system', system: true, event }), 'g').aboutUserIds
    expect(about({ type: 'membership.announce.added', data: { adder_user: { id: 5 }, added_users: [{ id: 7 }, { id: '8' }] } })).toEqual(['7', '8'])
    expect(about({ type: 'membership.announce.joined', data: { user: { id: '9' } } })).toEqual(['9'])
    expect(about({ type: 'membership.notifications.removed', data: { remover_user: { id: '5' }, removed_user: { id: '6' } } })).toEqual(['6'])
    expect(about({ type: 'group.name_change', data: { user: { id: '5' } } })).toEqual([])
    expect(about({ type: 'membership.announce.added', data: 'junk' })).toEqual([])
  })

  it('names what a last message of no words carries, where the list can say it', () => {
    const lastWith = (attachments: unknown[]) =>
      chatToConversation(
        wireChat.parse({ created_at: 1, updated_at: 50, other_user: { id: '9', name: 'Ada', avatar_url: '' }, last_message: { ...message, id: '77', text: null, name: 'Ada', attachments } }),
        '10'
      ).preview
    expect(lastWith([{ type: 'location', lat: '51.5', lng: '-0.12', name: 'Trailhead' }])).toEqual({ senderName: 'Ada', text: '', hasAttachments: true, attachmentKind: 'location' })
    expect(lastWith([{ type: 'image', url: 'http://127.0.0.1:8080/image/i/0123456789abcdef' }])?.attachmentKind).toBe('picture')
    // A kind this app does not show still counts as an attachment, unnamed.
    expect(lastWith([{ type: 'split', token: 'x' }])).toEqual({ senderName: 'Ada', text: '', hasAttachments: true })
  })

  it('names a DM conversation after the other user', () => {
    const chat = wireChat.parse({
      created_at: 1,
      updated_at: 50,
      messages_count: 2,
      other_user: { id: '9', name: 'Ada', avatar_url: '' },
      last_message: { ...message, id: '77', text: 'yo', name: 'Ada', attachments: [] }
    })
    expect(chatToConversation(chat, '10')).toEqual({
      id: '9+10',
      kind: 'dm',
      name: 'Ada',
      avatarUrl: null,
      lastActivityAt: 50,
      lastMessageId: '77',
      preview: { senderName: 'Ada', text: 'yo', hasAttachments: false },
      unreadCount: 0,
      mute: null,
      messageCount: 2
    })
  })

  it('falls back to the creation time when a group has no messages', () => {
    const group = wireGroup.parse({
      id: '1',
      name: 'G',
      created_at: 100,
      messages: { count: 0, last_message_id: null, last_message_created_at: null, preview: { nickname: null, text: null, image_url: null, attachments: [] } }
    })
    expect(groupToConversation(group, '7')).toMatchObject({ lastActivityAt: 100, lastMessageId: null, preview: null, messageCount: 0 })
  })

  it('carries the message count the service gives, and none when it gives none', () => {
    expect(groupToConversation(wireGroup.parse({ id: '1', name: 'G', messages: { count: 10_000 } }), '7').messageCount).toBe(10_000)
    expect(groupToConversation(wireGroup.parse({ id: '1', name: 'G' }), '7')).not.toHaveProperty('messageCount')
  })

  it('reads the caller\'s mute and nickname from their own member entry, and nothing from others\'', () => {
    const member = (userId: string, nickname: string, muted: boolean) => ({ id: `m${userId}`, user_id: userId, nickname, name: 'x', muted, roles: ['user'] })
    const group = (members: unknown) => wireGroup.parse({ id: '1', name: 'G', created_at: 100, members })
    const muted = group([member('5', 'Babbage', false), member('7', 'Countess', true)])
    expect(groupToConversation(muted, '7')).toMatchObject({ mute: { until: null }, myNickname: 'Countess' })
    expect(groupToConversation(muted, '5')).toMatchObject({ mute: null, myNickname: 'Babbage' })

    const notListed = groupToConversation(group(null), '7')
    expect(notListed.mute).toBeNull()
    expect(notListed).not.toHaveProperty('myNickname')
    // A numeric id (old payloads) is still the caller; an unreadable entry is passed over.
    expect(groupToConversation(group(['junk', { ...member('7', 'Countess', true), user_id: 7 }]), '7')).toMatchObject({ mute: { until: null } })
    expect(groupToConversation(group([{ user_id: '7', muted: 'yes' }]), '7')).toMatchObject({ mute: null })
  })
})
