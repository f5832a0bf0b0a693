import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  addMember,
  clientFor,
  clockOffset,
  addMembers,
  addResults,
  groupMessages,
  lastMessage,
  memberOf,
  pushedDuring,
  showGroup,
  UPPER_UUID_V4,
  UUID,
  watchUser
} from './groups-support.js'
import { Inbox, pushExt, RawBayeux, startTestService, subscribe, type Json, type TestService, type TestUser } from './support.js'

let service: TestService
let owner: TestUser
let bob: TestUser
let carol: TestUser
let dave: TestUser
let outsider: TestUser

beforeAll(async () => {
  service = await startTestService()
  ;[owner, bob, carol, dave, outsider] = await Promise.all([
    service.signUp({ name: 'Olga Owner' }),
    service.signUp({ name: 'Bob' }),
    service.signUp({ name: 'Carol' }),
    service.signUp({ name: 'Dave' }),
    service.signUp({ name: 'Outsider' })
  ])
})

afterAll(async () => {
  await service.close()
})

const setType = async (groupId: string, type: string): Promise<void> => {
  const result = await service.call('POST', `/v3/groups/${groupId}/update`, { token: owner.token, body: { group_type: type } })
  expect(result.status).toBe(200)
}

const remove = (caller: TestUser, groupId: string, membershipId: string): Promise<{ status: number; body: Json }> =>
  service.call('POST', `/v3/groups/${groupId}/members/${membershipId}/remove`, { token: caller.token })

const ban = (caller: TestUser, groupId: string, membershipId: string): Promise<{ status: number; body: Json }> =>
  service.call('POST', `/v2/groups/${groupId}/memberships/${membershipId}/destroy`, { token: caller.token })

const list = (caller: TestUser, groupId: string, filter?: string): Promise<{ status: number; body: Json }> =>
  service.call('GET', `/v3/groups/${groupId}/members`, { token: caller.token, query: filter === undefined ? {} : { filter } })

const setRole = (caller: TestUser, groupId: string, membershipId: string, body: unknown): Promise<{ status: number; body: Json }> =>
  service.call('POST', `/v3/groups/${groupId}/members/${membershipId}/update`, { token: caller.token, body })

/** A group with sharing and approval on, and `user`'s pending request in it. */
async function pendingRequest(user: TestUser, groupId?: string): Promise<{ groupId: string; pending: Json }> {
  const id = groupId ?? (await service.createGroup(owner, { name: 'Gated', share: true })).id
  const group = await showGroup(service, owner, id)
  await service.call('POST', `/v3/groups/${id}/update`, { token: owner.token, body: { requires_approval: true } })
  const token = (group.share_url as string).split('/').at(-1) as string
  const join = await service.call('POST', `/v3/groups/${id}/join/${token}`, { token: user.token })
  expect(join.status).toBe(202)
  return { groupId: id, pending: join.body.response.membership }
}

