import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService, type TestUser } from './support.js'

/** Tokens T1–T2 and expiry (§2.2, §3), password change P1, self update U2 and profiles U3 (§4, §15.9). */

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})

afterAll(async () => {
  await service.close()
})

const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/

const login = (user: TestUser, extra: Record<string, unknown> = {}) =>
  service.call('POST', '/v2/access_tokens', {
    body: { app_id: 'app-1', grant_type: 'password', username: user.email, password: user.password, ...extra }
  })

const me = (token: string) => service.call('GET', '/v3/users/me', { token })

async function uploadImage(user: TestUser): Promise<string> {
  const upload = await service.call('POST', '/image/pictures', {
    token: user.token,
    body: Buffer.from('GIF89a'),
    headers: { 'content-type': 'image/gif' }
  })
  expect(upload.status).toBe(200)
  return upload.body.payload.url as string
}

describe('T1 list tokens', () => {
  it('lists the live tokens, this one included, by ascending id with ISO microsecond times and app_id', async () => {
    const user = await service.createUser()
    const first = await service.signIn(user, { appId: 'first-app' })
    const second = await service.signIn(user, { appId: 'second-app' })
    const third = await service.signIn(user, { appId: 'third-app' })
    expect((await service.call('POST', '/v2/access_tokens/current/destroy', { token: third })).status).toBe(200)

    const result = await service.call('GET', '/v2/access_tokens', { token: second })
    expect(result.status).toBe(200)
    expect(result.body.meta).toBeUndefined()
    expect(Object.keys(result.body)).toEqual(['access_tokens'])
    const list = result.body.access_tokens as { id: number; created_at: string; app_id: string }[]
    expect(list.map((t) => t.app_id)).toEqual(['first-app', 'second-app'])
    for (const entry of list) {
      expect(Object.keys(entry).sort()).toEqual(['app_id', 'created_at', 'id'])
      expect(Number.isInteger(entry.id)).toBe(true)
      expect(entry.created_at).toMatch(ISO_MICROS)
      expect(Math.abs(Date.parse(entry.created_at) - Date.now())).toBeLessThan(60_000)
    }
    expect(list.map((t) => t.id)).toEqual([...list.map((t) => t.id)].sort((a, b) => a - b))
    // The header carries the token as well.
    expect((await service.call('GET', '/v2/access_tokens', { tokenHeader: first })).body.access_tokens).toHaveLength(2)
    expect((await service.call('GET', '/v2/access_tokens')).status).toBe(401)
  })
})

describe('T2 revoke a token by id', () => {
  it('revokes one of the caller’s live tokens with exactly {}', async () => {
    const user = await service.createUser()
    const keep = await service.signIn(user, { appId: 'keep' })
    const drop = await service.signIn(user, { appId: 'drop' })
    const list = (await service.call('GET', '/v2/access_tokens', { token: keep })).body.access_tokens
    const dropId = list.find((t: { app_id: string }) => t.app_id === 'drop').id
    const result = await service.call('POST', `/v2/access_tokens/${dropId}/destroy`, { token: keep })
    expect(result.status).toBe(200)
    expect(result.body).toEqual({})
    expect((await me(drop)).status).toBe(401)
    expect((await me(keep)).status).toBe(200)
    // Revoking one's own token by id works too.
    const keepId = list.find((t: { app_id: string }) => t.app_id === 'keep').id
    expect((await service.call('POST', `/v2/access_tokens/${keepId}/destroy`, { token: keep })).status).toBe(200)
    expect((await me(keep)).status).toBe(401)
  })

  it('answers 404 for anything that is not a live token of the caller', async () => {
    const user = await service.createUser()
    const other = await service.signUp()
    const token = await service.signIn(user)
    const revoked = await service.signIn(user)
    const revokedId = (await service.call('GET', '/v2/access_tokens', { token: revoked })).body.access_tokens.at(-1).id
    await service.call('POST', '/v2/access_tokens/current/destroy', { token: revoked })
    const otherId = (await service.call('GET', '/v2/access_tokens', { token: other.token })).body.access_tokens[0].id

    for (const id of [String(otherId), String(revokedId), '999999999', 'abc', '0', `0${otherId}`]) {
      const result = await service.call('POST', `/v2/access_tokens/${id}/destroy`, { token })
      expect(result.status, id).toBe(404)
      expect(result.body).toMatchObject({ response: null, meta: { code: 404 } })
    }
    // The other user's token still works.
    expect((await me(other.token)).status).toBe(200)
    expect((await service.call('POST', `/v2/access_tokens/${otherId}/destroy`)).status).toBe(401)
  })
})

