import { describe, expect, it } from 'vitest'
import { toPoll, type PollViewer } from './poll-to-domain'
import type { WirePoll } from './polls'

const NOW = 1_750_000_000

function wire(overrides: Partial<WirePoll['data']> = {}, userVotes: string[] | null = null): WirePoll {
  return {
    data: {
      id: '1000000000000001',
      subject: 'Where to?',
      owner_id: '1',
      conversation_id: '42',
      expiration: NOW + 60,
      status: 'active',
      type: 'single',
      visibility: 'public',
      options: [
        { id: '1', title: 'Noodles', votes: null, voter_ids: null },
        { id: '2', title: 'Tacos', votes: 2, voter_ids: ['2', '9'] }
      ],
      ...overrides
    },
    user_votes: userVotes
  }
}

const viewer = (id: string, administers = false): PollViewer => ({
  id,
  administers,
  nicknameOf: (userId) => ({ '1': 'Grace', '2': 'Alan' })[userId] ?? null
})

describe('toPoll', () => {
  it('reads counts left out at 0, names voters by nickname, and keeps the user votes', () => {
    const poll = toPoll(wire({}, ['2']), viewer('2'), NOW)
    expect(poll.options).toEqual([
      { id: '1', title: 'Noodles', votes: 0, voters: [] },
      { id: '2', title: 'Tacos', votes: 2, voters: [{ id: '2', name: 'Alan' }, { id: '9', name: '' }] }
    ])
    expect(poll).toMatchObject({ myVotes: ['2'], ended: false, multiple: false, anonymous: false, canEnd: false })
  })

  it('lets the owner or an admin end an open poll, and nobody end an ended one', () => {
    expect(toPoll(wire(), viewer('1'), NOW).canEnd).toBe(true)
    expect(toPoll(wire(), viewer('3', true), NOW).canEnd).toBe(true)
    expect(toPoll(wire({ status: 'past' }), viewer('1'), NOW)).toMatchObject({ ended: true, canEnd: false })
  })

  it('reads a poll past its expiry as ended even before the service says so', () => {
    expect(toPoll(wire({ expiration: NOW }), viewer('1'), NOW).ended).toBe(true)
  })

  it('reads multi and anonymous', () => {
    expect(toPoll(wire({ type: 'multi', visibility: 'anonymous' }), viewer('1'), NOW)).toMatchObject({ multiple: true, anonymous: true })
  })
})