describe('MB2 add members and MB3 results', () => {
  it('adds by user id, phone match and case-insensitive e-mail, in request order, with guids', async () => {
    const group = await service.createGroup(owner, { name: 'Adds' })
    const before = await showGroup(service, owner, group.id)
    await service.advanceClock(2)
    const digits = carol.phoneNumber.replace(/[^0-9]/g, '')
    const add = await addMembers(service, owner, group.id, [
      { user_id: bob.id, nickname: 'Bobby', guid: 'my-guid-1' },
      { phone_number: `+${digits}`, nickname: 'Caz', email: null },
      { email: dave.email.toUpperCase(), nickname: 'D' }
    ])
    expect(add.status).toBe(202)
    expect(add.body).toEqual({ response: { results_id: expect.stringMatching(UUID) }, meta: { code: 202, errors: null } })
    const results = await addResults(service, owner, group.id, add.body.response.results_id)
    expect(results.status).toBe(200)
    const members = results.body.response.members
    expect(members.map((m: Json) => [m.user_id, m.nickname])).toEqual([
      [bob.id, 'Bobby'],
      [carol.id, 'Caz'],
      [dave.id, 'D']
    ])
    expect(members[0]).toEqual({
      id: expect.stringMatching(/^[1-9][0-9]*$/),
      user_id: bob.id,
      nickname: 'Bobby',
      name: 'Bob',
      image_url: null,
      muted: false,
      autokicked: false,
      roles: ['user'],
      app_installed: true,
      guid: 'my-guid-1'
    })
    expect(members[1].guid).toMatch(UPPER_UUID_V4)
    expect(members[2].guid).toMatch(UPPER_UUID_V4)
    expect(members[1].guid).not.toBe(members[2].guid)

    const after = await showGroup(service, owner, group.id)
    expect(after.members_count).toBe(4)
    expect(after.members.map((m: Json) => m.id)).toEqual([...after.members.map((m: Json) => m.id)].sort((a: string, b: string) => Number(a) - Number(b)))
    expect(after.updated_at).toBeGreaterThan(before.updated_at)
    expect((await service.call('GET', `/v3/groups/${group.id}`, { token: dave.token })).status).toBe(200)
  })

  it('leaves out unknown accounts, blockers of the caller, duplicates, active and banned users', async () => {
    const group = await service.createGroup(owner, { name: 'Failures' })
    const blocker = await service.signUp({ name: 'Blocker' })
    const block = await service.call('POST', '/v3/blocks', { token: blocker.token, query: { user: blocker.id, otherUser: owner.id } })
    expect(block.status).toBe(201)
    // A banned user: added, leaves, banned.
    const banned = await service.signUp({ name: 'Banned' })
    const bannedMember = await addMember(service, owner, group.id, banned)
    expect((await remove(banned, group.id, bannedMember.id)).status).toBe(200)
    expect((await ban(owner, group.id, bannedMember.id)).status).toBe(200)
    await addMember(service, owner, group.id, carol)

    const count = (await groupMessages(service, owner, group.id)).length
    const add = await addMembers(service, owner, group.id, [
      { user_id: '99999999', nickname: 'Nobody' },
      { email: 'nobody@example.test', nickname: 'Nobody' },
      { phone_number: '+1 000', nickname: 'Nobody' },
      { user_id: 'abc', nickname: 'Nobody' },
      { user_id: blocker.id, nickname: 'Blocker' },
      { user_id: owner.id, nickname: 'Me' },
      { user_id: carol.id, nickname: 'Again' },
      { user_id: banned.id, nickname: 'Banned' },
      { user_id: bob.id, nickname: 'First Bob' },
      { email: bob.email, nickname: 'Second Bob' }
    ])
    expect(add.status).toBe(202)
    const results = await addResults(service, owner, group.id, add.body.response.results_id)
    expect(results.body.response.members.map((m: Json) => [m.user_id, m.nickname])).toEqual([[bob.id, 'First Bob']])
    // One system message for the one added user.
    expect(await groupMessages(service, owner, group.id)).toHaveLength(count + 1)
    expect((await lastMessage(service, owner, group.id)).event.data.added_users).toEqual([{ id: bob.id, nickname: 'First Bob' }])

    // A duplicate of an account that failed still fails, and nobody added means no message.
    const none = await addMembers(service, owner, group.id, [{ user_id: carol.id, nickname: 'x' }, { email: carol.email, nickname: 'y' }])
    expect((await addResults(service, owner, group.id, none.body.response.results_id)).body.response.members).toEqual([])
    expect(await groupMessages(service, owner, group.id)).toHaveLength(count + 1)
  })

  it('re-adds exited and removed users and settles a pending request', async () => {
    const group = await service.createGroup(owner, { name: 'Comebacks', share: true })
    const bobMember = await addMember(service, owner, group.id, bob)
    const carolMember = await addMember(service, owner, group.id, carol)
    expect((await remove(bob, group.id, bobMember.id)).status).toBe(200) // exited
    expect((await remove(owner, group.id, carolMember.id)).status).toBe(200) // removed
    const { pending } = await pendingRequest(dave, group.id)
    const add = await addMembers(service, owner, group.id, [
      { user_id: bob.id, nickname: 'Bob again' },
      { user_id: carol.id, nickname: 'Carol again' },
      { user_id: dave.id, nickname: 'Dave' }
    ])
    const members = (await addResults(service, owner, group.id, add.body.response.results_id)).body.response.members
    expect(members.map((m: Json) => m.user_id)).toEqual([bob.id, carol.id, dave.id])
    // One row per (group, user): the membership id survives every state.
    expect(members[0].id).toBe(bobMember.id)
    expect(members[2].id).toBe(pending.id)
    const states = await list(owner, group.id, 'active')
    expect(states.body.response.memberships.map((m: Json) => m.user_id).sort()).toEqual([owner.id, bob.id, carol.id, dave.id].sort())
    const pendingNow = await service.call('GET', `/v3/groups/${group.id}/pending_memberships`, { token: owner.token })
    expect(pendingNow.body.response).toEqual([])
  })

  it('pushes membership.create to each added user and the announce.added system message to the members', async () => {
    const group = await service.createGroup(owner, { name: 'Announced "quotes"', share: true })
    const fresh = await service.signUp({ name: 'Fresh' })
    const ownerWatch = await watchUser(service, owner)
    const freshWatch = await watchUser(service, fresh)
    try {
      const add = await addMembers(service, owner, group.id, [{ user_id: fresh.id, nickname: 'Freshly' }])
      expect(add.status).toBe(202)
      const created = await freshWatch.inbox.waitFor((item) => item.data.type === 'membership.create')
      const shown = await showGroup(service, owner, group.id)
      expect(created.data).toEqual({
        type: 'membership.create',
        alert: 'You\'ve been added to "Announced "quotes"".',
        subject: {
          avatar_url: null,
          created_at: shown.created_at,
          creator_id: owner.id,
          description: '',
          disable_sharing: false,
          id: group.id,
          max_memberships: 5000,
          name: 'Announced "quotes"',
          phone_number: null,
          preview_url: null,
          share_url: shown.share_url,
          shared: true,
          theme_name: null,
          thread_id: null,
          type: 'private',
          updated_at: shown.updated_at
        },
        received_at: expect.any(Number)
      })
      for (const watch of [ownerWatch, freshWatch]) {
        const line = await watch.inbox.waitFor((item) => item.data.type === 'line.create')
        expect(line.data.subject).toMatchObject({
          system: true,
          user_id: 'system',
          sender_id: 'system',
          sender_type: 'system',
          name: 'System',
          avatar_url: null,
          group_id: group.id,
          source_guid: expect.stringMatching(/^[0-9a-f]{32}$/),
          event: {
            type: 'membership.announce.added',
            data: { added_users: [{ id: fresh.id, nickname: 'Freshly' }], adder_user: { id: owner.id, nickname: 'Olga Owner' } }
          }
        })
        expect(line.data.alert).toBe(line.data.subject.text)
      }
      // The adder gets no membership.create.
      expect(ownerWatch.inbox.received.some((item) => item.data.type === 'membership.create')).toBe(false)
      // Stored: listed, counted and the preview.
      const after = await showGroup(service, owner, group.id)
      expect(after.messages.count).toBe(1)
      expect(after.messages.preview.nickname).toBe('System')
      expect((await lastMessage(service, fresh, group.id)).event.type).toBe('membership.announce.added')
    } finally {
      ownerWatch.close()
      freshWatch.close()
    }
  })

  it('checks attestation, syntax, visibility and the manager role in §2.5 order', async () => {
    const group = await service.createGroup(owner, { name: 'Checks' })
    await addMember(service, owner, group.id, bob)
    const ok = [{ user_id: carol.id, nickname: 'C' }]
    const noAtt = await service.call('POST', `/v3/groups/${group.id}/members/add`, { token: owner.token, body: { members: 'bad' } })
    expect(noAtt.status).toBe(403)
    expect(noAtt.body.meta.errors).toEqual(['device verification required'])
    expect((await service.call('POST', `/v3/groups/${group.id}/members/add`, { attest: true, body: { members: ok } })).status).toBe(401)
    const invalid: unknown[] = [
      undefined,
      [],
      Array.from({ length: 101 }, (_, i) => ({ user_id: carol.id, nickname: `n${i}` })),
      [{ user_id: carol.id }],
      [{ user_id: carol.id, nickname: '' }],
      [{ user_id: carol.id, nickname: 'x'.repeat(51) }],
      [{ nickname: 'x' }],
      [{ nickname: 'x', user_id: null, email: null }],
      [{ nickname: 'x', user_id: carol.id, email: carol.email }],
      [{ nickname: 'x', user_id: Number(carol.id) }],
      [{ nickname: 'x', user_id: carol.id, guid: 5 }],
      ['not an object'],
      [...ok, { nickname: 'bad' }]
    ]
    for (const members of invalid) {
      const result = await service.call('POST', `/v3/groups/${group.id}/members/add`, {
        token: owner.token,
        attest: true,
        body: members === undefined ? {} : { members }
      })
      expect(result.status, JSON.stringify(members)).toBe(400)
    }
    // Syntax comes before existence: an invalid body on an unknown group is 400.
    expect((await addMembers(service, owner, '99999999', [])).status).toBe(400)
    expect((await addMembers(service, owner, '99999999', ok)).status).toBe(404)
    expect((await addMembers(service, outsider, group.id, ok)).status).toBe(404)
    // Exactly 100 items is fine.
    const hundred = Array.from({ length: 100 }, (_, i) => ({ user_id: carol.id, nickname: `n${i}` }))
    expect((await addMembers(service, owner, group.id, hundred)).status).toBe(202)

    // private: any member manages; closed / announcement: admins and the owner only.
    expect((await addMembers(service, bob, group.id, [{ user_id: dave.id, nickname: 'D' }])).status).toBe(202)
    for (const type of ['closed', 'announcement']) {
      await setType(group.id, type)
      expect((await addMembers(service, bob, group.id, [{ user_id: outsider.id, nickname: 'O' }])).status).toBe(403)
    }
    expect((await memberOf(service, owner, group.id, outsider))).toBeUndefined()
  })

  it('MB3: 404 for unknown, foreign, other-group and hour-old results', async () => {
    const group = await service.createGroup(owner, { name: 'Results' })
    const other = await service.createGroup(owner, { name: 'Other' })
    await addMember(service, owner, group.id, bob)
    const add = await addMembers(service, owner, group.id, [{ user_id: carol.id, nickname: 'C' }])
    const id = add.body.response.results_id
    expect((await addResults(service, owner, group.id, id)).status).toBe(200)
    expect((await addResults(service, owner, group.id, '00000000-0000-4000-8000-000000000000')).status).toBe(404)
    expect((await addResults(service, bob, group.id, id)).status).toBe(404)
    expect((await addResults(service, owner, other.id, id)).status).toBe(404)
    expect((await addResults(service, outsider, group.id, id)).status).toBe(404)
    expect((await service.call('GET', `/v3/groups/${group.id}/members/results/${id}`)).status).toBe(401)
    await service.advanceClock(3590)
    expect((await addResults(service, owner, group.id, id)).status).toBe(200)
    await service.advanceClock(11)
    const old = await addResults(service, owner, group.id, id)
    expect(old.status).toBe(404)
    expect(old.body).toEqual({ response: null, meta: { code: 404, errors: [expect.any(String)] } })
  })
})

