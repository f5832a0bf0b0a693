import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, groupMessages, pushedDuring, showGroup, watchUser } from './groups-support.js'
import { startTestService, type Json, type TestService, type TestUser } from './support.js'

let service: TestService
let owner: TestUser
let bob: TestUser
let outsider: TestUser
let imageUrl: string

beforeAll(async () => {
  service = await startTestService()
  ;[owner, bob, outsider] = await Promise.all([service.signUp({ name: 'Olga Owner' }), service.signUp({ name: 'Bob' }), service.signUp({ name: 'Out' })])
  const upload = await service.call('POST', '/image/pictures', {
    token: owner.token,
    body: Buffer.from([0xff, 0xd8, 0xff]),
    headers: { 'content-type': 'image/jpeg' }
  })
  imageUrl = upload.body.payload.url
})

afterAll(async () => {
  await service.close()
})

const update = (caller: TestUser, groupId: string, body: unknown): Promise<{ status: number; body: Json }> =>
  service.call('POST', `/v3/groups/${groupId}/update`, { token: caller.token, body })

describe('G6 update', () => {
  it('updates every field and returns the group', async () => {
    const group = await service.createGroup(owner, { name: 'Before' })
    await service.advanceClock(5)
    const result = await update(owner, group.id, {
      name: 'After',
      description: 'New description',
      image_url: imageUrl,
      office_mode: true,
      theme_name: 'midnight',
      share: true,
      requires_approval: true,
      show_join_question: true,
      join_question: { type: 'join_reason/questions/text', text: 'Who are you?' },
      like_icon: { type: 'emoji', pack_id: 3, pack_index: 0, extra: 'ignored' },
      visibility: 'searchable',
      group_type: 'closed',
      message_deletion_mode: ['sender', 'sender', 'admin', 'sender'],
      unknown_field: 1
    })
    expect(result.status).toBe(200)
    expect(result.body.meta).toEqual({ code: 200, errors: null })
    const updated = result.body.response
    expect(updated).toMatchObject({
      id: group.id,
      name: 'After',
      description: 'New description',
      image_url: imageUrl,
      office_mode: true,
      theme_name: 'midnight',
      share_url: expect.stringMatching(new RegExp(`^${service.origin}/join_group/${group.id}/[A-Za-z0-9]{8}$`)),
      requires_approval: true,
      show_join_question: true,
      join_question: { type: 'join_reason/questions/text', text: 'Who are you?' },
      like_icon: { type: 'emoji', pack_id: 3, pack_index: 0 },
      visibility: 'searchable',
      type: 'closed',
      message_deletion_mode: ['sender', 'admin'],
      message_edit_period: 15
    })
    expect(updated.like_icon).toEqual({ type: 'emoji', pack_id: 3, pack_index: 0 })
    expect(updated.updated_at).toBeGreaterThanOrEqual(group.updated_at + 5)
    expect(updated.created_at).toBe(group.created_at)
    expect(await showGroup(service, owner, group.id)).toEqual(updated)

    // Clearing: image_url, theme_name and like_icon take null; other nulls count as absent.
    const cleared = await update(owner, group.id, {
      image_url: null,
      theme_name: null,
      like_icon: null,
      name: null,
      description: null,
      share: null,
      office_mode: null,
      message_deletion_mode: []
    })
    expect(cleared.status).toBe(200)
    expect(cleared.body.response).toMatchObject({
      name: 'After',
      description: 'New description',
      image_url: null,
      theme_name: null,
      like_icon: null,
      office_mode: true,
      share_url: updated.share_url,
      message_deletion_mode: []
    })
  })

  it('creates a share token once, keeps it while shared and discards it with share: false', async () => {
    const group = await service.createGroup(owner, { name: 'Sharing' })
    expect(group.share_url).toBeNull()
    const shared = (await update(owner, group.id, { share: true })).body.response.share_url
    expect(shared).toMatch(new RegExp(`/join_group/${group.id}/[A-Za-z0-9]{8}$`))
    expect((await update(owner, group.id, { share: true })).body.response.share_url).toBe(shared)
    expect((await update(owner, group.id, { share: false })).body.response.share_url).toBeNull()
    const token = shared.split('/').at(-1)
    expect((await service.call('POST', `/v3/groups/${group.id}/join/${token}`, { token: outsider.token })).status).toBe(404)
    const again = (await update(owner, group.id, { share: true })).body.response.share_url
    expect(again).not.toBe(shared)
  })

  it('keeps the default join question text and moves updated_at only on a real change', async () => {
    const group = await service.createGroup(owner, { name: 'Quiet' })
    await service.advanceClock(3)
    const same = await update(owner, group.id, { name: 'Quiet', visibility: 'hidden' })
    expect(same.body.response.updated_at).toBe(group.updated_at)
    const empty = await update(owner, group.id, undefined)
    expect(empty.status).toBe(200)
    expect(empty.body.response.updated_at).toBe(group.updated_at)
    const flags = await update(owner, group.id, { requires_approval: true, show_join_question: true })
    expect(flags.body.response.join_question).toEqual({ type: 'join_reason/questions/text', text: 'Why do you want to join this group?' })
    expect(flags.body.response.updated_at).toBeGreaterThan(group.updated_at)
  })

  it('rejects any invalid field with 400 and changes nothing', async () => {
    const group = await service.createGroup(owner, { name: 'Strict', description: 'kept' })
    const before = await showGroup(service, owner, group.id)
    const invalid: Record<string, unknown>[] = [
      { name: '' },
      { name: 'x'.repeat(141) },
      { name: 5 },
      { description: 'd'.repeat(256) },
      { image_url: 'http://elsewhere.example/a.jpg' },
      { image_url: 5 },
      { office_mode: 'true' },
      { theme_name: '' },
      { theme_name: 't'.repeat(51) },
      { share: 'yes' },
      { requires_approval: 1 },
      { show_join_question: 'false' },
      { join_question: { type: 'join_reason/questions/choice', text: 'Q' } },
      { join_question: { text: 'Q' } },
      { join_question: { type: 'join_reason/questions/text', text: '' } },
      { join_question: { type: 'join_reason/questions/text', text: 'q'.repeat(201) } },
      { join_question: 'Q?' },
      { like_icon: { type: 'unicode', code: '👍' } },
      { like_icon: { type: 'emoji', pack_id: 0, pack_index: 0 } },
      { like_icon: { type: 'emoji', pack_id: 1, pack_index: -1 } },
      { like_icon: { type: 'emoji', pack_id: 1.5, pack_index: 0 } },
      { like_icon: { type: 'emoji', pack_id: 1 } },
      { visibility: 'community' },
      { group_type: 'public' },
      { message_deletion_mode: ['owner'] },
      { message_deletion_mode: 'admin' }
    ]
    for (const body of invalid) {
      // A valid change rides along each time: atomicity means it must not be applied either.
      const result = await update(owner, group.id, { name: 'Changed', share: true, ...body })
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body.response).toBeNull()
    }
    expect(await showGroup(service, owner, group.id)).toEqual(before)
    expect((await service.call('POST', `/v3/groups/${group.id}/update`, { token: owner.token, body: '[1]' })).status).toBe(400)
    expect((await service.call('POST', `/v3/groups/${group.id}/update`, { body: { name: 'x' } })).status).toBe(401)
    // Syntax before existence (§2.5).
    expect((await update(owner, '99999999', { name: '' })).status).toBe(400)
    expect((await update(owner, '99999999', { name: 'x' })).status).toBe(404)
    expect((await update(outsider, group.id, { name: 'x' })).status).toBe(404)
  })

  it('lets any member update a private group, only admins and the owner otherwise (403)', async () => {
    const group = await service.createGroup(owner, { name: 'Roles' })
    const bobM = await addMember(service, owner, group.id, bob)
    expect((await update(bob, group.id, { description: 'by Bob' })).status).toBe(200)
    expect((await update(bob, group.id, { group_type: 'announcement' })).status).toBe(200)
    for (const type of ['announcement', 'closed']) {
      expect((await update(owner, group.id, { group_type: type })).status).toBe(200)
      const refused = await update(bob, group.id, { description: 'nope' })
      expect(refused.status).toBe(403)
      expect(refused.body.meta.code).toBe(403)
      expect((await update(bob, group.id, {})).status).toBe(403)
    }
    await service.call('POST', `/v3/groups/${group.id}/members/${bobM.id}/update`, { token: owner.token, body: { role: 'admin' } })
    expect((await update(bob, group.id, { description: 'admin Bob' })).status).toBe(200)
    expect((await showGroup(service, owner, group.id)).description).toBe('admin Bob')
  })

  it('emits nothing (no push, no stored message)', async () => {
    const group = await service.createGroup(owner, { name: 'Silent' })
    await addMember(service, owner, group.id, bob)
    const count = (await groupMessages(service, owner, group.id)).length
    const watch = await watchUser(service, bob)
    try {
      const pushed = await pushedDuring(service, watch.inbox, { from: owner, to: bob }, async () => {
        expect((await update(owner, group.id, { name: 'Renamed', like_icon: { type: 'emoji', pack_id: 1, pack_index: 2 }, share: true, group_type: 'closed' })).status).toBe(200)
      })
      expect(pushed).toEqual([])
    } finally {
      watch.close()
    }
    expect(await groupMessages(service, owner, group.id)).toHaveLength(count)
  })
})

