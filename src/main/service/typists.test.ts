import { describe, expect, it } from 'vitest'
import type { WireGroup } from '../api/decoders'
import { quietLog } from '../../../tests/support/memory-platform'
import { typistOf } from './typists'

const group = { id: '42', name: 'Lunch club', members: [{ id: '7', user_id: '2', nickname: 'Alan', roles: [] }] } as unknown as WireGroup

function event(conversationId: string | null, userId: string): { channel: string; conversationId: string | null; userId: string; startedAt: number } {
  return { channel: '/group/42', conversationId, userId, startedAt: 1_750_000_000_000 }
}

describe('typistOf', () => {
  it('names a typist in a group by their nickname there', async () => {
    const typist = await typistOf(event('42', '2'), { meId: '1', group: async () => group, log: quietLog })
    expect(typist).toEqual({ conversationId: '42', userId: '2', name: 'Alan', at: 1_750_000_000_000 })
  })

  it("leaves the name to core when the group cannot be read, rather than dropping the typist", async () => {
    const typist = await typistOf(event('42', '2'), {
      meId: '1',
      group: async () => {
        throw new Error('offline')
      },
      log: quietLog
    })
    expect(typist).toMatchObject({ userId: '2', name: '' })
  })

  it('leaves a chat typist unnamed, for core to name by the chat, and ignores the user and channels without a conversation', async () => {
    const lookUp = async (): Promise<WireGroup> => {
      throw new Error('a chat has no group')
    }
    expect(await typistOf(event('1+2', '2'), { meId: '1', group: lookUp, log: quietLog })).toMatchObject({ name: '' })
    expect(await typistOf(event('42', '1'), { meId: '1', group: lookUp, log: quietLog })).toBeNull()
    expect(await typistOf(event(null, '2'), { meId: '1', group: lookUp, log: quietLog })).toBeNull()
  })
})