describe('token expiry', () => {
  it('expires a token 30 days after it was issued (401), and T2 then finds nothing', async () => {
    const local = await startTestService()
    try {
      const user = await local.signUp()
      const granted = await local.call('POST', '/v2/access_tokens', {
        body: { app_id: 'a', grant_type: 'password', username: user.email, password: user.password, device_id: 'x' }
      })
      const code = granted.body.verification.code
      await local.call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } })
      await local.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: await local.lastPin(user.phoneNumber) } } })
      const result = await local.call('POST', '/v2/access_tokens', {
        body: { app_id: 'a', grant_type: 'password', username: user.email, password: user.password, device_id: 'x', verification: { code } }
      })
      const issuedAt = await local.advanceClock(0)
      expect(result.body.expires_at).toBeGreaterThanOrEqual(issuedAt + 2_592_000 - 2)
      expect(result.body.expires_at).toBeLessThanOrEqual(issuedAt + 2_592_000)
      const token = result.body.access_token as string

      await local.advanceClock(result.body.expires_at - issuedAt - 30)
      expect((await local.call('GET', '/v3/users/me', { token })).status).toBe(200)
      await local.advanceClock(30)
      expect((await local.call('GET', '/v3/users/me', { token })).status).toBe(401)
      expect((await local.call('GET', '/v2/access_tokens', { token })).status).toBe(401)
      // The token signed in first (by signUp) has expired too: the account has no live token.
      expect((await local.call('GET', '/v3/users/me', { token: user.token })).status).toBe(401)
    } finally {
      await local.close()
    }
  })
})

describe('P1 password change', () => {
  it('answers 201 {}, revokes every token and forgets known devices', async () => {
    const user = await service.createUser({ password: 'old password' })
    const device = 'office-pc'
    const token = await service.signIn(user, { deviceId: device })
    const elsewhere = await service.signIn(user)
    expect((await login(user, { device_id: device })).status).toBe(200)

    const result = await service.call('POST', '/v3/users/password', {
      token,
      body: { password: 'new password', password_current: 'old password' }
    })
    expect(result.status).toBe(201)
    expect(result.body).toEqual({ response: {}, meta: { code: 201, errors: null } })
    for (const old of [token, elsewhere]) expect((await me(old)).status).toBe(401)

    expect((await login(user, { device_id: device })).status).toBe(401)
    user.password = 'new password'
    // The device is no longer known.
    expect((await login(user, { device_id: device })).status).toBe(202)
    const fresh = await service.signIn(user, { deviceId: device })
    expect((await me(fresh)).status).toBe(200)
  })

  it('refuses a wrong current password with 403 and bad bodies with 400, changing nothing', async () => {
    const user = await service.signUp({ password: 'the password' })
    const wrong = await service.call('POST', '/v3/users/password', {
      token: user.token,
      body: { password: 'new password', password_current: 'not the password' }
    })
    expect(wrong.status).toBe(403)
    expect(wrong.body).toMatchObject({ response: null, meta: { code: 403 } })

    for (const body of [
      { password: 'short', password_current: 'the password' },
      { password: '🔥🔥🔥🔥🔥🔥🔥', password_current: 'the password' },
      { password: 'new password' },
      { password_current: 'the password' },
      { password: 12345678, password_current: 'the password' },
      { password: 'seven c', password_current: 'not the password' }
    ]) {
      const result = await service.call('POST', '/v3/users/password', { token: user.token, body })
      expect(result.status, JSON.stringify(body)).toBe(400)
    }
    expect((await service.call('POST', '/v3/users/password', { token: user.token })).status).toBe(400)
    expect((await service.call('POST', '/v3/users/password', { body: { password: 'new password', password_current: 'the password' } })).status).toBe(401)
    expect((await me(user.token)).status).toBe(200)
    expect((await login(user, { device_id: 'z' })).status).toBe(202)

    // Eight code points suffice, whatever their UTF-16 length.
    const ok = await service.call('POST', '/v3/users/password', {
      token: user.token,
      body: { password: '🔥🔥🔥🔥🔥🔥🔥🔥', password_current: 'the password' }
    })
    expect(ok.status).toBe(201)
    expect((await login({ ...user, password: '🔥🔥🔥🔥🔥🔥🔥🔥' }, { device_id: 'z' })).status).toBe(202)
  })
})