describe('G7 destroy', () => {
  it('is for the owner only; the group is gone from G1–G4 and every group call', async () => {
    const group = await service.createGroup(owner, { name: 'Doomed' })
    const bobM = await addMember(service, owner, group.id, bob)
    await service.sendGroupMessage(bob, group.id, 'last words')
    const admin = await service.signUp({ name: 'Admin' })
    const adminM = await addMember(service, owner, group.id, admin)
    await service.call('POST', `/v3/groups/${group.id}/members/${adminM.id}/update`, { token: owner.token, body: { role: 'admin' } })
    // A former member, to check G2 and G3 lose it too.
    const former = await service.signUp({ name: 'Former' })
    const formerM = await addMember(service, owner, group.id, former)
    await service.call('POST', `/v3/groups/${group.id}/members/${formerM.id}/remove`, { token: former.token })

    expect((await service.call('POST', `/v3/groups/${group.id}/destroy`, { token: bob.token })).status).toBe(403)
    expect((await service.call('POST', `/v3/groups/${group.id}/destroy`, { token: admin.token })).status).toBe(403)
    expect((await service.call('POST', `/v3/groups/${group.id}/destroy`, { token: outsider.token })).status).toBe(404)
    expect((await service.call('POST', `/v3/groups/${group.id}/destroy`)).status).toBe(401)

    const watch = await watchUser(service, bob)
    try {
      const pushed = await pushedDuring(service, watch.inbox, { from: owner, to: bob }, async () => {
        const destroyed = await service.call('POST', `/v3/groups/${group.id}/destroy`, { token: owner.token })
        expect(destroyed.status).toBe(200)
        expect(destroyed.body).toEqual({ response: {}, meta: { code: 200, errors: null } })
      })
      expect(pushed).toEqual([])
    } finally {
      watch.close()
    }

    for (const user of [owner, bob, former]) {
      const listed = await service.call('GET', '/v3/groups', { token: user.token })
      expect(listed.body.response.some((g: Json) => g.id === group.id)).toBe(false)
      const formerList = await service.call('GET', '/v3/groups/former', { token: user.token })
      expect(formerList.body.response.some((g: Json) => g.id === group.id)).toBe(false)
      const states = await service.call('GET', '/v3/memberships/states', { token: user.token })
      expect(states.body.response.some((s: Json) => s.group_id === group.id)).toBe(false)
    }
    const calls: [string, string, unknown?][] = [
      ['GET', `/v3/groups/${group.id}`],
      ['POST', `/v3/groups/${group.id}/destroy`],
      ['POST', `/v3/groups/${group.id}/update`, { name: 'x' }],
      ['GET', `/v3/groups/${group.id}/messages`],
      ['POST', `/v3/groups/${group.id}/messages`, { message: { source_guid: 'g', text: 'x' } }],
      ['GET', `/v3/groups/${group.id}/members`, undefined],
      ['POST', `/v3/groups/${group.id}/members/${bobM.id}/remove`],
      ['POST', `/v3/groups/${group.id}/memberships/update`, { membership: { nickname: 'x' } }],
      ['POST', `/v2/groups/${group.id}/memberships/mute`, {}],
      ['GET', `/v3/groups/${group.id}/pending_memberships`]
    ]
    for (const [method, path, body] of calls) {
      const query: Record<string, string> = path.endsWith('/members') ? { filter: 'active' } : {}
      const result = await service.call(method, path, { token: owner.token, query, ...(body === undefined ? {} : { body }) })
      expect(result.status, `${method} ${path}`).toBe(404)
    }
    expect((await service.call('POST', '/v3/groups/join', { token: former.token, body: { group_id: group.id } })).status).toBe(404)
    const owners = await service.call('POST', '/v3/groups/change_owners', { token: owner.token, body: { requests: [{ group_id: group.id, owner_id: bob.id }] } })
    expect(owners.body.response.results[0].status).toBe('404')
  })
})