describe('MB3 readiness (SERVICE_ADD_RESULTS_DELAY_MS)', () => {
  it('answers 503 until the delay has passed on the service clock', async () => {
    const delayed = await startTestService({ env: { SERVICE_ADD_RESULTS_DELAY_MS: '60000' } })
    try {
      const [a, b] = await Promise.all([delayed.signUp({ name: 'A' }), delayed.signUp({ name: 'B' })])
      const group = await delayed.createGroup(a)
      const add = await delayed.call('POST', `/v3/groups/${group.id}/members/add`, {
        token: a.token,
        attest: true,
        body: { members: [{ user_id: b.id, nickname: 'B' }] }
      })
      expect(add.status).toBe(202)
      const path = `/v3/groups/${group.id}/members/results/${add.body.response.results_id}`
      const early = await delayed.call('GET', path, { token: a.token })
      expect(early.status).toBe(503)
      expect(early.body).toEqual({ response: null, meta: { code: 503, errors: [expect.any(String)] } })
      // The membership itself exists at once.
      expect((await delayed.call('GET', `/v3/groups/${group.id}`, { token: b.token })).status).toBe(200)
      await delayed.advanceClock(60)
      const ready = await delayed.call('GET', path, { token: a.token })
      expect(ready.status).toBe(200)
      expect(ready.body.response.members.map((m: Json) => m.user_id)).toEqual([b.id])
    } finally {
      await delayed.close()
    }
  })
})

