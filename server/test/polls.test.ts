import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { expectSystemMessage, groupMessages, groupWith, listen, makeAdmin, updateGroup, waitEvent } from './messaging-support.js'
import { startTestService, type Json, type TestService, type TestUser } from './support.js'

/** PL1–PL6 (§13), the poll message and `poll.finished` (§14.5). */

let service: TestService
let owner: TestUser
let admin: TestUser
let member: TestUser
let outsider: TestUser

beforeAll(async () => {
  service = await startTestService()
  ;[owner, admin, member, outsider] = await Promise.all([
    service.signUp({ name: 'Owner' }),
    service.signUp({ name: 'Admin' }),
    service.signUp({ name: 'Member' }),
    service.signUp({ name: 'Outsider' })
  ])
})

afterAll(async () => {
  await service.close()
})

async function newGroup(): Promise<string> {
  const id = await groupWith(service, owner, [admin, member])
  await makeAdmin(service, owner, id, admin)
  return id
}

const now = (): Promise<number> => service.advanceClock(0)

async function pollBody(overrides: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  return {
    subject: 'Lunch?',
    options: [{ title: 'Pizza' }, { title: 'Sushi' }, { title: 'Salad' }],
    expiration: (await now()) + 3600,
    type: 'single',
    visibility: 'public',
    ...overrides
  }
}

const create = (user: TestUser, group: string, body: unknown) => service.call('POST', `/v3/poll/${group}`, { token: user.token, body })
async function createPoll(user: TestUser, group: string, overrides: Record<string, unknown> = {}): Promise<Json> {
  const result = await create(user, group, await pollBody(overrides))
  expect(result.status, result.text).toBe(201)
  return result.body.response
}
const get = (user: TestUser, group: string, poll: string) => service.call('GET', `/v3/poll/${group}/${poll}`, { token: user.token })
const voteOne = (user: TestUser, group: string, poll: string, option: string) =>
  service.call('POST', `/v3/poll/${group}/${poll}/${option}`, { token: user.token })
const vote = (user: TestUser, group: string, poll: string, body: unknown) =>
  service.call('POST', `/v3/poll/${group}/${poll}`, { token: user.token, body })
const end = (user: TestUser, group: string, poll: string) => service.call('POST', `/v3/poll/${group}/${poll}/end`, { token: user.token })
const list = (user: TestUser, group: string, query: Record<string, string> = {}) =>
  service.call('GET', `/v3/poll/${group}`, { token: user.token, query })
const finishedMessages = async (group: string, pollId: string): Promise<Json[]> =>
  (await groupMessages(service, owner, group)).filter((m) => m.event?.type === 'poll.finished' && m.event.data.poll.id === pollId)

