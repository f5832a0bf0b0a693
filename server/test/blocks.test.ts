import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService, type TestUser } from './support.js'

/** Blocks B1–B5 and their effects (§5, §18.9). */

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})

afterAll(async () => {
  await service.close()
})

const pair = (caller: TestUser, other: string, user = caller.id) => ({ token: caller.token, query: { user, otherUser: other } })
const block = (caller: TestUser, other: string, user = caller.id) => service.call('POST', '/v3/blocks', pair(caller, other, user))
const list = (caller: TestUser, user = caller.id) => service.call('GET', '/v3/blocks', { token: caller.token, query: { user } })
const between = (caller: TestUser, other: string, user = caller.id) => service.call('GET', '/v3/blocks/between', pair(caller, other, user))

const UNKNOWN = '999999999'

describe('B3 block', () => {
  it('answers 201 {block} and returns an existing block again unchanged', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    const before = await service.advanceClock(0)
    const first = await block(alice, bob.id)
    expect(first.status).toBe(201)
    expect(first.body.meta).toEqual({ code: 201, errors: null })
    expect(Object.keys(first.body.response)).toEqual(['block'])
    const made = first.body.response.block
    expect(Object.keys(made).sort()).toEqual(['blocked_user_id', 'created_at', 'user_id'])
    expect(made).toMatchObject({ user_id: alice.id, blocked_user_id: bob.id })
    expect(made.created_at).toBeGreaterThanOrEqual(before)
    expect(made.created_at).toBeLessThanOrEqual(before + 2)

    await service.advanceClock(50)
    const again = await block(alice, bob.id)
    expect(again.status).toBe(201)
    expect(again.body.response.block).toEqual(made)
    expect((await list(alice)).body.response.blocks).toEqual([made])
  })

  it('refuses: 400 syntax and self, 403 another user (before 404), 404 unknown otherUser', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    // Syntax.
    expect((await service.call('POST', '/v3/blocks', { token: alice.token, query: { user: alice.id } })).status).toBe(400)
    expect((await service.call('POST', '/v3/blocks', { token: alice.token, query: { otherUser: bob.id } })).status).toBe(400)
    expect((await service.call('POST', '/v3/blocks', { token: alice.token })).status).toBe(400)
    expect((await block(alice, 'bob')).status).toBe(400)
    // Parameters belong in the query string, not the body.
    expect((await service.call('POST', '/v3/blocks', { token: alice.token, body: { user: alice.id, otherUser: bob.id } })).status).toBe(400)
    // Self.
    const self = await block(alice, alice.id)
    expect(self.status).toBe(400)
    expect(self.body).toMatchObject({ response: null, meta: { code: 400 } })
    // `user` is not the caller: 403, even when otherUser is unknown (§18.9).
    expect((await block(alice, bob.id, bob.id)).status).toBe(403)
    const forbidden = await block(alice, UNKNOWN, bob.id)
    expect(forbidden.status).toBe(403)
    expect(forbidden.body).toMatchObject({ response: null, meta: { code: 403 } })
    // Unknown otherUser.
    const unknown = await block(alice, UNKNOWN)
    expect(unknown.status).toBe(404)
    expect(unknown.body).toMatchObject({ response: null, meta: { code: 404 } })
    expect((await block(alice, `0${bob.id}`)).status).toBe(404)
    // Token first.
    expect((await service.call('POST', '/v3/blocks', { query: { user: alice.id, otherUser: bob.id } })).status).toBe(401)
    expect((await list(alice)).body.response.blocks).toEqual([])
  })
})

describe('B1 list blocks', () => {
  it('lists the caller’s blocks oldest first (creation order within a second)', async () => {
    const alice = await service.signUp()
    const [bob, carol, dave] = [await service.signUp(), await service.signUp(), await service.signUp()]
    await block(alice, carol.id)
    await block(alice, bob.id)
    await service.advanceClock(5)
    await block(alice, dave.id)
    await block(bob, alice.id)
    const result = await list(alice)
    expect(result.status).toBe(200)
    expect(Object.keys(result.body.response)).toEqual(['blocks'])
    const blocks = result.body.response.blocks
    expect(blocks.map((b: { blocked_user_id: string }) => b.blocked_user_id)).toEqual([carol.id, bob.id, dave.id])
    for (const b of blocks) expect(b.user_id).toBe(alice.id)
    expect(blocks[2].created_at).toBeGreaterThanOrEqual(blocks[0].created_at + 5)
  })

  it('refuses 400 without user, 403 for someone else’s list', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    expect((await service.call('GET', '/v3/blocks', { token: alice.token })).status).toBe(400)
    const other = await list(alice, bob.id)
    expect(other.status).toBe(403)
    expect(other.body).toMatchObject({ response: null, meta: { code: 403 } })
    expect((await list(alice, UNKNOWN)).status).toBe(403)
    expect((await service.call('GET', '/v3/blocks', { query: { user: alice.id } })).status).toBe(401)
  })
})

