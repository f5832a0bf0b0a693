// Polls as main would answer them, for component tests.
import type { Poll } from '@shared/polls'

export function poll(overrides: Partial<Poll> = {}): Poll {
  return {
    id: '1000000000000001',
    conversationId: 'g1',
    subject: 'Where to?',
    ownerId: 'u1',
    expiresAt: Math.floor(Date.now() / 1000) + 3600,
    ended: false,
    multiple: false,
    anonymous: false,
    options: [
      { id: '1', title: 'Noodles', votes: 0, voters: [] },
      { id: '2', title: 'Tacos', votes: 0, voters: [] }
    ],
    myVotes: [],
    canEnd: false,
    ...overrides
  }
}