describe('MB1 list memberships', () => {
  it('lists active or inactive memberships by id for admins and the owner only', async () => {
    const group = await service.createGroup(owner, { name: 'Listing' })
    const bobM = await addMember(service, owner, group.id, bob, 'B')
    const carolM = await addMember(service, owner, group.id, carol, 'C')
    const daveM = await addMember(service, owner, group.id, dave, 'D')
    const outsiderM = await addMember(service, owner, group.id, outsider, 'O')
    expect((await remove(carol, group.id, carolM.id)).status).toBe(200)
    expect((await remove(owner, group.id, daveM.id)).status).toBe(200)
    expect((await remove(outsider, group.id, outsiderM.id)).status).toBe(200)
    expect((await ban(owner, group.id, outsiderM.id)).status).toBe(200)

    const active = await list(owner, group.id, 'active')
    expect(active.status).toBe(200)
    const ownerM = (await memberOf(service, owner, group.id, owner)).id
    expect(active.body.response).toEqual({
      memberships: [
        { id: ownerM, user_id: owner.id, name: 'Olga Owner', nickname: 'Olga Owner', image_url: null, state: 'active', roles: ['admin', 'owner'] },
        { id: bobM.id, user_id: bob.id, name: 'Bob', nickname: 'B', image_url: null, state: 'active', roles: ['user'] }
      ]
    })
    const inactive = await list(owner, group.id, 'inactive')
    expect(inactive.body.response.memberships.map((m: Json) => [m.id, m.state])).toEqual([
      [carolM.id, 'exited'],
      [daveM.id, 'removed'],
      [outsiderM.id, 'exited_removed']
    ])

    // Any member may manage a private group, but MB1 is for admins and the owner only (§18.10).
    expect((await list(bob, group.id, 'active')).status).toBe(401)
    expect((await setRole(owner, group.id, bobM.id, { role: 'admin' })).status).toBe(200)
    expect((await list(bob, group.id, 'inactive')).status).toBe(200)

    expect((await list(owner, group.id)).status).toBe(400)
    expect((await list(owner, group.id, 'all')).status).toBe(400)
    expect((await list(carol, group.id, 'active')).status).toBe(404)
    expect((await list(owner, '99999999', 'active')).status).toBe(404)
  })
})

