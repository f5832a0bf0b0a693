import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, groupMessages, lastMessage, pushedDuring, showGroup, watchUser } from './groups-support.js'
import { startTestService, type Json, type TestService, type TestUser } from './support.js'

let service: TestService
let owner: TestUser
let bob: TestUser
let carol: TestUser

beforeAll(async () => {
  service = await startTestService()
  ;[owner, bob, carol] = await Promise.all([service.signUp({ name: 'Olga Owner' }), service.signUp({ name: 'Bob' }), service.signUp({ name: 'Carol' })])
})

afterAll(async () => {
  await service.close()
})

const tokenOf = (group: Json): string => (group.share_url as string).split('/').at(-1) as string

const join = (user: TestUser, groupId: string, token: string, body?: unknown): Promise<{ status: number; body: Json }> =>
  service.call('POST', `/v3/groups/${groupId}/join/${token}`, { token: user.token, ...(body === undefined ? {} : { body }) })

const rejoin = (user: TestUser, body: unknown): Promise<{ status: number; body: Json }> =>
  service.call('POST', '/v3/groups/join', { token: user.token, body })

const update = (groupId: string, body: unknown): Promise<{ status: number }> =>
  service.call('POST', `/v3/groups/${groupId}/update`, { token: owner.token, body })

const leave = async (user: TestUser, groupId: string): Promise<void> => {
  const me = (await showGroup(service, user, groupId)).members.find((m: Json) => m.user_id === user.id)
  const result = await service.call('POST', `/v3/groups/${groupId}/members/${me.id}/remove`, { token: user.token })
  expect(result.status).toBe(200)
}

