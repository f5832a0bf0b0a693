import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService, type TestUser } from './support.js'

let service: TestService
let alice: TestUser
let bob: TestUser
let carol: TestUser

beforeAll(async () => {
  service = await startTestService()
  ;[alice, bob, carol] = await Promise.all([service.signUp({ name: 'Alice' }), service.signUp({ name: 'Bob' }), service.signUp({ name: 'Carol' })])
})

afterAll(async () => {
  await service.close()
})

const send = (from: TestUser, body: unknown) => service.call('POST', '/v3/direct_messages', { token: from.token, body: { direct_message: body } })
const chatId = (a: TestUser, b: TestUser): string => [a.id, b.id].sort((x, y) => Number(x) - Number(y)).join('+')

describe('C3 send a direct message', () => {
  it('answers 201 with the same message under both keys', async () => {
    const guid = randomUUID()
    const result = await send(alice, { source_guid: guid, recipient_id: bob.id, text: 'Hi Bob' })
    expect(result.status).toBe(201)
    const { direct_message: dm, message } = result.body.response
    expect(message).toEqual(dm)
    expect(dm).toMatchObject({
      id: expect.stringMatching(/^[1-9][0-9]{17}$/),
      source_guid: guid,
      user_id: alice.id,
      sender_id: alice.id,
      sender_type: 'user',
      name: 'Alice',
      text: 'Hi Bob',
      system: false,
      chat_id: chatId(alice, bob),
      conversation_id: chatId(alice, bob),
      recipient_id: bob.id,
      attachments: [],
      favorited_by: [],
      reactions: []
    })
    expect(dm.group_id).toBeUndefined()
  })

  it('refuses self, bad bodies (400) and unknown recipients (404)', async () => {
    expect((await send(alice, { source_guid: 'g1', recipient_id: alice.id, text: 'me' })).status).toBe(400)
    expect((await send(alice, { source_guid: 'g2', text: 'nobody' })).status).toBe(400)
    expect((await send(alice, { source_guid: 'g3', recipient_id: Number(bob.id), text: 'number' })).status).toBe(400)
    expect((await send(alice, { source_guid: 'g4', recipient_id: bob.id })).status).toBe(400)
    expect((await send(alice, { source_guid: 'g5', recipient_id: '99999999', text: 'ghost' })).status).toBe(404)
  })

  it('applies the 60 s source_guid rule per chat', async () => {
    const guid = randomUUID()
    expect((await send(alice, { source_guid: guid, recipient_id: carol.id, text: 'one' })).status).toBe(201)
    expect((await send(alice, { source_guid: guid, recipient_id: carol.id, text: 'two' })).status).toBe(409)
    expect((await send(carol, { source_guid: guid, recipient_id: alice.id, text: 'other sender' })).status).toBe(201)
  })
})

describe('C1 chats and C2 history', () => {
  it('lists chats by last activity with the §15.5 shape', async () => {
    const dave = await service.signUp({ name: 'Dave' })
    const erin = await service.signUp({ name: 'Erin' })
    expect((await service.call('GET', '/v3/chats', { token: dave.token })).body.response).toEqual([])
    await service.sendDirectMessage(dave, erin.id, 'first')
    await service.sendDirectMessage(dave, alice.id, 'to alice')
    await service.advanceClock(2)
    const last = await service.sendDirectMessage(erin, dave.id, 'reply')
    const chats = await service.call('GET', '/v3/chats', { token: dave.token })
    expect(chats.status).toBe(200)
    expect(chats.body.response).toHaveLength(2)
    expect(chats.body.response[0]).toEqual({
      created_at: expect.any(Number),
      updated_at: last.created_at,
      messages_count: 2,
      last_message: last,
      other_user: { id: erin.id, name: 'Erin', avatar_url: null },
      message_deletion_mode: ['sender'],
      message_edit_period: 15
    })
    expect(chats.body.response[1].other_user.id).toBe(alice.id)
    const paged = await service.call('GET', '/v3/chats', { token: dave.token, query: { page: '2', per_page: '1' } })
    expect(paged.body.response.map((c: { other_user: { id: string } }) => c.other_user.id)).toEqual([alice.id])
    expect((await service.call('GET', '/v3/chats', { token: dave.token, query: { per_page: '0' } })).status).toBe(400)
  })

  it('pages the history of a chat and answers 304 when empty', async () => {
    const frank = await service.signUp({ name: 'Frank' })
    const history = (query: Record<string, string>, user = frank) => service.call('GET', '/v3/direct_messages', { token: user.token, query })
    expect((await history({ other_user_id: bob.id })).status).toBe(304)
    const sent = []
    for (let i = 0; i < 4; i++) sent.push(await service.sendDirectMessage(i % 2 === 0 ? frank : bob, i % 2 === 0 ? bob.id : frank.id, `d${i}`))
    const all = await history({ other_user_id: bob.id })
    expect(all.status).toBe(200)
    expect(all.body.response.count).toBe(4)
    expect(all.body.response.direct_messages.map((m: { text: string }) => m.text)).toEqual(['d3', 'd2', 'd1', 'd0'])
    const fromBob = await history({ other_user_id: frank.id }, bob)
    expect(fromBob.body.response.direct_messages).toEqual(all.body.response.direct_messages)
    const after = await history({ other_user_id: bob.id, after_id: sent[0].id, limit: '2' })
    expect(after.body.response.direct_messages.map((m: { text: string }) => m.text)).toEqual(['d1', 'd2'])
    expect((await history({})).status).toBe(400)
    expect((await history({ other_user_id: 'abc' })).status).toBe(400)
    expect((await history({ other_user_id: frank.id })).status).toBe(400)
    expect((await history({ other_user_id: '99999999' })).status).toBe(404)
  })
})