describe('MB4 remove', () => {
  it('turns one’s own membership into exited and someone else’s into removed, with system messages', async () => {
    const group = await service.createGroup(owner, { name: 'Leaving' })
    const bobM = await addMember(service, owner, group.id, bob, 'B')
    const carolM = await addMember(service, owner, group.id, carol, 'C')
    const bobWatch = await watchUser(service, bob)
    const carolWatch = await watchUser(service, carol)
    try {
      const left = await remove(bob, group.id, bobM.id)
      expect(left.status).toBe(200)
      expect(left.body).toEqual({ response: {}, meta: { code: 200, errors: null } })
      const exited = await bobWatch.inbox.waitFor((item) => item.data.subject?.event?.type === 'membership.notifications.exited')
      expect(exited.data.subject.event.data).toEqual({ removed_user: { id: bob.id, nickname: 'B' } })
      await carolWatch.inbox.waitFor((item) => item.data.subject?.event?.type === 'membership.notifications.exited')

      const removed = await remove(owner, group.id, carolM.id)
      expect(removed.status).toBe(200)
      const notice = await carolWatch.inbox.waitFor((item) => item.data.subject?.event?.type === 'membership.notifications.removed')
      expect(notice.data.subject.event.data).toEqual({
        remover_user: { id: owner.id, nickname: 'Olga Owner' },
        removed_user: { id: carol.id, nickname: 'C' }
      })
      // Bob is no longer a member: he does not get Carol's removal.
      expect(bobWatch.inbox.received.some((item) => item.data.subject?.event?.type === 'membership.notifications.removed')).toBe(false)
    } finally {
      bobWatch.close()
      carolWatch.close()
    }
    const states = await list(owner, group.id, 'inactive')
    expect(states.body.response.memberships.map((m: Json) => [m.user_id, m.state])).toEqual([
      [bob.id, 'exited'],
      [carol.id, 'removed']
    ])
    const stored = (await groupMessages(service, owner, group.id)).slice(0, 2).map((m: Json) => m.event.type)
    expect(stored).toEqual(['membership.notifications.removed', 'membership.notifications.exited'])
    expect((await service.call('GET', `/v3/groups/${group.id}`, { token: bob.token })).status).toBe(404)
  })

  it('404 for a membership that is not active here; 403 for the owner and for non-managers', async () => {
    const group = await service.createGroup(owner, { name: 'Remove rules' })
    const other = await service.createGroup(owner, { name: 'Elsewhere' })
    const bobM = await addMember(service, owner, group.id, bob)
    const carolM = await addMember(service, owner, group.id, carol)
    const daveM = await addMember(service, owner, group.id, dave)
    const elsewhere = await addMember(service, owner, other.id, outsider)
    const ownerM = (await memberOf(service, owner, group.id, owner)).id

    expect((await remove(owner, group.id, '99999999')).status).toBe(404)
    expect((await remove(owner, group.id, 'abc')).status).toBe(404)
    expect((await remove(owner, group.id, elsewhere.id)).status).toBe(404)
    expect((await remove(outsider, group.id, bobM.id)).status).toBe(404)
    // The owner can neither leave nor be removed.
    expect((await remove(owner, group.id, ownerM)).status).toBe(403)
    expect((await remove(bob, group.id, ownerM)).status).toBe(403)
    // private: any member may remove others.
    expect((await remove(bob, group.id, daveM.id)).status).toBe(200)
    expect((await remove(owner, group.id, daveM.id)).status).toBe(404) // no longer active
    // closed: only admins and the owner remove others; anyone may leave.
    await setType(group.id, 'closed')
    expect((await remove(bob, group.id, carolM.id)).status).toBe(403)
    expect((await setRole(owner, group.id, carolM.id, { role: 'admin' })).status).toBe(200)
    expect((await remove(carol, group.id, ownerM)).status).toBe(403)
    expect((await remove(carol, group.id, bobM.id)).status).toBe(200)
    expect((await remove(carol, group.id, carolM.id)).status).toBe(200)
  })

  it('stops /group deliveries to a user who is no longer a member', async () => {
    const group = await service.createGroup(owner, { name: 'Typing' })
    const bobM = await addMember(service, owner, group.id, bob)
    await addMember(service, owner, group.id, carol)
    const { client: bobClient } = await clientFor(service, bob)
    const { client: carolClient } = await clientFor(service, carol)
    const offset = await clockOffset(service)
    const ext = (user: TestUser): Json => pushExt(user.token, Math.floor(Date.now() / 1000) + offset)
    const bobInbox = new Inbox()
    const carolInbox = new Inbox()
    const publisher = new RawBayeux(service)
    try {
      await subscribe(bobClient, `/group/${group.id}`, bobInbox)
      await subscribe(carolClient, `/group/${group.id}`, carolInbox)
      await publisher.handshake()
      const typing = (n: number): Json => ({ type: 'typing', user_id: owner.id, started: n })
      await publisher.publish(`/group/${group.id}`, typing(1), ext(owner))
      await bobInbox.waitFor((item) => item.data.started === 1)
      await carolInbox.waitFor((item) => item.data.started === 1)
      expect((await remove(owner, group.id, bobM.id)).status).toBe(200)
      await publisher.publish(`/group/${group.id}`, typing(2), ext(owner))
      await carolInbox.waitFor((item) => item.data.started === 2)
      await new Promise((resolve) => setTimeout(resolve, 200))
      expect(bobInbox.received.some((item) => item.data.started === 2)).toBe(false)
      // And a new subscription is refused.
      const raw = new RawBayeux(service)
      await raw.handshake()
      expect(await raw.subscribe(`/group/${group.id}`, ext(bob))).toMatchObject({ successful: false, error: '403::Forbidden channel' })
      await raw.disconnect()
    } finally {
      bobClient.disconnect()
      carolClient.disconnect()
      await publisher.disconnect()
    }
  })
})