describe('PL1 create', () => {
  it('answers 201 with the poll data and its message, pushed as line.create', async () => {
    const group = await newGroup()
    const listener = await listen(service, member, [`/user/${member.id}`])
    try {
      const body = await pollBody()
      const result = await create(admin, group, body)
      expect(result.status).toBe(201)
      const { poll, message } = result.body.response
      expect(Object.keys(result.body.response).sort()).toEqual(['message', 'poll'])
      expect(poll).toEqual({
        data: {
          id: expect.stringMatching(/^[1-9][0-9]{15}$/),
          subject: 'Lunch?',
          owner_id: admin.id,
          conversation_id: group,
          created_at: expect.any(Number),
          last_modified: poll.data.created_at,
          expiration: body.expiration,
          status: 'active',
          type: 'single',
          visibility: 'public',
          options: [
            { id: '1', title: 'Pizza' },
            { id: '2', title: 'Sushi' },
            { id: '3', title: 'Salad' }
          ]
        }
      })
      expect(message).toMatchObject({
        id: expect.stringMatching(/^[1-9][0-9]{17}$/),
        user_id: admin.id,
        sender_id: admin.id,
        sender_type: 'user',
        system: false,
        name: 'Admin',
        group_id: group,
        text: "Created new poll 'Lunch?'",
        attachments: [{ type: 'poll', poll_id: poll.data.id }],
        event: {
          type: 'poll.created',
          data: { conversation: { id: group }, poll: { id: poll.data.id, subject: 'Lunch?' }, user: { id: admin.id, nickname: 'Admin' } }
        }
      })
      expect((await groupMessages(service, member, group))[0]).toEqual(message)
      const pushed = await waitEvent(listener, `/user/${member.id}`, 'line.create', (d) => d.subject.id === message.id)
      expect(pushed.subject).toEqual(message)
      expect(pushed.alert).toBe("Admin: Created new poll 'Lunch?'")
      const second = await createPoll(member, group)
      expect(second.poll.data.id > poll.data.id).toBe(true)
    } finally {
      listener.close()
    }
  })

  it('validates every field (400), before existence', async () => {
    const group = await newGroup()
    const t = await now()
    const bad: Record<string, unknown>[] = [
      { subject: undefined },
      { subject: '' },
      { subject: 'x'.repeat(161) },
      { subject: 5 },
      { options: undefined },
      { options: [{ title: 'only' }] },
      { options: Array.from({ length: 11 }, (_, i) => ({ title: `o${i}` })) },
      { options: [{ title: '' }, { title: 'b' }] },
      { options: [{ title: 'x'.repeat(161) }, { title: 'b' }] },
      { options: [{}, { title: 'b' }] },
      { options: ['a', 'b'] },
      { expiration: undefined },
      { expiration: t },
      { expiration: t - 10 },
      { expiration: t + 31_536_060 },
      { expiration: (t + 3600) * 1000 },
      { expiration: String(t + 3600) },
      { expiration: t + 3600.5 },
      { type: undefined },
      { type: 'ranked' },
      { visibility: undefined },
      { visibility: 'secret' }
    ]
    for (const overrides of bad) {
      const body = Object.fromEntries(Object.entries(await pollBody(overrides)).filter(([, value]) => value !== undefined))
      expect((await create(owner, group, body)).status, JSON.stringify(overrides)).toBe(400)
    }
    expect((await create(outsider, group, await pollBody({ subject: '' }))).status).toBe(400)
    expect((await create(owner, group, 'poll')).status).toBe(400)
    const edge = await createPoll(owner, group, { subject: '😀'.repeat(160), options: Array.from({ length: 10 }, (_, i) => ({ title: `o${i}` })), expiration: (await now()) + 31_536_000 })
    expect(edge.poll.data.options).toHaveLength(10)
    expect(edge.poll.data.options[9].id).toBe('10')
  })

  it('answers 404 to outsiders and 403 to non-admins of announcement groups', async () => {
    const group = await newGroup()
    expect((await create(outsider, group, await pollBody())).status).toBe(404)
    expect((await create(owner, '99999999', await pollBody())).status).toBe(404)
    await updateGroup(service, owner, group, { group_type: 'announcement' })
    expect((await create(member, group, await pollBody())).status).toBe(403)
    expect((await create(admin, group, await pollBody())).status).toBe(201)
  })
})