describe('G8 join by share token', () => {
  it('joins with the account name as nickname and posts membership.announce.joined; repeats return the group', async () => {
    const group = await service.createGroup(owner, { name: 'Open', share: true })
    const user = await service.signUp({ name: 'Joiner' })
    const watch = await watchUser(service, owner)
    try {
      const joined = await join(user, group.id, tokenOf(group))
      expect(joined.status).toBe(200)
      expect(joined.body.meta).toEqual({ code: 200, errors: null })
      const shown = await showGroup(service, user, group.id)
      expect(joined.body.response).toEqual({ group: shown })
      expect(shown.members.find((m: Json) => m.user_id === user.id)).toMatchObject({ nickname: 'Joiner', roles: ['user'] })
      const line = await watch.inbox.waitFor((item) => item.data.subject?.event?.type === 'membership.announce.joined')
      expect(line.data.subject.event.data).toEqual({ user: { id: user.id, nickname: 'Joiner' } })
      expect(line.data.type).toBe('line.create')
      // Joining through a link sends no membership.create.
      expect(watch.inbox.received.some((item) => item.data.type === 'membership.create')).toBe(false)
    } finally {
      watch.close()
    }
    const count = (await groupMessages(service, owner, group.id)).length
    const again = await join(user, group.id, tokenOf(group), { answer: { response: 'again' } })
    expect(again.status).toBe(200)
    expect(again.body.response.group.id).toBe(group.id)
    expect(await groupMessages(service, owner, group.id)).toHaveLength(count)
    // An exited member may join again by link.
    await leave(user, group.id)
    expect((await join(user, group.id, tokenOf(group))).status).toBe(200)
    expect((await lastMessage(service, owner, group.id)).event.type).toBe('membership.announce.joined')
  })

  it('creates a pending request with the join question and answer when approval is required', async () => {
    const group = await service.createGroup(owner, { name: 'Gated', share: true })
    await update(group.id, { requires_approval: true, show_join_question: true, join_question: { type: 'join_reason/questions/text', text: 'Why?' } })
    const count = (await groupMessages(service, owner, group.id)).length
    const asked = await join(bob, group.id, tokenOf(group), { answer: { response: 'Because.' } })
    expect(asked.status).toBe(202)
    expect(asked.body.meta).toEqual({ code: 202, errors: null })
    const pending = asked.body.response.membership
    expect(pending).toEqual({
      id: expect.stringMatching(/^[1-9][0-9]*$/),
      user_id: bob.id,
      nickname: 'Bob',
      image_url: null,
      timestamp: expect.any(Number),
      state: 'requested_pending',
      reason: {
        type: 'join_reason/membership_join_reason',
        question: { type: 'join_reason/questions/text', text: 'Why?' },
        answer: { type: 'join_reason/answers/text', response: 'Because.' },
        method: 'share_link'
      }
    })
    // A repeat returns the same entry, even with another answer.
    await service.advanceClock(2)
    const repeat = await join(bob, group.id, tokenOf(group), { answer: { response: 'Other' } })
    expect(repeat.status).toBe(202)
    expect(repeat.body.response.membership).toEqual(pending)
    expect((await service.call('GET', `/v3/groups/${group.id}`, { token: bob.token })).status).toBe(404)
    expect(await groupMessages(service, owner, group.id)).toHaveLength(count) // a request emits nothing
    const listed = await service.call('GET', `/v3/groups/${group.id}/pending_memberships`, { token: owner.token })
    expect(listed.body.response).toEqual([pending])

    // The question is in effect only while both flags are on; the answer is kept whenever given.
    await update(group.id, { show_join_question: false })
    const noQuestion = await join(carol, group.id, tokenOf(group), { answer: { response: '' } })
    expect(noQuestion.body.response.membership.reason).toEqual({
      type: 'join_reason/membership_join_reason',
      question: null,
      answer: { type: 'join_reason/answers/text', response: '' },
      method: 'share_link'
    })
    const dave = await service.signUp({ name: 'Dave' })
    await update(group.id, { show_join_question: true })
    const noAnswer = await join(dave, group.id, tokenOf(group))
    expect(noAnswer.body.response.membership.reason).toMatchObject({
      question: { type: 'join_reason/questions/text', text: 'Why?' },
      answer: null
    })
    // Once approval is off, a pending user who follows the link again simply joins.
    await update(group.id, { requires_approval: false })
    const through = await join(dave, group.id, tokenOf(group))
    expect(through.status).toBe(200)
    expect(through.body.response.group.members.some((m: Json) => m.user_id === dave.id)).toBe(true)
  })

  it('404 for an unknown group, sharing off or a wrong token; 403 for removed and banned users; 400 syntax', async () => {
    const group = await service.createGroup(owner, { name: 'Links', share: true })
    const token = tokenOf(group)
    const unshared = await service.createGroup(owner, { name: 'Unshared' })
    const stranger = await service.signUp({ name: 'Stranger' })
    expect((await join(stranger, '99999999', token)).status).toBe(404)
    expect((await join(stranger, 'abc', token)).status).toBe(404)
    expect((await join(stranger, group.id, 'wrongTok')).status).toBe(404)
    expect((await join(stranger, group.id, token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase())).status).toBe(404)
    expect((await join(stranger, unshared.id, token)).status).toBe(404)
    expect((await service.call('POST', `/v3/groups/${group.id}/join/${token}`)).status).toBe(401)
    for (const body of [{ answer: { response: 'x'.repeat(501) } }, { answer: { response: 5 } }, { answer: 'text' }, { answer: {} }]) {
      expect((await join(stranger, group.id, token, body)).status, JSON.stringify(body)).toBe(400)
    }
    expect((await join(stranger, group.id, token, { answer: { response: 'x'.repeat(500) } })).status).toBe(200)

    const removed = await service.signUp({ name: 'Removed' })
    const removedM = await addMember(service, owner, group.id, removed)
    await service.call('POST', `/v3/groups/${group.id}/members/${removedM.id}/remove`, { token: owner.token })
    expect((await join(removed, group.id, token)).status).toBe(403)
    const banned = await service.signUp({ name: 'Banned' })
    const bannedM = await addMember(service, owner, group.id, banned)
    await leave(banned, group.id)
    await service.call('POST', `/v2/groups/${group.id}/memberships/${bannedM.id}/destroy`, { token: owner.token })
    const refused = await join(banned, group.id, token)
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({ response: null, meta: { code: 403, errors: [expect.any(String)] } })
    // Sharing off: 404 even for removed users.
    await update(group.id, { share: false })
    expect((await join(removed, group.id, token)).status).toBe(404)
  })
})