describe('MB5 pending memberships and MB6 approval', () => {
  it('lists pending requests to any member, oldest first, in the §15.4 shape', async () => {
    const group = await service.createGroup(owner, { name: 'Queue', share: true })
    await addMember(service, owner, group.id, bob)
    const first = await pendingRequest(carol, group.id)
    await service.advanceClock(3)
    const second = await pendingRequest(dave, group.id)
    const pending = await service.call('GET', `/v3/groups/${group.id}/pending_memberships`, { token: bob.token })
    expect(pending.status).toBe(200)
    expect(pending.body.response).toEqual([first.pending, second.pending])
    expect(first.pending).toEqual({
      id: expect.stringMatching(/^[1-9][0-9]*$/),
      user_id: carol.id,
      nickname: 'Carol',
      image_url: null,
      timestamp: expect.any(Number),
      state: 'requested_pending',
      reason: { type: 'join_reason/membership_join_reason', question: null, answer: null, method: 'share_link' }
    })
    expect(second.pending.timestamp).toBeGreaterThan(first.pending.timestamp)
    expect((await service.call('GET', `/v3/groups/${group.id}/pending_memberships`, { token: carol.token })).status).toBe(404)
    const none = await service.createGroup(owner, { name: 'No queue' })
    expect((await service.call('GET', `/v3/groups/${none.id}/pending_memberships`, { token: owner.token })).body.response).toEqual([])
  })

  it('approves (membership.create + announce.joined) and denies (nothing); denied users may ask again', async () => {
    const group = await service.createGroup(owner, { name: 'Door', share: true })
    const { pending: carolP } = await pendingRequest(carol, group.id)
    const { pending: daveP } = await pendingRequest(dave, group.id)
    const carolWatch = await watchUser(service, carol)
    try {
      const approve = await service.call('POST', `/v3/groups/${group.id}/members/${carolP.id}/approval`, { token: owner.token, body: { approval: true } })
      expect(approve.status).toBe(200)
      expect(approve.body.response).toEqual({ membership_id: carolP.id, state: 'active' })
      const created = await carolWatch.inbox.waitFor((item) => item.data.type === 'membership.create')
      expect(created.data.alert).toBe('You\'ve been added to "Door".')
      expect(created.data.subject.id).toBe(group.id)
      const joined = await carolWatch.inbox.waitFor((item) => item.data.subject?.event?.type === 'membership.announce.joined')
      expect(joined.data.subject.event.data).toEqual({ user: { id: carol.id, nickname: 'Carol' } })
    } finally {
      carolWatch.close()
    }
    expect((await memberOf(service, owner, group.id, carol)).id).toBe(carolP.id)

    const count = (await groupMessages(service, owner, group.id)).length
    const deny = await service.call('POST', `/v3/groups/${group.id}/members/${daveP.id}/approval`, { token: owner.token, body: { approval: false } })
    expect(deny.body.response).toEqual({ membership_id: daveP.id, state: 'denied' })
    expect(await groupMessages(service, owner, group.id)).toHaveLength(count)
    expect((await service.call('GET', `/v3/groups/${group.id}`, { token: dave.token })).status).toBe(404)
    // A denied user may request again.
    const again = await pendingRequest(dave, group.id)
    expect(again.pending.id).toBe(daveP.id)
    expect(again.pending.state).toBe('requested_pending')
  })

  it('400 syntax, 404 not a pending request here, 401 not a manager', async () => {
    const group = await service.createGroup(owner, { name: 'Gate rules', share: true })
    const bobM = await addMember(service, owner, group.id, bob)
    const { pending } = await pendingRequest(carol, group.id)
    const approval = (caller: TestUser, id: string, body: unknown): Promise<{ status: number; body: Json }> =>
      service.call('POST', `/v3/groups/${group.id}/members/${id}/approval`, { token: caller.token, body })
    for (const body of [undefined, {}, { approval: 'true' }, { approval: 1 }, { approval: null }]) {
      expect((await approval(owner, pending.id, body)).status).toBe(400)
    }
    expect((await approval(owner, bobM.id, { approval: true })).status).toBe(404)
    expect((await approval(owner, '99999999', { approval: true })).status).toBe(404)
    expect((await approval(outsider, pending.id, { approval: true })).status).toBe(404)
    await setType(group.id, 'closed')
    const refused = await approval(bob, pending.id, { approval: true })
    expect(refused.status).toBe(401)
    expect(refused.body.meta.code).toBe(401)
    // Any member manages a private group.
    await setType(group.id, 'private')
    expect((await approval(bob, pending.id, { approval: true })).status).toBe(200)
    expect((await approval(bob, pending.id, { approval: true })).status).toBe(404)
  })
})