describe('U2 update self', () => {
  it('updates name, email, avatar and bio and answers the self user', async () => {
    const user = await service.signUp({ name: 'Before' })
    const avatar = await uploadImage(user)
    const result = await service.call('POST', '/v3/users/update', {
      token: user.token,
      body: { name: 'After', email: 'After.Update@Example.test', avatar_url: avatar, bio: 'Hello 👋' }
    })
    expect(result.status).toBe(200)
    const self = result.body.response
    expect(Object.keys(self).sort()).toEqual(
      ['bio', 'created_at', 'email', 'id', 'image_url', 'mfa', 'name', 'phone_number', 'share_url', 'updated_at', 'user_id'].sort()
    )
    expect(self).toMatchObject({ id: user.id, user_id: user.id, name: 'After', email: 'After.Update@Example.test', image_url: avatar, bio: 'Hello 👋' })
    expect((await me(user.token)).body.response).toEqual(self)
    // The new e-mail signs in, case-insensitively; the old one no longer does.
    expect((await login({ ...user, email: 'after.update@example.TEST' }, { device_id: 'q' })).status).toBe(202)
    expect((await login(user, { device_id: 'q' })).status).toBe(401)
    // The avatar shows wherever the user is shown (§18.4).
    const viewer = await service.signUp()
    expect((await service.call('GET', `/v2/users/${user.id}`, { token: viewer.token })).body.user.avatar_url).toBe(avatar)
  })

  it('treats null as absent, except that avatar_url null clears the avatar', async () => {
    const user = await service.signUp({ name: 'Keeps' })
    const avatar = await uploadImage(user)
    await service.call('POST', '/v3/users/update', { token: user.token, body: { avatar_url: avatar, bio: 'bio' } })
    const kept = await service.call('POST', '/v3/users/update', { token: user.token, body: { name: null, email: null, bio: null } })
    expect(kept.status).toBe(200)
    expect(kept.body.response).toMatchObject({ name: 'Keeps', email: user.email, bio: 'bio', image_url: avatar })
    const before = (await me(user.token)).body.response
    await service.advanceClock(5)
    const empty = await service.call('POST', '/v3/users/update', { token: user.token, body: {} })
    expect(empty.status).toBe(200)
    expect(empty.body.response).toEqual(before)
    const renamed = await service.call('POST', '/v3/users/update', { token: user.token, body: { name: 'Keeps' } })
    expect(renamed.body.response.updated_at).toBeGreaterThanOrEqual(before.updated_at + 5)
    expect((await service.call('POST', '/v3/users/update', { token: user.token })).status).toBe(200)
    const cleared = await service.call('POST', '/v3/users/update', { token: user.token, body: { avatar_url: null } })
    expect(cleared.body.response.image_url).toBeNull()
    // An empty bio is allowed; the name keeps its limits in code points.
    const edge = await service.call('POST', '/v3/users/update', { token: user.token, body: { bio: '', name: '🙂'.repeat(64) } })
    expect(edge.status).toBe(200)
    expect(edge.body.response).toMatchObject({ bio: '', name: '🙂'.repeat(64) })
    // Changing only the case of one's own e-mail is fine.
    const recased = await service.call('POST', '/v3/users/update', { token: user.token, body: { email: user.email.toUpperCase() } })
    expect(recased.status).toBe(200)
    expect(recased.body.response.email).toBe(user.email.toUpperCase())
  })

  it('refuses invalid fields with 400 and changes nothing', async () => {
    const user = await service.signUp({ name: 'Stable' })
    const other = await service.signUp({ email: 'Taken.Address@example.test' })
    const foreignImage = `${service.origin}/image/i/${'0'.repeat(32)}`
    for (const body of [
      { name: '' },
      { name: 'x'.repeat(65) },
      { name: 42 },
      { email: 'no-at-sign' },
      { email: 'taken.address@EXAMPLE.test' },
      { avatar_url: 'https://example.com/a.png' },
      { avatar_url: foreignImage },
      { avatar_url: 7 },
      { bio: 'b'.repeat(501) },
      { bio: false },
      { name: 'Changed', bio: 'b'.repeat(501) },
      { name: 'Changed', email: other.email }
    ]) {
      const result = await service.call('POST', '/v3/users/update', { token: user.token, body })
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body).toMatchObject({ response: null, meta: { code: 400 } })
    }
    for (const body of [[], '"x"', '3']) {
      expect((await service.call('POST', '/v3/users/update', { token: user.token, body })).status).toBe(400)
    }
    expect((await service.call('POST', '/v3/users/update', { body: { name: 'x' } })).status).toBe(401)
    const self = (await me(user.token)).body.response
    expect(self).toMatchObject({ name: 'Stable', email: user.email, bio: '', image_url: null })
    expect((await service.call('POST', '/v3/users/update', { token: user.token, body: { bio: 'b'.repeat(500) } })).status).toBe(200)
  })
})