describe('PL2 show, PL3 and PL4 vote', () => {
  it('shows the poll with user_votes only when the caller voted', async () => {
    const group = await newGroup()
    const { poll } = await createPoll(owner, group)
    const shown = await get(member, group, poll.data.id)
    expect(shown.status).toBe(200)
    expect(shown.body.response).toEqual({ poll: { data: poll.data } })
    await voteOne(member, group, poll.data.id, '2')
    expect((await get(member, group, poll.data.id)).body.response.poll.user_votes).toEqual(['2'])
    expect((await get(owner, group, poll.data.id)).body.response.poll.user_votes).toBeUndefined()
    const other = await newGroup()
    expect((await get(outsider, group, poll.data.id)).status).toBe(404)
    expect((await get(owner, other, poll.data.id)).status).toBe(404)
    expect((await get(owner, group, '1000000000000000')).status).toBe(404)
    expect((await get(owner, group, 'abc')).status).toBe(404)
  })

  it('PL3 votes one option in either type; a re-vote replaces; votes and voter_ids only when > 0', async () => {
    const group = await newGroup()
    const { poll } = await createPoll(owner, group, { type: 'multi' })
    const id = poll.data.id as string
    await service.advanceClock(3)
    const first = await voteOne(member, group, id, '1')
    expect(first.status).toBe(200)
    expect(first.body.response.poll.user_votes).toEqual(['1'])
    expect((await now()) - first.body.response.poll.data.last_modified).toBeLessThanOrEqual(1)
    expect(first.body.response.poll.data.last_modified).toBeGreaterThanOrEqual(poll.data.created_at + 3)
    expect(first.body.response.poll.data.options).toEqual([
      { id: '1', title: 'Pizza', votes: 1, voter_ids: [member.id] },
      { id: '2', title: 'Sushi' },
      { id: '3', title: 'Salad' }
    ])
    await voteOne(admin, group, id, '1')
    const moved = await voteOne(member, group, id, '3')
    expect(moved.body.response.poll.user_votes).toEqual(['3'])
    expect(moved.body.response.poll.data.options).toEqual([
      { id: '1', title: 'Pizza', votes: 1, voter_ids: [admin.id] },
      { id: '2', title: 'Sushi' },
      { id: '3', title: 'Salad', votes: 1, voter_ids: [member.id] }
    ])
    for (const option of ['0', '4', '10', 'abc', '01']) expect((await voteOne(member, group, id, option)).status, option).toBe(400)
    expect((await voteOne(outsider, group, id, '1')).status).toBe(404)
    expect((await voteOne(member, group, '1000000000000000', '1')).status).toBe(404)
  })

  it('PL4: single takes exactly one, multi one or more distinct; anonymous polls hide voter_ids', async () => {
    const group = await newGroup()
    const single = (await createPoll(owner, group, { visibility: 'anonymous' })).poll.data.id as string
    const multi = (await createPoll(owner, group, { type: 'multi', visibility: 'anonymous' })).poll.data.id as string
    for (const body of [{}, { votes: [] }, { votes: '1' }, { votes: [1] }, { votes: null }]) {
      expect((await vote(member, group, single, body)).status, JSON.stringify(body)).toBe(400)
    }
    expect((await vote(member, group, single, { votes: ['1', '2'] })).status).toBe(400)
    expect((await vote(member, group, single, { votes: ['4'] })).status).toBe(400)
    const ok = await vote(member, group, single, { votes: ['2'] })
    expect(ok.status).toBe(200)
    expect(ok.body.response.poll.user_votes).toEqual(['2'])
    expect(ok.body.response.poll.data.options[1]).toEqual({ id: '2', title: 'Sushi', votes: 1 })
    expect((await vote(member, group, multi, { votes: ['1', '1'] })).status).toBe(400)
    expect((await vote(member, group, multi, { votes: ['3', '9'] })).status).toBe(400)
    const both = await vote(member, group, multi, { votes: ['3', '1'] })
    expect(both.body.response.poll.user_votes).toEqual(['1', '3'])
    const again = await vote(member, group, multi, { votes: ['2'] })
    expect(again.body.response.poll.user_votes).toEqual(['2'])
    expect(again.body.response.poll.data.options).toEqual([
      { id: '1', title: 'Pizza' },
      { id: '2', title: 'Sushi', votes: 1 },
      { id: '3', title: 'Salad' }
    ])
    expect((await vote(outsider, group, multi, { votes: ['1'] })).status).toBe(404)
    expect((await vote(outsider, group, multi, { votes: [] })).status).toBe(400)
  })
})