describe('MB7 ban (v2)', () => {
  it('bans exited users (bare {}), keeps banned ones, refuses active and removed ones', async () => {
    const group = await service.createGroup(owner, { name: 'Bans', share: true })
    const bobM = await addMember(service, owner, group.id, bob)
    const carolM = await addMember(service, owner, group.id, carol)
    const daveM = await addMember(service, owner, group.id, dave)
    expect((await remove(bob, group.id, bobM.id)).status).toBe(200)
    expect((await remove(owner, group.id, carolM.id)).status).toBe(200)

    const ownerWatch = await watchUser(service, owner)
    try {
      const pushed = await pushedDuring(service, ownerWatch.inbox, { from: dave, to: owner }, async () => {
        const banned = await ban(owner, group.id, bobM.id)
        expect(banned.status).toBe(200)
        expect(banned.body).toEqual({})
      })
      expect(pushed).toEqual([]) // a ban emits nothing
    } finally {
      ownerWatch.close()
    }
    expect((await ban(owner, group.id, bobM.id)).body).toEqual({})
    const active = await ban(owner, group.id, daveM.id)
    expect(active.status).toBe(400)
    expect(active.body).toEqual({ response: null, meta: { code: 400, errors: [expect.any(String)] } })
    expect((await ban(owner, group.id, carolM.id)).status).toBe(400)
    expect((await ban(owner, group.id, '99999999')).status).toBe(404)
    expect((await ban(outsider, group.id, bobM.id)).status).toBe(404)
    expect((await service.call('POST', `/v2/groups/${group.id}/memberships/${bobM.id}/destroy`)).status).toBe(401)
    const { pending } = await pendingRequest(outsider, group.id)
    expect((await ban(owner, group.id, pending.id)).status).toBe(400)

    // Banned users never come back: add skips them, G8 and G9 → 403.
    const add = await addMembers(service, owner, group.id, [{ user_id: bob.id, nickname: 'B' }])
    expect((await addResults(service, owner, group.id, add.body.response.results_id)).body.response.members).toEqual([])
    await service.call('POST', `/v3/groups/${group.id}/update`, { token: owner.token, body: { requires_approval: false } })
    const token = ((await showGroup(service, owner, group.id)).share_url as string).split('/').at(-1)
    expect((await service.call('POST', `/v3/groups/${group.id}/join/${token}`, { token: bob.token })).status).toBe(403)
    expect((await service.call('POST', '/v3/groups/join', { token: bob.token, body: { group_id: group.id } })).status).toBe(403)
    const inactive = await list(owner, group.id, 'inactive')
    expect(inactive.body.response.memberships.find((m: Json) => m.user_id === bob.id).state).toBe('exited_removed')

    // closed: only managers ban.
    expect((await remove(dave, group.id, daveM.id)).status).toBe(200)
    const eve = await service.signUp({ name: 'Eve' })
    await addMember(service, owner, group.id, eve)
    await setType(group.id, 'closed')
    expect((await ban(eve, group.id, daveM.id)).status).toBe(403)
    await setType(group.id, 'private')
    expect((await ban(eve, group.id, daveM.id)).status).toBe(200)
  })
})

