import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService, type TestUser } from './support.js'

let service: TestService
let alice: TestUser
let stranger: TestUser
let groupId: string

beforeAll(async () => {
  service = await startTestService()
  alice = await service.signUp({ name: 'Alice' })
  stranger = await service.signUp({ name: 'Stranger' })
  groupId = (await service.createGroup(alice, { name: 'Messages' })).id
})

afterAll(async () => {
  await service.close()
})

const post = (user: TestUser, group: string, message: unknown) =>
  service.call('POST', `/v3/groups/${group}/messages`, { token: user.token, body: { message } })

describe('MS2 send', () => {
  it('creates a message with the §15.1 shape', async () => {
    const guid = randomUUID()
    const result = await post(alice, groupId, { source_guid: guid, text: 'Hello world' })
    expect(result.status).toBe(201)
    const message = result.body.response.message
    expect(message).toEqual({
      id: expect.stringMatching(/^[1-9][0-9]{17}$/),
      source_guid: guid,
      created_at: expect.any(Number),
      user_id: alice.id,
      sender_id: alice.id,
      sender_type: 'user',
      name: 'Alice',
      avatar_url: null,
      text: 'Hello world',
      system: false,
      favorited_by: [],
      reactions: [],
      attachments: [],
      updated_at: null,
      deleted_at: null,
      deletion_actor: null,
      pinned_at: null,
      pinned_by: null,
      parent_id: null,
      picture_url: null,
      location: { lat: '', lng: '', name: null },
      group_id: groupId
    })
  })

  it('gives strictly increasing 18-digit ids', async () => {
    const ids: string[] = []
    for (let i = 0; i < 5; i++) ids.push((await service.sendGroupMessage(alice, groupId, `n${i}`)).id)
    expect([...ids].sort()).toEqual(ids)
    expect(new Set(ids).size).toBe(ids.length)
  })

  it('validates text and attachments', async () => {
    const guid = (): string => randomUUID()
    for (const message of [
      {},
      { text: 'no guid' },
      { source_guid: '', text: 'x' },
      { source_guid: guid() },
      { source_guid: guid(), text: '' },
      { source_guid: guid(), text: null, attachments: [] },
      { source_guid: guid(), text: 'x'.repeat(1001) },
      { source_guid: guid(), text: 5 },
      { source_guid: guid(), attachments: [{ type: 'poll', poll_id: '1' }] },
      { source_guid: guid(), attachments: [{ type: 'video', url: 'x' }] },
      { source_guid: guid(), attachments: [{ type: 'image', url: 'https://elsewhere.test/a.png' }] },
      { source_guid: guid(), attachments: [{ type: 'location', lat: 1, lng: '2', name: 'x' }] },
      { source_guid: guid(), attachments: [{ type: 'emoji', placeholder: '?', charmap: [] }] },
      { source_guid: guid(), attachments: [{ type: 'emoji', placeholder: '?', charmap: [[0, 1]] }] },
      { source_guid: guid(), attachments: Array.from({ length: 11 }, () => ({ type: 'location', lat: '1', lng: '2', name: 'x' })) }
    ]) {
      const result = await post(alice, groupId, message)
      expect(result.status, JSON.stringify(message)).toBe(400)
    }
    expect((await service.call('POST', `/v3/groups/${groupId}/messages`, { token: alice.token, body: { text: 'unwrapped' } })).status).toBe(400)
    expect((await post(alice, groupId, { source_guid: guid(), text: '😀'.repeat(1000) })).status).toBe(201)
  })

  it('stores attachments and derives picture_url and location', async () => {
    const upload = await service.call('POST', '/image/pictures', { token: alice.token, body: Buffer.from('GIF89a'), headers: { 'content-type': 'image/gif' } })
    const url = upload.body.payload.url as string
    const attachments = [
      { type: 'location', lat: '52.52', lng: '13.40', name: 'Berlin' },
      { type: 'image', url, extra: 'dropped' },
      { type: 'emoji', placeholder: '\ufffd', charmap: [[1, 42]] }
    ]
    const result = await post(alice, groupId, { source_guid: randomUUID(), attachments })
    expect(result.status).toBe(201)
    const message = result.body.response.message
    expect(message.text).toBe('')
    expect(message.attachments).toEqual([attachments[0], { type: 'image', url }, attachments[2]])
    expect(message.picture_url).toBe(url)
    expect(message.location).toEqual({ lat: '52.52', lng: '13.40', name: 'Berlin' })
  })

  it('answers 404 to non-members and for unknown groups', async () => {
    expect((await post(stranger, groupId, { source_guid: 'g', text: 'hi' })).status).toBe(404)
    expect((await post(alice, '12345', { source_guid: 'g', text: 'hi' })).status).toBe(404)
  })

  it('refuses a source_guid reused by the same sender within 60 s (409)', async () => {
    const guid = randomUUID()
    const other = (await service.createGroup(alice, { name: 'Other' })).id
    expect((await post(alice, groupId, { source_guid: guid, text: 'first' })).status).toBe(201)
    const again = await post(alice, groupId, { source_guid: guid, text: 'again' })
    expect(again.status).toBe(409)
    expect(again.body).toEqual({ response: null, meta: { code: 409, errors: expect.any(Array) } })
    // Another conversation is fine.
    expect((await post(alice, other, { source_guid: guid, text: 'elsewhere' })).status).toBe(201)
    await service.advanceClock(30)
    expect((await post(alice, groupId, { source_guid: guid, text: 'still' })).status).toBe(409)
    // The window counts from the accepted message, not from refused attempts.
    await service.advanceClock(31)
    expect((await post(alice, groupId, { source_guid: guid, text: 'later' })).status).toBe(201)
  })
})

