import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { chatIdOf, groupMessages, groupWith } from './messaging-support.js'
import { startTestService, type Json } from './support.js'

/** Edits, deletions, pins, reactions and polls survive a restart on the same database (§1). */

const dir = mkdtempSync(join(tmpdir(), 'service-messaging-'))

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('restart on the same database file', () => {
  it('keeps edits, tombstones, pins, reactions, polls and votes, and finishes polls that expired meanwhile', async () => {
    const db = join(dir, 'state.db')
    const first = await startTestService({ db })
    const alice = await first.signUp({ name: 'Alice' })
    const bob = await first.signUp({ name: 'Bob' })
    const group = await groupWith(first, alice, [bob])
    const edited = await first.sendGroupMessage(alice, group, 'draft')
    const deleted = await first.sendGroupMessage(bob, group, 'oops')
    const pinned = await first.sendGroupMessage(bob, group, 'keep')
    expect((await first.call('PUT', `/v4/groups/${group}/messages/${edited.id}`, { token: alice.token, body: { text: 'final' } })).status).toBe(200)
    expect((await first.call('DELETE', `/v3/conversations/${group}/messages/${deleted.id}`, { token: bob.token })).status).toBe(204)
    expect((await first.call('POST', `/v3/conversations/${group}/messages/${pinned.id}/pin`, { token: alice.token })).status).toBe(200)
    const like = { like_icon: { type: 'unicode', code: '🎉' } }
    expect((await first.call('POST', `/v3/messages/${group}/${pinned.id}/like`, { token: alice.token, body: like })).status).toBe(200)
    expect((await first.call('POST', `/v3/messages/${group}/${pinned.id}/like`, { token: bob.token })).status).toBe(200)
    const dm = await first.sendDirectMessage(alice, bob.id, 'dm')
    const chat = chatIdOf(alice, bob)
    expect((await first.call('POST', `/v3/conversations/${chat}/messages/${dm.id}/pin`, { token: bob.token })).status).toBe(200)
    const now = await first.advanceClock(0)
    const pollBody = (expiration: number) => ({
      subject: 'Durable?',
      options: [{ title: 'yes' }, { title: 'no' }],
      expiration,
      type: 'single',
      visibility: 'public'
    })
    const lasting = (await first.call('POST', `/v3/poll/${group}`, { token: alice.token, body: pollBody(now + 3600) })).body.response.poll.data
    const brief = (await first.call('POST', `/v3/poll/${group}`, { token: alice.token, body: pollBody(now + 2) })).body.response.poll.data
    expect((await first.call('POST', `/v3/poll/${group}/${lasting.id}/1`, { token: bob.token })).status).toBe(200)
    const before = await groupMessages(first, alice, group)
    const likedBefore = (await first.call('GET', `/v3/groups/${group}/likes/mine`, { token: alice.token })).body.response
    await first.close()

    // The short poll expires while the service is down.
    await new Promise((resolve) => setTimeout(resolve, 2500))
    const second = await startTestService({ db })
    try {
      // Startup finishes it (at most a moment later), exactly once.
      const finished = async (): Promise<Json[]> =>
        (await groupMessages(second, alice, group)).filter((m) => m.event?.type === 'poll.finished' && m.event.data.poll.id === brief.id)
      for (let i = 0; i < 20 && (await finished()).length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 100))
      expect(await finished()).toHaveLength(1)

      const after = await groupMessages(second, alice, group)
      expect(after.slice(after.length - before.length)).toEqual(before)
      const show = async (id: string): Promise<Json> =>
        (await second.call('GET', `/v4/groups/${group}/messages/${id}`, { token: bob.token })).body.message
      expect(await show(edited.id)).toMatchObject({ text: 'final', updated_at: expect.any(Number) })
      expect(await show(deleted.id)).toMatchObject({ text: 'This message was deleted', deletion_actor: 'sender' })
      expect(await show(pinned.id)).toMatchObject({
        pinned_by: alice.id,
        favorited_by: [alice.id, bob.id],
        reactions: [
          { type: 'unicode', code: '🎉', user_ids: [alice.id] },
          { type: 'unicode', code: '\u2764\uFE0F', user_ids: [bob.id] }
        ]
      })
      expect((await second.call('GET', `/v3/pinned/groups/${group}/messages`, { token: bob.token })).body.response.count).toBe(1)
      expect((await second.call('GET', '/v3/pinned/direct_messages', { token: alice.token, query: { other_user_id: bob.id } })).body.response.count).toBe(1)
      expect((await second.call('GET', `/v3/groups/${group}/likes/mine`, { token: alice.token })).body.response).toEqual(likedBefore)

      const poll = (await second.call('GET', `/v3/poll/${group}/${lasting.id}`, { token: bob.token })).body.response.poll
      expect(poll.user_votes).toEqual(['1'])
      expect(poll.data).toMatchObject({ status: 'active', options: [{ id: '1', title: 'yes', votes: 1, voter_ids: [bob.id] }, { id: '2', title: 'no' }] })
      expect((await second.call('GET', `/v3/poll/${group}/${brief.id}`, { token: bob.token })).body.response.poll.data.status).toBe('past')
      // New polls keep increasing ids; the lasting poll still ends once.
      const next = (await second.call('POST', `/v3/poll/${group}`, { token: alice.token, body: pollBody((await second.advanceClock(0)) + 60) })).body.response.poll.data
      expect(next.id > brief.id).toBe(true)
      expect((await second.call('POST', `/v3/poll/${group}/${lasting.id}/end`, { token: alice.token })).status).toBe(200)
      await second.advanceClock(3600)
      const finishedAll = (await groupMessages(second, alice, group)).filter((m) => m.event?.type === 'poll.finished')
      expect(finishedAll.map((m) => m.event.data.poll.id).sort()).toEqual([brief.id, lasting.id, next.id].sort())
    } finally {
      await second.close()
    }
  })
})
