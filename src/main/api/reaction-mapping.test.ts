// How reactions, edits, pins, roles and deletion modes read from the service's payloads.
import { describe, expect, it } from 'vitest'
import { wireGroup, wireMessage } from './decoders'
import { groupToConversation, toMessage, toReactions } from './to-domain'

const message = { id: '7', text: 'hi', created_at: 1_700_000_000, user_id: '1', sender_id: '1', name: 'Ada', avatar_url: null }

describe('reactions, edits and pins of a message', () => {
  it('keeps unicode reactions in order, and drops emoji-pack pictures, empty entries and unreadable ones', () => {
    expect(
      toReactions([
        { type: 'unicode', code: '👍', user_ids: ['2', 3] },
        { type: 'emoji', pack_id: 1, pack_index: 4, user_ids: ['5'] },
        { type: 'unicode', code: '❤️', user_ids: [] },
        { type: 'unicode', code: '', user_ids: ['6'] },
        'junk',
        { type: 'unicode', code: '🔥', user_ids: ['9'] }
      ])
    ).toEqual([
      { emoji: '👍', userIds: ['2', '3'] },
      { emoji: '🔥', userIds: ['9'] }
    ])
    expect(toReactions(null)).toEqual([])
  })

  it('reads reactions, the edit time and the pin time onto the message, and leaves them out when absent', () => {
    const full = toMessage(
      wireMessage.parse({ ...message, reactions: [{ type: 'unicode', code: '🎉', user_ids: ['2'] }], updated_at: 1_700_000_100, pinned_at: 1_700_000_200 }),
      'g'
    )
    expect(full).toMatchObject({ reactions: [{ emoji: '🎉', userIds: ['2'] }], editedAt: 1_700_000_100, pinnedAt: 1_700_000_200 })
    const plain = toMessage(wireMessage.parse({ ...message, reactions: [], updated_at: null, pinned_at: null }), 'g')
    expect(plain).not.toHaveProperty('reactions')
    expect(plain).not.toHaveProperty('editedAt')
    expect(plain).not.toHaveProperty('pinnedAt')
  })

  it('survives an unreadable reactions list or pin time', () => {
    const odd = toMessage(wireMessage.parse({ ...message, reactions: 'many', pinned_at: { when: 'now' } }), 'g')
    expect(odd).not.toHaveProperty('reactions')
    expect(odd).not.toHaveProperty('pinnedAt')
  })
})

describe("a group's roles and deletion mode", () => {
  const group = (members: unknown[], extra: Record<string, unknown> = {}) => wireGroup.parse({ id: '5', name: 'G', members, ...extra })

  it('reads your role from your own member entry', () => {
    expect(groupToConversation(group([{ user_id: '1', roles: ['admin', 'owner'] }]), '1').myRole).toBe('owner')
    expect(groupToConversation(group([{ user_id: '1', roles: ['admin'] }]), '1').myRole).toBe('admin')
    expect(groupToConversation(group([{ user_id: '1', roles: ['user'] }]), '1').myRole).toBe('user')
    expect(groupToConversation(group([{ user_id: '1' }]), '1').myRole).toBe('user')
    expect(groupToConversation(group([{ user_id: '2', roles: ['admin'] }]), '1')).not.toHaveProperty('myRole')
  })

  it('reads the deletion mode, keeping only the actors the app knows, and leaves it out when not sent', () => {
    expect(groupToConversation(group([], { message_deletion_mode: ['sender', 'moderator'] }), '1').deletionMode).toEqual(['sender'])
    expect(groupToConversation(group([], { message_deletion_mode: [] }), '1').deletionMode).toEqual([])
    expect(groupToConversation(group([]), '1')).not.toHaveProperty('deletionMode')
    expect(groupToConversation(group([], { message_deletion_mode: 'admin' }), '1')).not.toHaveProperty('deletionMode')
  })
})