describe('MS1 list', () => {
  it('pages newest first, before, since and after; 304 when empty', async () => {
    const group = (await service.createGroup(alice, { name: 'Paging' })).id
    expect((await service.call('GET', `/v3/groups/${group}/messages`, { token: alice.token })).status).toBe(304)
    const ids: string[] = []
    for (let i = 0; i < 7; i++) ids.push((await service.sendGroupMessage(alice, group, `m${i}`)).id)
    const id = (index: number): string => ids[index] ?? ''
    const list = (query: Record<string, string>) => service.call('GET', `/v3/groups/${group}/messages`, { token: alice.token, query })
    const textOf = (result: { body: { response: { messages: { text: string }[] } } }) => result.body.response.messages.map((m) => m.text)

    const newest = await list({ limit: '3' })
    expect(newest.body.response.count).toBe(7)
    expect(textOf(newest)).toEqual(['m6', 'm5', 'm4'])
    expect(textOf(await list({ before_id: id(4), limit: '2' }))).toEqual(['m3', 'm2'])
    expect(textOf(await list({ since_id: id(1), limit: '2' }))).toEqual(['m6', 'm5'])
    expect(textOf(await list({ after_id: id(1), limit: '2' }))).toEqual(['m2', 'm3'])
    expect(textOf(await list({ after_id: '1' }))).toEqual(['m0', 'm1', 'm2', 'm3', 'm4', 'm5', 'm6'])
    expect(textOf(await list({ before_id: '9'.repeat(25) })).length).toBe(7)
    const empty = await list({ after_id: id(6) })
    expect(empty.status).toBe(304)
    expect(empty.text).toBe('')
    expect((await list({ before_id: '1' })).status).toBe(304)
  })

  it('refuses bad paging parameters with 400 and outsiders with 404', async () => {
    const list = (query: Record<string, string>, user = alice) => service.call('GET', `/v3/groups/${groupId}/messages`, { token: user.token, query })
    for (const query of [{ limit: '0' }, { limit: '101' }, { limit: 'x' }, { before_id: 'abc' }, { before_id: '1', after_id: '2' }, { since_id: '-1' }]) {
      expect((await list(query)).status).toBe(400)
    }
    expect((await list({}, stranger)).status).toBe(404)
  })
})