describe('G9 rejoin', () => {
  it('rejoins from exited with the old nickname and posts membership.announce.rejoined', async () => {
    const group = await service.createGroup(owner, { name: 'Return' })
    await addMember(service, owner, group.id, bob, 'Bobster')
    await leave(bob, group.id)
    expect((await service.call('GET', `/v3/groups/${group.id}`, { token: bob.token })).status).toBe(404)
    await update(group.id, { requires_approval: true }) // G9 ignores requires_approval
    const watch = await watchUser(service, owner)
    try {
      const back = await rejoin(bob, { group_id: group.id })
      expect(back.status).toBe(200)
      expect(back.body.response).toEqual(await showGroup(service, bob, group.id))
      expect(back.body.response.members.find((m: Json) => m.user_id === bob.id).nickname).toBe('Bobster')
      const line = await watch.inbox.waitFor((item) => item.data.subject?.event?.type === 'membership.announce.rejoined')
      expect(line.data.subject.event.data).toEqual({ user: { id: bob.id, nickname: 'Bobster' } })
    } finally {
      watch.close()
    }
    const again = await rejoin(bob, { group_id: group.id })
    expect(again.status).toBe(400)
  })

  it('still lets someone who left rejoin after they asked to join through a link, pending or denied (§18.8)', async () => {
    const group = await service.createGroup(owner, { name: 'Left then asked', share: true })
    const leaver = await service.signUp({ name: 'Leaver' })
    await addMember(service, owner, group.id, leaver, 'Lee')
    await leave(leaver, group.id)
    await update(group.id, { requires_approval: true })
    const statesOf = async (): Promise<Json> => (await service.call('GET', '/v3/memberships/states', { token: leaver.token })).body.response
    const formerIds = async (): Promise<string[]> =>
      (await service.call('GET', '/v3/groups/former', { token: leaver.token })).body.response.map((g: Json) => g.id)

    const asked = await join(leaver, group.id, tokenOf(group))
    expect(asked.status).toBe(202)
    expect(await statesOf()).toEqual([{ group_id: group.id, state: 'exited' }])
    expect(await formerIds()).toEqual([group.id])
    await service.call('POST', `/v3/groups/${group.id}/members/${asked.body.response.membership.id}/approval`, {
      token: owner.token,
      body: { approval: false }
    })
    expect(await statesOf()).toEqual([{ group_id: group.id, state: 'exited' }])

    const back = await rejoin(leaver, { group_id: group.id })
    expect(back.status).toBe(200)
    // The request took the account name as nickname (as G8 does), and the rejoin keeps it.
    expect(back.body.response.members.find((m: Json) => m.user_id === leaver.id).nickname).toBe('Leaver')
    expect(await statesOf()).toEqual([{ group_id: group.id, state: 'active' }])
    expect((await service.call('GET', `/v3/groups/${group.id}/pending_memberships`, { token: owner.token })).body.response).toEqual([])
  })

  it('404 unknown group or never a member (pending and denied included); 403 removed or banned; 400 syntax', async () => {
    const group = await service.createGroup(owner, { name: 'Rejoin rules', share: true })
    const stranger = await service.signUp({ name: 'Stranger' })
    expect((await rejoin(stranger, { group_id: group.id })).status).toBe(404)
    expect((await rejoin(stranger, { group_id: '99999999' })).status).toBe(404)
    expect((await rejoin(stranger, { group_id: 'abc' })).status).toBe(404)
    for (const body of [undefined, {}, { group_id: Number(group.id) }, { group_id: null }]) {
      expect((await rejoin(stranger, body)).status, JSON.stringify(body)).toBe(400)
    }
    expect((await rejoin(owner, { group_id: group.id })).status).toBe(400)

    await update(group.id, { requires_approval: true })
    const asker = await service.signUp({ name: 'Asker' })
    const pending = (await join(asker, group.id, tokenOf(group))).body.response.membership
    expect((await rejoin(asker, { group_id: group.id })).status).toBe(404)
    await service.call('POST', `/v3/groups/${group.id}/members/${pending.id}/approval`, { token: owner.token, body: { approval: false } })
    expect((await rejoin(asker, { group_id: group.id })).status).toBe(404)

    const removed = await service.signUp({ name: 'Removed' })
    const removedM = await addMember(service, owner, group.id, removed)
    await service.call('POST', `/v3/groups/${group.id}/members/${removedM.id}/remove`, { token: owner.token })
    expect((await rejoin(removed, { group_id: group.id })).status).toBe(403)
    const banned = await service.signUp({ name: 'Banned' })
    const bannedM = await addMember(service, owner, group.id, banned)
    await leave(banned, group.id)
    await service.call('POST', `/v2/groups/${group.id}/memberships/${bannedM.id}/destroy`, { token: owner.token })
    expect((await rejoin(banned, { group_id: group.id })).status).toBe(403)
  })
})

