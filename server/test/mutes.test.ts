import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { addMember, groupMessages, memberOf, pushedDuring, watchUser } from './groups-support.js'
import { startTestService, type Json, type TestService, type TestUser } from './support.js'

let service: TestService
let owner: TestUser
let bob: TestUser
let outsider: TestUser

beforeAll(async () => {
  service = await startTestService()
  ;[owner, bob, outsider] = await Promise.all([service.signUp({ name: 'Olga Owner' }), service.signUp({ name: 'Bob' }), service.signUp({ name: 'Out' })])
})

afterAll(async () => {
  await service.close()
})

const FOREVER = 253402300800

/** MU1/MU2 on v2 (bare) or MU3/MU4 on v3 (enveloped); returns the status and the mute object. */
async function mute(
  variant: 'v2' | 'v3',
  action: 'mute' | 'unmute',
  user: TestUser,
  groupId: string,
  body?: unknown
): Promise<{ status: number; membership: Json; body: Json }> {
  const path = variant === 'v2' ? `/v2/groups/${groupId}/memberships/${action}` : `/v3/groups/${groupId}/memberships/${action}_all`
  const result = await service.call('POST', path, { token: user.token, ...(body === undefined ? {} : { body }) })
  const payload = variant === 'v3' && result.status < 300 ? result.body.response : result.body
  return { status: result.status, membership: payload?.membership, body: result.body }
}

describe.each(['v2', 'v3'] as const)('muting on %s', (variant) => {
  it('mutes for a duration, reads as unmuted once it has passed, and unmutes', async () => {
    const group = await service.createGroup(owner, { name: `Mute ${variant}` })
    const bobM = await addMember(service, owner, group.id, bob, 'Bobby')
    const now = await service.advanceClock(0)
    const muted = await mute(variant, 'mute', bob, group.id, { duration: 10 })
    expect(muted.status).toBe(200)
    if (variant === 'v2') expect(Object.keys(muted.body)).toEqual(['membership'])
    else expect(muted.body.meta).toEqual({ code: 200, errors: null })
    expect(muted.membership).toEqual({
      id: bobM.id,
      user_id: bob.id,
      nickname: 'Bobby',
      avatar_url: null,
      muted: true,
      muted_until: expect.any(Number),
      muted_children: {},
      has_sound_enabled: true,
      autokicked: false
    })
    expect(muted.membership.muted_until - now).toBeGreaterThanOrEqual(600)
    expect(muted.membership.muted_until - now).toBeLessThanOrEqual(602)
    expect((await memberOf(service, owner, group.id, bob)).muted).toBe(true)
    expect((await memberOf(service, owner, group.id, owner)).muted).toBe(false)

    await service.advanceClock(610)
    expect((await memberOf(service, owner, group.id, bob)).muted).toBe(false)
    const expired = await mute(variant, 'unmute', bob, group.id)
    expect(expired.membership).toMatchObject({ muted: false, muted_until: null })

    const forever = await mute(variant, 'mute', bob, group.id, { duration: null })
    expect(forever.membership).toMatchObject({ muted: true, muted_until: FOREVER })
    const absent = await mute(variant, 'mute', bob, group.id)
    expect(absent.membership).toMatchObject({ muted: true, muted_until: FOREVER })
    const max = await mute(variant, 'mute', bob, group.id, { duration: 525600 })
    expect(max.membership.muted_until).toBeGreaterThanOrEqual(now + 610 + 525600 * 60)
    const min = await mute(variant, 'mute', bob, group.id, { duration: 1 })
    expect(min.status).toBe(200)

    const unmuted = await mute(variant, 'unmute', bob, group.id)
    expect(unmuted.status).toBe(200)
    expect(unmuted.membership).toEqual({ ...muted.membership, muted: false, muted_until: null })
    expect((await memberOf(service, owner, group.id, bob)).muted).toBe(false)
  })

  it('rejects bad durations (400) before visibility (404), and needs a token', async () => {
    const group = await service.createGroup(owner, { name: `Mute rules ${variant}` })
    for (const duration of [0, -1, 525601, 1.5, '10', true, [10], {}]) {
      const result = await mute(variant, 'mute', owner, group.id, { duration })
      expect(result.status, JSON.stringify(duration)).toBe(400)
      expect(result.body).toEqual({ response: null, meta: { code: 400, errors: [expect.any(String)] } })
    }
    expect((await mute(variant, 'mute', owner, '99999999', { duration: 0 })).status).toBe(400)
    expect((await mute(variant, 'mute', owner, '99999999', { duration: 5 })).status).toBe(404)
    expect((await mute(variant, 'mute', outsider, group.id, { duration: 5 })).status).toBe(404)
    expect((await mute(variant, 'unmute', outsider, group.id)).status).toBe(404)
    const path = variant === 'v2' ? `/v2/groups/${group.id}/memberships/mute` : `/v3/groups/${group.id}/memberships/mute_all`
    expect((await service.call('POST', path, { body: { duration: 5 } })).status).toBe(401)
  })
})

describe('muting scope', () => {
  it('emits nothing, leaves push delivery alone, and ends with the membership', async () => {
    const group = await service.createGroup(owner, { name: 'Scope' })
    const bobM = await addMember(service, owner, group.id, bob)
    const count = (await groupMessages(service, owner, group.id)).length
    const watch = await watchUser(service, bob)
    try {
      const pushed = await pushedDuring(service, watch.inbox, { from: owner, to: bob }, async () => {
        expect((await mute('v2', 'mute', bob, group.id, { duration: null })).status).toBe(200)
        expect((await mute('v3', 'unmute', bob, group.id)).status).toBe(200)
        expect((await mute('v3', 'mute', bob, group.id)).status).toBe(200)
      })
      expect(pushed).toEqual([])
      // Muted members still receive messages.
      const message = await service.sendGroupMessage(owner, group.id, 'still delivered')
      await watch.inbox.waitFor((item) => item.data.type === 'line.create' && item.data.subject.id === message.id)
    } finally {
      watch.close()
    }
    expect(await groupMessages(service, owner, group.id)).toHaveLength(count + 1)
    // Leaving and coming back starts unmuted.
    await service.call('POST', `/v3/groups/${group.id}/members/${bobM.id}/remove`, { token: bob.token })
    await service.call('POST', '/v3/groups/join', { token: bob.token, body: { group_id: group.id } })
    expect((await memberOf(service, owner, group.id, bob)).muted).toBe(false)
  })
})