describe('B2 between', () => {
  it('is true when either user blocks the other', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    const none = await between(alice, bob.id)
    expect(none.status).toBe(200)
    expect(none.body).toEqual({ response: { between: false }, meta: { code: 200, errors: null } })
    await block(bob, alice.id)
    expect((await between(alice, bob.id)).body.response).toEqual({ between: true })
    expect((await between(bob, alice.id)).body.response).toEqual({ between: true })
    await service.call('DELETE', '/v3/blocks', pair(bob, alice.id))
    expect((await between(alice, bob.id)).body.response).toEqual({ between: false })
    expect((await between(alice, alice.id)).body.response).toEqual({ between: false })
  })

  it('refuses: 400 syntax, 403 another user (before 404), 404 unknown otherUser', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    expect((await service.call('GET', '/v3/blocks/between', { token: alice.token, query: { user: alice.id } })).status).toBe(400)
    expect((await service.call('GET', '/v3/blocks/between', { token: alice.token, query: { otherUser: bob.id } })).status).toBe(400)
    expect((await between(alice, bob.id, bob.id)).status).toBe(403)
    expect((await between(alice, UNKNOWN, bob.id)).status).toBe(403)
    expect((await between(alice, UNKNOWN)).status).toBe(404)
  })
})

describe('B4 and B5 unblock', () => {
  for (const [name, method, path] of [
    ['B4 DELETE /blocks', 'DELETE', '/v3/blocks'],
    ['B5 POST /blocks/delete', 'POST', '/v3/blocks/delete']
  ] as const) {
    it(`${name}: 200 {}, then 404 as there is no such block`, async () => {
      const alice = await service.signUp()
      const bob = await service.signUp()
      await block(alice, bob.id)
      await block(bob, alice.id)
      const result = await service.call(method, path, pair(alice, bob.id))
      expect(result.status).toBe(200)
      expect(result.body).toEqual({ response: {}, meta: { code: 200, errors: null } })
      expect((await list(alice)).body.response.blocks).toEqual([])
      // Bob's own block stays.
      expect((await list(bob)).body.response.blocks).toHaveLength(1)
      const again = await service.call(method, path, pair(alice, bob.id))
      expect(again.status).toBe(404)
      expect(again.body).toMatchObject({ response: null, meta: { code: 404 } })
    })

    it(`${name}: 400 syntax, 403 another user (before 404), 404 unknown otherUser`, async () => {
      const alice = await service.signUp()
      const bob = await service.signUp()
      await block(bob, alice.id)
      expect((await service.call(method, path, { token: alice.token, query: { user: alice.id } })).status).toBe(400)
      expect((await service.call(method, path, { token: alice.token, query: { otherUser: bob.id } })).status).toBe(400)
      // Alice cannot lift Bob's block by naming him as `user`.
      expect((await service.call(method, path, pair(alice, alice.id, bob.id))).status).toBe(403)
      expect((await service.call(method, path, pair(alice, UNKNOWN, bob.id))).status).toBe(403)
      expect((await service.call(method, path, pair(alice, UNKNOWN))).status).toBe(404)
      expect((await service.call(method, path, pair(alice, alice.id))).status).toBe(404)
      expect((await service.call(method, path, { query: { user: alice.id, otherUser: bob.id } })).status).toBe(401)
      expect((await list(bob)).body.response.blocks).toHaveLength(1)
    })
  }
})

describe('effects of a block (§5)', () => {
  it('refuses the blocked user’s DMs to the blocker with 403, not the other way', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    await service.sendDirectMessage(bob, alice.id, 'before')
    await block(alice, bob.id)
    const refused = await service.call('POST', '/v3/direct_messages', {
      token: bob.token,
      body: { direct_message: { source_guid: randomUUID(), recipient_id: alice.id, text: 'blocked' } }
    })
    expect(refused.status).toBe(403)
    expect(refused.body).toMatchObject({ response: null, meta: { code: 403 } })
    // The blocker may still write.
    await service.sendDirectMessage(alice, bob.id, 'from the blocker')
    await service.call('POST', '/v3/blocks/delete', pair(alice, bob.id))
    await service.sendDirectMessage(bob, alice.id, 'after unblock')
  })

  it('leaves the blocker out when the blocked user adds them to a group (MB2)', async () => {
    const alice = await service.signUp({ name: 'Blocker' })
    const bob = await service.signUp({ name: 'Blocked' })
    const carol = await service.signUp({ name: 'Carol' })
    await block(alice, bob.id)
    const group = await service.createGroup(bob, { name: 'Bob’s group' })
    const add = await service.call('POST', `/v3/groups/${group.id}/members/add`, {
      token: bob.token,
      attest: true,
      body: { members: [{ nickname: 'A', user_id: alice.id }, { nickname: 'C', user_id: carol.id }] }
    })
    expect(add.status).toBe(202)
    const results = await service.call('GET', `/v3/groups/${group.id}/members/results/${add.body.response.results_id}`, { token: bob.token })
    expect(results.status).toBe(200)
    expect(results.body.response.members.map((m: { user_id: string }) => m.user_id)).toEqual([carol.id])
    expect((await service.call('GET', `/v3/groups/${group.id}`, { token: alice.token })).status).toBe(404)

    // The blocker can add the blocked user.
    const own = await service.createGroup(alice, { name: 'Alice’s group' })
    const reverse = await service.call('POST', `/v3/groups/${own.id}/members/add`, {
      token: alice.token,
      attest: true,
      body: { members: [{ nickname: 'B', user_id: bob.id }] }
    })
    const added = await service.call('GET', `/v3/groups/${own.id}/members/results/${reverse.body.response.results_id}`, { token: alice.token })
    expect(added.body.response.members.map((m: { user_id: string }) => m.user_id)).toEqual([bob.id])
  })
})