describe('G10 change owners', () => {
  it('gives per-item statuses in the check order 405, 404, 403, 404, 400', async () => {
    const group = await service.createGroup(owner, { name: 'Owned' })
    const other = await service.createGroup(bob, { name: 'Bob’s' })
    await addMember(service, bob, other.id, owner)
    const alone = await service.createGroup(carol, { name: 'Carol’s' })
    await addMember(service, owner, group.id, bob)
    const result = await service.call('POST', '/v3/groups/change_owners', {
      token: owner.token,
      body: {
        requests: [
          { group_id: group.id }, // 405: owner_id missing
          { group_id: 5, owner_id: bob.id }, // 405: not a string
          'not an object', // 405
          { group_id: '99999999', owner_id: 5 }, // 405 comes first
          { group_id: '99999999', owner_id: bob.id }, // 404 group
          { group_id: alone.id, owner_id: carol.id }, // 404: not a member of that group
          { group_id: other.id, owner_id: 'nobody' }, // 403 comes before the owner check
          { group_id: group.id, owner_id: carol.id }, // 404 owner not a member
          { group_id: group.id, owner_id: owner.id }, // 400 already the owner
          { group_id: group.id, owner_id: bob.id }, // 200
          { group_id: group.id, owner_id: owner.id } // 403 now: the caller no longer owns it
        ]
      }
    })
    expect(result.status).toBe(200)
    expect(result.body.response.results).toEqual([
      { group_id: group.id, owner_id: null, status: '405' },
      { group_id: null, owner_id: bob.id, status: '405' },
      { group_id: null, owner_id: null, status: '405' },
      { group_id: '99999999', owner_id: null, status: '405' },
      { group_id: '99999999', owner_id: bob.id, status: '404' },
      { group_id: alone.id, owner_id: carol.id, status: '404' },
      { group_id: other.id, owner_id: 'nobody', status: '403' },
      { group_id: group.id, owner_id: carol.id, status: '404' },
      { group_id: group.id, owner_id: owner.id, status: '400' },
      { group_id: group.id, owner_id: bob.id, status: '200' },
      { group_id: group.id, owner_id: owner.id, status: '403' }
    ])
    const shown = await showGroup(service, bob, group.id)
    expect(shown.creator_user_id).toBe(bob.id)
    expect(shown.members.find((m: Json) => m.user_id === bob.id).roles).toEqual(['admin', 'owner'])
    expect(shown.members.find((m: Json) => m.user_id === owner.id).roles).toEqual(['admin'])
    // The new owner has the owner's powers, the old one lost them.
    expect((await service.call('POST', `/v3/groups/${group.id}/destroy`, { token: owner.token })).status).toBe(403)
    const ownerM = shown.members.find((m: Json) => m.user_id === owner.id).id
    expect((await service.call('POST', `/v3/groups/${group.id}/members/${ownerM}/remove`, { token: owner.token })).status).toBe(200)
    expect((await rejoin(owner, { group_id: group.id })).status).toBe(200)
  })

  it('rejects only a bad request list (400) and emits nothing', async () => {
    const group = await service.createGroup(owner, { name: 'Handover' })
    await addMember(service, owner, group.id, carol)
    for (const body of [undefined, {}, { requests: [] }, { requests: 'x' }, { requests: {} }, { requests: Array.from({ length: 101 }, () => ({})) }]) {
      expect((await service.call('POST', '/v3/groups/change_owners', { token: owner.token, body })).status, JSON.stringify(body)).toBe(400)
    }
    const hundred = await service.call('POST', '/v3/groups/change_owners', { token: owner.token, body: { requests: Array.from({ length: 100 }, () => ({})) } })
    expect(hundred.status).toBe(200)
    expect(hundred.body.response.results).toHaveLength(100)
    expect((await service.call('POST', '/v3/groups/change_owners', { body: { requests: [{}] } })).status).toBe(401)
    const count = (await groupMessages(service, owner, group.id)).length
    const watch = await watchUser(service, carol)
    try {
      const pushed = await pushedDuring(service, watch.inbox, { from: owner, to: carol }, async () => {
        const done = await service.call('POST', '/v3/groups/change_owners', { token: owner.token, body: { requests: [{ group_id: group.id, owner_id: carol.id }] } })
        expect(done.body.response.results[0].status).toBe('200')
      })
      expect(pushed).toEqual([])
    } finally {
      watch.close()
    }
    expect(await groupMessages(service, owner, group.id)).toHaveLength(count)
  })
})