describe('MB8 nickname', () => {
  it('changes the caller’s nickname and posts membership.nickname_changed', async () => {
    const group = await service.createGroup(owner, { name: 'Names' })
    const bobM = await addMember(service, owner, group.id, bob, 'Bobby')
    const update = (caller: TestUser, body: unknown): Promise<{ status: number; body: Json }> =>
      service.call('POST', `/v3/groups/${group.id}/memberships/update`, { token: caller.token, body })
    const changed = await update(bob, { membership: { nickname: 'Robert' } })
    expect(changed.status).toBe(200)
    expect(changed.body.response).toEqual({
      id: bobM.id,
      user_id: bob.id,
      nickname: 'Robert',
      name: 'Bob',
      image_url: null,
      muted: false,
      autokicked: false,
      roles: ['user'],
      app_installed: true
    })
    const message = await lastMessage(service, owner, group.id)
    expect(message.event).toEqual({ type: 'membership.nickname_changed', data: { user: { id: bob.id, nickname: 'Bobby' }, name: 'Robert' } })
    expect((await memberOf(service, owner, group.id, bob)).nickname).toBe('Robert')
    // Later messages carry the new nickname.
    expect((await service.sendGroupMessage(bob, group.id, 'hi')).name).toBe('Robert')

    expect((await update(bob, { membership: { nickname: 'x'.repeat(50) } })).status).toBe(200)
    for (const body of [undefined, {}, { nickname: 'flat' }, { membership: {} }, { membership: { nickname: '' } }, { membership: { nickname: 'x'.repeat(51) } }, { membership: { nickname: 5 } }]) {
      expect((await update(bob, body)).status, JSON.stringify(body)).toBe(400)
    }
    expect((await update(outsider, { membership: { nickname: 'Hi' } })).status).toBe(404)
  })
})

describe('MB9 roles', () => {
  it('lets the owner make admins and users; 404, 403 and 400 as listed; emits nothing', async () => {
    const group = await service.createGroup(owner, { name: 'Roles' })
    const bobM = await addMember(service, owner, group.id, bob)
    const carolM = await addMember(service, owner, group.id, carol)
    const ownerM = (await memberOf(service, owner, group.id, owner)).id
    const count = (await groupMessages(service, owner, group.id)).length

    const promoted = await setRole(owner, group.id, bobM.id, { role: 'admin' })
    expect(promoted.status).toBe(200)
    expect(promoted.body.response).toEqual({
      member: { id: bobM.id, user_id: bob.id, nickname: 'Bob', name: 'Bob', image_url: null, muted: false, autokicked: false, roles: ['admin'] }
    })
    expect((await memberOf(service, owner, group.id, bob)).roles).toEqual(['admin'])
    // Admins are not the owner.
    expect((await setRole(bob, group.id, carolM.id, { role: 'admin' })).status).toBe(403)
    expect((await setRole(carol, group.id, bobM.id, { role: 'user' })).status).toBe(403)
    expect((await setRole(owner, group.id, ownerM, { role: 'user' })).status).toBe(400)
    expect((await setRole(owner, group.id, ownerM, { role: 'admin' })).status).toBe(400)
    expect((await setRole(owner, group.id, '99999999', { role: 'admin' })).status).toBe(404)
    for (const body of [undefined, {}, { role: 'owner' }, { role: 'ADMIN' }, { role: null }]) {
      expect((await setRole(owner, group.id, bobM.id, body)).status).toBe(400)
    }
    const demoted = await setRole(owner, group.id, bobM.id, { role: 'user' })
    expect(demoted.body.response.member.roles).toEqual(['user'])
    expect((await remove(carol, group.id, carolM.id)).status).toBe(200)
    expect((await setRole(owner, group.id, carolM.id, { role: 'admin' })).status).toBe(404)
    // Role changes are not announced (only the exit above was).
    expect(await groupMessages(service, owner, group.id)).toHaveLength(count + 1)
  })
})

describe('group types (§2.6)', () => {
  it('lets only admins and the owner post in announcement groups', async () => {
    const group = await service.createGroup(owner, { name: 'News' })
    const bobM = await addMember(service, owner, group.id, bob)
    await setType(group.id, 'announcement')
    const post = (user: TestUser): Promise<{ status: number }> =>
      service.call('POST', `/v3/groups/${group.id}/messages`, { token: user.token, body: { message: { source_guid: `g${Math.random()}`, text: 'hi' } } })
    expect((await post(bob)).status).toBe(403)
    expect((await post(owner)).status).toBe(201)
    await setRole(owner, group.id, bobM.id, { role: 'admin' })
    expect((await post(bob)).status).toBe(201)
    await setType(group.id, 'closed')
    await setRole(owner, group.id, bobM.id, { role: 'user' })
    expect((await post(bob)).status).toBe(201)
  })
})