describe('U3 profile', () => {
  it('has exactly the §15.9 shape, with shared_groups null by default', async () => {
    const alice = await service.signUp({ name: 'Profile Alice' })
    const bob = await service.signUp({ name: 'Profile Bob' })
    await service.call('POST', '/v3/users/update', { token: bob.token, body: { bio: 'Bob here' } })
    const result = await service.call('GET', `/v2/users/${bob.id}`, { token: alice.token })
    expect(result.status).toBe(200)
    expect(result.body.meta).toBeUndefined()
    const created = (await me(bob.token)).body.response.created_at
    expect(result.body).toEqual({
      user: {
        id: bob.id,
        name: 'Profile Bob',
        avatar_url: null,
        bio: 'Bob here',
        created_at: created,
        app_installed: true,
        direct_message_capable: true,
        directories: [],
        photo_urls: []
      },
      relationship: null,
      shared_groups: null,
      major_codes: [],
      graduation_year: '',
      campus_profile_visibility: 'visible'
    })
    expect((await service.call('GET', `/v2/users/${bob.id}`, { token: alice.token, query: { include_shared_groups: 'false' } })).body.shared_groups).toBeNull()
  })

  it('lists the groups both users are active members of with include_shared_groups=true', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    const lonely = await service.createGroup(alice, { name: 'Alice only' })
    const shared = await service.createGroup(alice, { name: 'Both', share: true })
    const token = (shared.share_url as string).split('/').at(-1)
    const joined = await service.call('POST', `/v3/groups/${shared.id}/join/${token}`, { token: bob.token })
    expect(joined.status).toBe(200)
    const avatar = await uploadImage(bob)
    const pictured = await service.createGroup(bob, { name: 'Pictured', image_url: avatar, share: true })
    const pictureToken = (pictured.share_url as string).split('/').at(-1)
    expect((await service.call('POST', `/v3/groups/${pictured.id}/join/${pictureToken}`, { token: alice.token })).status).toBe(200)

    const result = await service.call('GET', `/v2/users/${bob.id}`, { token: alice.token, query: { include_shared_groups: 'true' } })
    expect(result.status).toBe(200)
    expect(result.body.shared_groups).toEqual([
      { group_id: Number(shared.id), group_name: 'Both', group_avatar: null },
      { group_id: Number(pictured.id), group_name: 'Pictured', group_avatar: avatar }
    ])
    expect(result.body.shared_groups.some((g: { group_id: number }) => g.group_id === Number(lonely.id))).toBe(false)
    // Symmetric.
    const back = await service.call('GET', `/v2/users/${alice.id}`, { token: bob.token, query: { include_shared_groups: 'true' } })
    expect(back.body.shared_groups.map((g: { group_id: number }) => g.group_id)).toEqual([Number(shared.id), Number(pictured.id)])
    // None in common.
    const carol = await service.signUp()
    expect((await service.call('GET', `/v2/users/${carol.id}`, { token: alice.token, query: { include_shared_groups: 'true' } })).body.shared_groups).toEqual([])
  })

  it('shows the caller’s relationship and turns direct_message_capable off when either blocks the other', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    const shareToken = (await me(bob.token)).body.response.share_url.split('/').at(-1)
    expect((await service.call('POST', '/v4/relationships/create', { token: alice.token, body: { user_id: bob.id, token: shareToken } })).status).toBe(201)
    const profile = await service.call('GET', `/v2/users/${bob.id}`, { token: alice.token })
    expect(profile.body.relationship).toMatchObject({ id: bob.id, user_id: bob.id, reason: 1, hidden: false, app_installed: true, mri: `u:${bob.id}` })
    expect(profile.body.relationship.blocked).toBeUndefined()
    // Relationships are one-way.
    expect((await service.call('GET', `/v2/users/${alice.id}`, { token: bob.token })).body.relationship).toBeNull()

    const capable = async (viewer: TestUser, target: TestUser) =>
      (await service.call('GET', `/v2/users/${target.id}`, { token: viewer.token })).body.user.direct_message_capable
    expect(await capable(alice, bob)).toBe(true)
    await service.call('POST', '/v3/blocks', { token: bob.token, query: { user: bob.id, otherUser: alice.id } })
    expect(await capable(alice, bob)).toBe(false)
    expect(await capable(bob, alice)).toBe(false)
    await service.call('DELETE', '/v3/blocks', { token: bob.token, query: { user: bob.id, otherUser: alice.id } })
    expect(await capable(alice, bob)).toBe(true)
    await service.call('POST', '/v3/blocks', { token: alice.token, query: { user: alice.id, otherUser: bob.id } })
    expect(await capable(alice, bob)).toBe(false)
    expect(await capable(bob, alice)).toBe(false)
  })

  it('shows one’s own profile, not DM-capable', async () => {
    const alice = await service.signUp({ name: 'Self Viewer' })
    const own = await service.call('GET', `/v2/users/${alice.id}`, { token: alice.token, query: { include_shared_groups: 'true' } })
    expect(own.status).toBe(200)
    expect(own.body.user).toMatchObject({ id: alice.id, name: 'Self Viewer', direct_message_capable: false })
    expect(own.body.shared_groups).toEqual([])
  })

  it('answers 404 for unknown users, 400 for a bad flag, 401 without a token', async () => {
    const alice = await service.signUp()
    for (const id of ['999999999', 'abc', '0', `0${alice.id}`]) {
      const result = await service.call('GET', `/v2/users/${id}`, { token: alice.token })
      expect(result.status, id).toBe(404)
      expect(result.body).toMatchObject({ response: null, meta: { code: 404 } })
    }
    for (const value of ['1', 'TRUE', 'yes', '']) {
      expect((await service.call('GET', `/v2/users/${alice.id}`, { token: alice.token, query: { include_shared_groups: value } })).status).toBe(400)
    }
    expect((await service.call('GET', `/v2/users/${alice.id}`)).status).toBe(401)
  })
})