describe('G2 former groups and G3 membership states', () => {
  it('lists exited groups latest exit first, and every state by ascending group id', async () => {
    const user = await service.signUp({ name: 'Wanderer' })
    const a = await service.createGroup(owner, { name: 'A' })
    const b = await service.createGroup(owner, { name: 'B' })
    const c = await service.createGroup(owner, { name: 'C' })
    const d = await service.createGroup(owner, { name: 'D', share: true })
    const e = await service.createGroup(user, { name: 'E' })
    for (const group of [a, b, c]) await addMember(service, owner, group.id, user)
    await leave(user, b.id)
    await service.advanceClock(2)
    await leave(user, a.id)
    const cMember = (await showGroup(service, owner, c.id)).members.find((m: Json) => m.user_id === user.id)
    await service.call('POST', `/v3/groups/${c.id}/members/${cMember.id}/remove`, { token: owner.token })
    await update(d.id, { requires_approval: true })
    await join(user, d.id, tokenOf(d)) // pending: not listed

    const former = await service.call('GET', '/v3/groups/former', { token: user.token })
    expect(former.status).toBe(200)
    expect(former.body.meta).toEqual({ code: 200, errors: null })
    expect(former.body.response.map((g: Json) => g.id)).toEqual([a.id, b.id])
    expect(former.body.response[0]).toEqual(await showGroup(service, owner, a.id))

    const states = await service.call('GET', '/v3/memberships/states', { token: user.token })
    expect(states.status).toBe(200)
    expect(states.body.response).toEqual([
      { group_id: a.id, state: 'exited' },
      { group_id: b.id, state: 'exited' },
      { group_id: c.id, state: 'removed' },
      { group_id: e.id, state: 'active' }
    ])
    // Banning turns exited into exited_removed and drops it from G2.
    const aMember = (await service.call('GET', `/v3/groups/${a.id}/members`, { token: owner.token, query: { filter: 'inactive' } })).body.response.memberships[0]
    await service.call('POST', `/v2/groups/${a.id}/memberships/${aMember.id}/destroy`, { token: owner.token })
    expect((await service.call('GET', '/v3/groups/former', { token: user.token })).body.response.map((g: Json) => g.id)).toEqual([b.id])
    expect((await service.call('GET', '/v3/memberships/states', { token: user.token })).body.response[0]).toEqual({ group_id: a.id, state: 'exited_removed' })
    expect((await service.call('GET', '/v3/groups/former')).status).toBe(401)
    expect((await service.call('GET', '/v3/memberships/states')).status).toBe(401)
    const fresh = await service.signUp({ name: 'Fresh' })
    expect((await service.call('GET', '/v3/groups/former', { token: fresh.token })).body.response).toEqual([])
    expect((await service.call('GET', '/v3/memberships/states', { token: fresh.token })).body.response).toEqual([])
  })
})