describe('PL5 end, expiry and poll.finished', () => {
  it('lets the owner end a poll once, with exactly one poll.finished', async () => {
    const group = await newGroup()
    const { poll } = await createPoll(member, group)
    const id = poll.data.id as string
    await voteOne(admin, group, id, '2')
    await service.advanceClock(5)
    const before = await now()
    const ended = await end(member, group, id)
    expect(ended.status).toBe(200)
    const t = ended.body.response.poll.data.expiration as number
    expect(t - before).toBeGreaterThanOrEqual(0)
    expect(t - before).toBeLessThanOrEqual(1)
    expect(ended.body.response).toEqual({ poll: { data: { ...poll.data, status: 'past', expiration: t, last_modified: t, options: expect.any(Array) } } })
    expect((await end(member, group, id)).status).toBe(400)
    expect((await voteOne(admin, group, id, '1')).status).toBe(400)
    expect((await vote(admin, group, id, { votes: ['1'] })).status).toBe(400)
    const finished = await finishedMessages(group, id)
    expect(finished).toHaveLength(1)
    expectSystemMessage(finished[0], {
      type: 'poll.finished',
      data: {
        conversation: { id: group },
        poll: { id, subject: 'Lunch?' },
        options: [
          { id: '1', title: 'Pizza' },
          { id: '2', title: 'Sushi', votes: 1, voter_ids: [admin.id] },
          { id: '3', title: 'Salad' }
        ]
      }
    })
    expect(finished[0].group_id).toBe(group)
    await service.advanceClock(10_000)
    expect(await finishedMessages(group, id)).toHaveLength(1)
  })

  it('lets group admins end others’ polls; others get 403 (before 400)', async () => {
    const group = await newGroup()
    const byMember = (await createPoll(member, group)).poll.data.id as string
    const byAdmin = (await createPoll(admin, group)).poll.data.id as string
    const byOwner = (await createPoll(owner, group)).poll.data.id as string
    expect((await end(member, group, byAdmin)).status).toBe(403)
    expect((await end(admin, group, byMember)).status).toBe(200)
    expect((await end(owner, group, byAdmin)).status).toBe(200)
    expect((await end(member, group, byAdmin)).status).toBe(403)
    expect((await end(admin, group, byOwner)).status).toBe(200)
    expect((await end(outsider, group, byOwner)).status).toBe(404)
    expect((await end(owner, group, '1000000000000000')).status).toBe(404)
  })

  it('reads past once expiration ≤ now, and posts poll.finished right after a clock jump', async () => {
    const group = await newGroup()
    const { poll } = await createPoll(owner, group, { expiration: (await now()) + 100 })
    const id = poll.data.id as string
    await service.advanceClock(99)
    expect((await get(owner, group, id)).body.response.poll.data.status).toBe('active')
    expect(await finishedMessages(group, id)).toHaveLength(0)
    await service.advanceClock(1)
    expect((await get(owner, group, id)).body.response.poll.data).toMatchObject({ status: 'past', expiration: poll.data.expiration })
    expect(await finishedMessages(group, id)).toHaveLength(1)
    expect((await end(owner, group, id)).status).toBe(400)
    expect((await voteOne(member, group, id, '1')).status).toBe(400)
    expect(await finishedMessages(group, id)).toHaveLength(1)
  })

  it('posts poll.finished within a second of expiring in real time, pushed as line.create', async () => {
    const group = await newGroup()
    const listener = await listen(service, member, [`/user/${member.id}`])
    try {
      const { poll } = await createPoll(owner, group, { expiration: (await now()) + 2 })
      const pushed = await waitEvent(listener, `/user/${member.id}`, 'line.create', (d) => d.subject.event?.type === 'poll.finished', 4000)
      expect(pushed.subject.event.data.poll).toEqual({ id: poll.data.id, subject: 'Lunch?' })
      expect(Date.now() / 1000 + (await now()) - Math.floor(Date.now() / 1000)).toBeGreaterThanOrEqual(poll.data.expiration)
      expect(await finishedMessages(group, poll.data.id)).toEqual([pushed.subject])
    } finally {
      listener.close()
    }
  })
})

describe('PL6 list', () => {
  it('pages 10 newest first with a continuation token, user_vote and user_votes', async () => {
    const group = await newGroup()
    const ids: string[] = []
    for (let i = 0; i < 12; i++) ids.push((await createPoll(owner, group, { subject: `p${i}`, type: 'multi' })).poll.data.id)
    await vote(member, group, ids[11] ?? '', { votes: ['3', '2'] })
    const first = await list(member, group)
    expect(first.status).toBe(200)
    const page = first.body.response
    expect(page.polls).toHaveLength(10)
    expect(page.polls.map((p: Json) => p.data.subject)).toEqual(['p11', 'p10', 'p9', 'p8', 'p7', 'p6', 'p5', 'p4', 'p3', 'p2'])
    expect(page.polls[0]).toEqual({ data: expect.objectContaining({ id: ids[11] }), user_votes: ['2', '3'], user_vote: '2' })
    expect(Object.keys(page.polls[1]).sort()).toEqual(['data'])
    expect(typeof page.continuation_token).toBe('string')
    const second = await list(member, group, { continuation_token: page.continuation_token })
    expect(second.body.response.polls.map((p: Json) => p.data.subject)).toEqual(['p1', 'p0'])
    expect(second.body.response.continuation_token).toBeNull()
    expect((await list(member, group, { continuation_token: 'nonsense' })).status).toBe(400)
    const other = await newGroup()
    expect((await list(member, other, { continuation_token: page.continuation_token })).status).toBe(400)
    expect((await list(member, other)).body.response).toEqual({ polls: [], continuation_token: null })
    expect((await list(outsider, group)).status).toBe(404)
  })

  it('gives a null token when exactly 10 remain', async () => {
    const group = await newGroup()
    for (let i = 0; i < 10; i++) await createPoll(owner, group)
    const page = (await list(owner, group)).body.response
    expect(page.polls).toHaveLength(10)
    expect(page.continuation_token).toBeNull()
  })
})
