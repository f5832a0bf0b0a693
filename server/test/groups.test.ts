import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService, type TestUser } from './support.js'

let service: TestService
let owner: TestUser
let stranger: TestUser

beforeAll(async () => {
  service = await startTestService()
  owner = await service.signUp({ name: 'Olga Owner' })
  stranger = await service.signUp({ name: 'Stan' })
})

afterAll(async () => {
  await service.close()
})

describe('G5 create group', () => {
  it('creates a group with the §15.2 shape and the caller as owner', async () => {
    const result = await service.call('POST', '/v3/groups', {
      token: owner.token,
      attest: true,
      body: { name: 'Book club', description: 'Monthly reads', share: true, unknown_field: 1 }
    })
    expect(result.status).toBe(201)
    expect(result.body.meta).toEqual({ code: 201, errors: null })
    const group = result.body.response
    expect(group).toEqual({
      id: expect.stringMatching(/^[1-9][0-9]*$/),
      group_id: group.id,
      name: 'Book club',
      type: 'private',
      description: 'Monthly reads',
      image_url: null,
      creator_user_id: owner.id,
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      office_mode: false,
      share_url: expect.stringMatching(new RegExp(`^${service.origin}/join_group/${group.id}/[A-Za-z0-9]{8}$`)),
      members: [
        {
          id: expect.stringMatching(/^[1-9][0-9]*$/),
          user_id: owner.id,
          nickname: 'Olga Owner',
          name: 'Olga Owner',
          image_url: null,
          muted: false,
          autokicked: false,
          roles: ['admin', 'owner']
        }
      ],
      members_count: 1,
      max_members: 5000,
      messages: {
        count: 0,
        last_message_id: null,
        last_message_created_at: null,
        preview: { nickname: null, text: null, image_url: null, attachments: [] }
      },
      like_icon: null,
      requires_approval: false,
      show_join_question: false,
      join_question: { type: 'join_reason/questions/text', text: 'Why do you want to join this group?' },
      visibility: 'hidden',
      message_deletion_mode: ['admin', 'sender'],
      message_edit_period: 15,
      theme_name: null
    })
    expect(group.members[0].id).not.toBe(owner.id)
  })

  it('needs attestation and a valid body', async () => {
    const noAtt = await service.call('POST', '/v3/groups', { token: owner.token, body: { name: 'x' } })
    expect(noAtt.status).toBe(403)
    expect(noAtt.body.meta.errors).toEqual(['device verification required'])
    for (const body of [{}, { name: '' }, { name: 'x'.repeat(141) }, { name: 'x', description: 'd'.repeat(256) }, { name: 'x', image_url: 'http://elsewhere/a.png' }, { name: 'x', share: 1 }]) {
      expect((await service.call('POST', '/v3/groups', { token: owner.token, attest: true, body })).status).toBe(400)
    }
    const nulls = await service.call('POST', '/v3/groups', { token: owner.token, attest: true, body: { name: 'Nulls', description: null, image_url: null, share: null } })
    expect(nulls.status).toBe(201)
    expect(nulls.body.response.share_url).toBeNull()
  })

  it('accepts an image-service URL', async () => {
    const upload = await service.call('POST', '/image/pictures', {
      token: owner.token,
      body: Buffer.from([0x89, 0x50, 0x4e, 0x47]),
      headers: { 'content-type': 'image/png' }
    })
    expect(upload.status).toBe(200)
    const url = upload.body.payload.url as string
    expect(upload.body).toEqual({ payload: { url, picture_url: url } })
    expect(url).toMatch(new RegExp(`^${service.origin}/image/i/[0-9a-f]{32}$`))
    const group = await service.createGroup(owner, { name: 'Pictured', image_url: url })
    expect(group.image_url).toBe(url)
    const bytes = await fetch(url.replace(service.origin, service.boundOrigin))
    expect(bytes.headers.get('content-type')).toBe('image/png')
    expect(Buffer.from(await bytes.arrayBuffer())).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]))
  })
})

describe('G4 show group', () => {
  it('shows a group to members and 404 to everyone else', async () => {
    const group = await service.createGroup(owner, { name: 'Private' })
    const shown = await service.call('GET', `/v3/groups/${group.id}`, { token: owner.token })
    expect(shown.status).toBe(200)
    expect(shown.body.response).toEqual(group)
    expect((await service.call('GET', `/v3/groups/${group.id}`, { token: stranger.token })).status).toBe(404)
    expect((await service.call('GET', '/v3/groups/99999999', { token: owner.token })).status).toBe(404)
    expect((await service.call('GET', '/v3/groups/abc', { token: owner.token })).status).toBe(404)
    expect((await service.call('GET', `/v3/groups/${group.id}`)).status).toBe(401)
  })
})

describe('G1 list groups', () => {
  it('lists the caller’s groups by last activity, pages and omits members', async () => {
    const user = await service.signUp({ name: 'Lister' })
    const a = await service.createGroup(user, { name: 'A' })
    const b = await service.createGroup(user, { name: 'B' })
    const c = await service.createGroup(user, { name: 'C' })
    // Same creation second: ties break by id descending. A message makes A the most recent.
    await service.advanceClock(5)
    await service.sendGroupMessage(user, a.id, 'bump')
    const all = await service.call('GET', '/v3/groups', { token: user.token })
    expect(all.body.response.map((g: { name: string }) => g.name)).toEqual(['A', 'C', 'B'])
    expect(all.body.response[0].messages).toMatchObject({ count: 1, preview: { nickname: 'Lister', text: 'bump', image_url: null, attachments: [] } })

    const page2 = await service.call('GET', '/v3/groups', { token: user.token, query: { page: '2', per_page: '2' } })
    expect(page2.body.response.map((g: { id: string }) => g.id)).toEqual([b.id])
    const past = await service.call('GET', '/v3/groups', { token: user.token, query: { page: '9' } })
    expect(past.status).toBe(200)
    expect(past.body.response).toEqual([])

    const omitted = await service.call('GET', '/v3/groups', { token: user.token, query: { omit: 'foo,memberships' } })
    expect(omitted.body.response.every((g: { members: unknown; members_count: number }) => g.members === null && g.members_count === 1)).toBe(true)
    void c
    expect((await service.call('GET', '/v3/groups', { token: stranger.token })).body.response.some((g: { id: string }) => g.id === a.id)).toBe(false)
  })
})
