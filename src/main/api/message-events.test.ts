import { describe, expect, it } from 'vitest'
import { toMessageEvent } from './message-events'

const alan = { id: '2', nickname: 'Alan' }
const grace = { id: '1', nickname: 'Grace' }

describe('toMessageEvent', () => {
  it.each([
    ['membership.announce.joined', { user: alan }, { kind: 'joined', user: 'Alan' }],
    ['membership.announce.rejoined', { user: alan }, { kind: 'rejoined', user: 'Alan' }],
    ['membership.announce.added', { added_users: [alan, { id: 3, nickname: 'Ada' }], adder_user: grace }, { kind: 'added', users: ['Alan', 'Ada'], by: 'Grace' }],
    ['membership.notifications.exited', { removed_user: alan }, { kind: 'left', user: 'Alan' }],
    ['membership.notifications.removed', { removed_user: alan, remover_user: grace }, { kind: 'removed', user: 'Alan', by: 'Grace' }],
    ['membership.nickname_changed', { user: alan, name: 'Al' }, { kind: 'nicknameChanged', from: 'Alan', to: 'Al' }],
    ['message.pinned', { message_id: '9', pinned: true, pinned_at: 1, pinned_by: '1' }, { kind: 'pinned', pinned: true }],
    ['poll.created', { conversation: { id: '5' }, poll: { id: '1234567890123456', subject: 'Lunch?' } }, { kind: 'pollCreated', pollId: '1234567890123456', subject: 'Lunch?' }],
    ['poll.finished', { poll: { id: '1234567890123456', subject: 'Lunch?' }, options: [] }, { kind: 'pollFinished', pollId: '1234567890123456', subject: 'Lunch?' }]
  ])('reads %s with the names it carries', (type, data, expected) => {
    expect(toMessageEvent({ type, data })).toEqual(expected)
  })

  it('reads no event from an ordinary message, an unknown type, or data it cannot use', () => {
    expect(toMessageEvent(null)).toBeNull()
    expect(toMessageEvent({ type: 'message.update', data: {} })).toBeNull()
    expect(toMessageEvent({ type: 'membership.announce.joined', data: { user: 'Alan' } })).toBeNull()
  })
})
