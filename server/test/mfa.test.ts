import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Inbox, pushClient, startTestService, subscribe, type TestService, type TestUser } from './support.js'

/** MFA M1–M5 (§3, §3.3), its effect on L1, backup codes through V3, and the L1 rate limit (§18.17). */

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})

afterAll(async () => {
  await service.close()
})

const mfaCall = (user: TestUser, body: unknown, token = user.token) => service.call('POST', '/v3/user/mfa', { token, body })

const login = (user: TestUser, extra: Record<string, unknown> = {}) =>
  service.call('POST', '/v2/access_tokens', {
    body: { app_id: 'app-1', grant_type: 'password', username: user.email, password: user.password, ...extra }
  })

async function verifyBySms(user: TestUser, code: string): Promise<void> {
  expect((await service.call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } })).status).toBe(200)
  const pin = await service.lastPin(user.phoneNumber)
  expect((await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin } } })).status).toBe(200)
}

/** M2 → V2/V3 → M3: the caller's phone becomes the MFA channel. */
async function addChannel(user: TestUser): Promise<void> {
  const m2 = await mfaCall(user, { channel: { method: 'phone_number' } })
  expect(m2.status).toBe(202)
  const code = m2.body.response.verification.code as string
  await verifyBySms(user, code)
  const m3 = await mfaCall(user, { channel: { method: 'phone_number' }, verification: { code } })
  expect(m3.status).toBe(201)
}

/** Channel + M4; returns the M4 payload and updates `user.token`. */
async function enableMfa(user: TestUser): Promise<{ backup_code: string; token: string }> {
  await addChannel(user)
  const m4 = await mfaCall(user, { mfa: { status: 'enable' } })
  expect(m4.status).toBe(200)
  user.token = m4.body.response.access_token.access_token
  return { backup_code: m4.body.response.mfa.backup_code, token: user.token }
}

async function backupCode(user: TestUser): Promise<string> {
  const result = await service.call('POST', '/v3/user/mfa/backup', { token: user.token })
  expect(result.status).toBe(200)
  return result.body.response.mfa.backup_code as string
}

describe('M1 backup code', () => {
  it('answers 200 {mfa: {backup_code}} with 16 characters of [a-z0-9], enveloped', async () => {
    const user = await service.signUp()
    const result = await service.call('POST', '/v3/user/mfa/backup', { token: user.token })
    expect(result.status).toBe(200)
    expect(result.body.meta).toEqual({ code: 200, errors: null })
    expect(Object.keys(result.body.response)).toEqual(['mfa'])
    expect(Object.keys(result.body.response.mfa)).toEqual(['backup_code'])
    expect(result.body.response.mfa.backup_code).toMatch(/^[a-z0-9]{16}$/)
    expect((await service.call('POST', '/v3/user/mfa/backup')).status).toBe(401)
  })

  it('verifies a verification once (V3), and a new code replaces the old one', async () => {
    const user = await service.signUp()
    const first = await backupCode(user)
    const second = await backupCode(user)
    expect(second).not.toBe(first)

    const code = (await login(user, { device_id: 'new' })).body.verification.code as string
    // The replaced code no longer works.
    const stale = await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: first } } })
    expect(stale.status).toBe(400)
    expect(stale.body).toEqual({ remaining_attempts: 4 })
    // The current one does, before any V2, and the login then goes through.
    const good = await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: second } } })
    expect(good.status).toBe(200)
    expect(good.body).toEqual({ status: 20000 })
    expect((await login(user, { device_id: 'new', verification: { code } })).status).toBe(200)

    // It works once: on the next verification it is wrong.
    const next = (await login(user, { device_id: 'other' })).body.verification.code as string
    const reused = await service.call('POST', `/v3/verifications/${next}/confirm`, { body: { verification: { pin: second } } })
    expect(reused.status).toBe(400)
    expect(reused.body).toEqual({ remaining_attempts: 4 })
  })

  it('is not used up by a wrong PIN or by another account', async () => {
    const user = await service.signUp()
    const other = await service.signUp()
    const code = await backupCode(user)
    const otherChallenge = (await login(other, { device_id: 'x' })).body.verification.code as string
    expect((await service.call('POST', `/v3/verifications/${otherChallenge}/confirm`, { body: { verification: { pin: code } } })).status).toBe(400)
    const own = (await login(user, { device_id: 'x' })).body.verification.code as string
    expect((await service.call('POST', `/v3/verifications/${own}/confirm`, { body: { verification: { pin: '000000' } } })).status).toBe(400)
    expect((await service.call('POST', `/v3/verifications/${own}/confirm`, { body: { verification: { pin: code } } })).status).toBe(200)
  })
})

describe('M2 channel verification', () => {
  it('answers 202 with a channel verification: no type, methods {sms, call}', async () => {
    const user = await service.signUp({ phoneNumber: '+1 5550107742', email: 'mfa.m2@example.test' })
    const result = await mfaCall(user, { channel: { method: 'phone_number' } })
    expect(result.status).toBe(202)
    expect(result.body.meta).toEqual({ code: 202, errors: null })
    const v = result.body.response.verification
    expect(Object.keys(v).sort()).toEqual(['code', 'long_pin', 'methods', 'status', 'system_number'])
    expect(v.code).toMatch(/^[0-9a-f]{40}-[0-9a-f]{40}$/)
    expect(v.long_pin).toMatch(/^[0-9a-f]{12}$/)
    expect(v.methods).toEqual({ sms: '42', call: '42' })
    expect(v.status).toBe('unverified')
    expect(v.system_number).toBe('+1 5555550199')
    // V1 shows it the same way.
    const shown = await service.call('GET', `/v3/verifications/${v.code}`)
    expect(shown.status).toBe(200)
    expect(shown.body).toEqual({ verification: v })
  })

  it('refuses other methods and malformed bodies with 400', async () => {
    const user = await service.signUp()
    for (const body of [
      { channel: { method: 'sms' } },
      { channel: { method: 'email' } },
      { channel: {} },
      { channel: 'phone_number' },
      { channel: { method: 'phone_number' }, mfa: { status: 'enable' } },
      { mfa: { status: 'enable' }, channel: { method: 'phone_number' }, verification: { code: 'x' } },
      {},
      { verification: { code: 'x' } },
      { mfa: null, channel: null },
      { mfa: { status: 'toggle' } },
      { mfa: {} },
      { mfa: 'enable' },
      { channel: { method: 'phone_number' }, verification: {} },
      { channel: { method: 'phone_number' }, verification: { code: 12 } },
      [],
      'x'
    ]) {
      const result = await mfaCall(user, body)
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body.response).toBeNull()
      expect(result.body.meta.code).toBe(400)
    }
    // An absent body is "neither".
    expect((await service.call('POST', '/v3/user/mfa', { token: user.token })).status).toBe(400)
    expect((await mfaCall(user, { channel: { method: 'phone_number' } }, 'x'.repeat(40))).status).toBe(401)
  })

  it('is verified by the text route, which V1 polling then shows', async () => {
    const user = await service.signUp()
    const v = (await mfaCall(user, { channel: { method: 'phone_number' } })).body.response.verification
    const wrongSender = await service.call('POST', '/dev/sms', {
      body: { from: '+1 5550000001', to: '+1 5555550199', text: `Please verify my phone (${v.long_pin})` }
    })
    expect(wrongSender.body).toEqual({ verified: [] })
    const sms = await service.call('POST', '/dev/sms', {
      body: { from: user.phoneNumber.replace(' ', ''), to: '+15555550199', text: `Please verify my phone (${v.long_pin})` }
    })
    expect(sms.status).toBe(200)
    expect(sms.body).toEqual({ verified: [v.code] })
    expect((await service.call('GET', `/v3/verifications/${v.code}`)).body.verification.status).toBe('verified')
    const m3 = await mfaCall(user, { channel: { method: 'phone_number' }, verification: { code: v.code } })
    expect(m3.status).toBe(201)
  })
})

describe('M3 confirm the channel', () => {
  it('answers 201 exactly {status: 20100} and sets mfa.channels', async () => {
    const user = await service.signUp()
    const before = await service.call('GET', '/v3/users/me', { token: user.token })
    expect(before.body.response.mfa).toEqual({ enabled: false, channels: [] })
    const m2 = await mfaCall(user, { channel: { method: 'phone_number' } })
    const code = m2.body.response.verification.code as string
    await verifyBySms(user, code)
    const now = await service.advanceClock(0)
    const m3 = await mfaCall(user, { channel: { method: 'phone_number' }, verification: { code } })
    expect(m3.status).toBe(201)
    expect(m3.body).toEqual({ response: { status: 20100 }, meta: { code: 201, errors: null } })
    const me = (await service.call('GET', '/v3/users/me', { token: user.token })).body.response
    expect(me.mfa.enabled).toBe(false)
    expect(me.mfa.channels).toHaveLength(1)
    expect(me.mfa.channels[0].type).toBe('phone_number')
    expect(me.mfa.channels[0].created_at).toBeGreaterThanOrEqual(now)
    expect(me.mfa.channels[0].created_at).toBeLessThanOrEqual(now + 2)
    // Consumed: the same code is not usable again.
    expect((await mfaCall(user, { channel: { method: 'phone_number' }, verification: { code } })).status).toBe(400)
    // V1 still shows it until it expires.
    expect((await service.call('GET', `/v3/verifications/${code}`)).body.verification.status).toBe('verified')
  })

  it('accepts a channel verification solved with the backup code', async () => {
    const user = await service.signUp()
    const backup = await backupCode(user)
    const code = (await mfaCall(user, { channel: { method: 'phone_number' } })).body.response.verification.code
    expect((await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: backup } } })).status).toBe(200)
    expect((await mfaCall(user, { channel: { method: 'phone_number' }, verification: { code } })).status).toBe(201)
  })

  it('refuses codes that are not usable with 400', async () => {
    const user = await service.signUp()
    const other = await service.signUp()
    const confirm = (code: string) => mfaCall(user, { channel: { method: 'phone_number' }, verification: { code } })

    // Unknown.
    expect((await confirm(`${'a'.repeat(40)}-${'b'.repeat(40)}`)).status).toBe(400)
    // Unverified.
    const unverified = (await mfaCall(user, { channel: { method: 'phone_number' } })).body.response.verification.code
    expect((await confirm(unverified)).status).toBe(400)
    // Another account's verified channel verification.
    const theirs = (await mfaCall(other, { channel: { method: 'phone_number' } })).body.response.verification.code
    await verifyBySms(other, theirs)
    expect((await confirm(theirs)).status).toBe(400)
    // A verified login verification of this account (wrong purpose).
    const loginCode = (await login(user, { device_id: 'd' })).body.verification.code
    await verifyBySms(user, loginCode)
    expect((await confirm(loginCode)).status).toBe(400)
    // That login code was not consumed by the failed M3, so it still signs in.
    expect((await login(user, { device_id: 'd', verification: { code: loginCode } })).status).toBe(200)
    // Expired.
    const late = (await mfaCall(user, { channel: { method: 'phone_number' } })).body.response.verification.code
    await verifyBySms(user, late)
    await service.advanceClock(600)
    expect((await confirm(late)).status).toBe(400)
    const me = (await service.call('GET', '/v3/users/me', { token: user.token })).body.response
    expect(me.mfa.channels).toEqual([])
    // A channel code is not usable for L1 either.
    const channelCode = (await mfaCall(user, { channel: { method: 'phone_number' } })).body.response.verification.code
    await verifyBySms(user, channelCode)
    expect((await login(user, { device_id: 'd2', verification: { code: channelCode } })).status).toBe(401)
  })
})

describe('M4 enable', () => {
  it('revokes every token, issues one with the caller app_id and expires_at null, and a backup code', async () => {
    const user = await service.signUp({ name: 'Mfa Enabler' })
    const otherDevice = await service.signIn(user, { appId: 'other-app' })
    const caller = await service.signIn(user, { appId: 'desktop-app' })
    user.token = caller
    await addChannel(user)
    const oldBackup = await backupCode(user)

    const m4 = await mfaCall(user, { mfa: { status: 'enable' } })
    expect(m4.status).toBe(200)
    expect(m4.body.meta).toEqual({ code: 200, errors: null })
    const payload = m4.body.response
    expect(Object.keys(payload).sort()).toEqual(['access_token', 'mfa'])
    expect(payload.mfa.backup_code).toMatch(/^[a-z0-9]{16}$/)
    expect(payload.mfa.backup_code).not.toBe(oldBackup)
    const result = payload.access_token
    expect(result.access_token).toMatch(/^[A-Za-z0-9]{40}$/)
    expect(result).toMatchObject({
      user_id: user.id,
      user_name: 'Mfa Enabler',
      expires_at: null,
      user: { id: user.id, name: 'Mfa Enabler', email: user.email, avatar_url: null, admin: false }
    })

    for (const old of [caller, otherDevice]) {
      expect((await service.call('GET', '/v3/users/me', { token: old })).status).toBe(401)
    }
    const tokens = await service.call('GET', '/v2/access_tokens', { token: result.access_token })
    expect(tokens.status).toBe(200)
    expect(tokens.body.access_tokens).toHaveLength(1)
    expect(tokens.body.access_tokens[0].app_id).toBe('desktop-app')

    const me = (await service.call('GET', '/v3/users/me', { token: result.access_token })).body.response
    expect(me.mfa.enabled).toBe(true)
    expect(me.mfa.channels).toHaveLength(1)

    // The new token never expires.
    await service.advanceClock(2_592_000 + 10)
    expect((await service.call('GET', '/v3/users/me', { token: result.access_token })).status).toBe(200)
  })

  it('refuses 400 without a channel, and 400 when already enabled', async () => {
    const user = await service.signUp()
    const noChannel = await mfaCall(user, { mfa: { status: 'enable' } })
    expect(noChannel.status).toBe(400)
    expect(noChannel.body.response).toBeNull()
    // Nothing was revoked.
    expect((await service.call('GET', '/v3/users/me', { token: user.token })).status).toBe(200)

    await enableMfa(user)
    const again = await mfaCall(user, { mfa: { status: 'enable' } })
    expect(again.status).toBe(400)
    expect((await service.call('GET', '/v3/users/me', { token: user.token })).status).toBe(200)
  })

  it('challenges every later login, even from a known device, and its tokens never expire', async () => {
    const user = await service.signUp()
    const device = 'known-laptop'
    user.token = await service.signIn(user, { deviceId: device })
    expect((await login(user, { device_id: device })).status).toBe(200)
    const { backup_code: backup } = await enableMfa(user)

    const challenged = await login(user, { device_id: device })
    expect(challenged.status).toBe(202)
    expect(challenged.body.verification.type).toBe('force')
    expect((await login(user)).status).toBe(202)

    // The backup code from M4 solves the challenge once.
    const code = challenged.body.verification.code as string
    expect((await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: backup } } })).status).toBe(200)
    const granted = await login(user, { device_id: device, verification: { code } })
    expect(granted.status).toBe(200)
    expect(granted.body.expires_at).toBeNull()
    // The device is known again, but MFA still challenges.
    expect((await login(user, { device_id: device })).status).toBe(202)

    // The SMS route works too.
    const viaSms = await service.signIn(user, { deviceId: device })
    expect((await service.call('GET', '/v3/users/me', { token: viaSms })).status).toBe(200)
  })

  it('ends push subscriptions made with the revoked tokens', async () => {
    const user = await service.signUp()
    const friend = await service.signUp()
    await addChannel(user)
    // Earlier tests moved the service clock; subscribe timestamps must follow it (§14.2).
    const timestampOffset = (await service.advanceClock(0)) - Math.floor(Date.now() / 1000)
    const oldClient = pushClient(service, user.token, { timestampOffset })
    const oldInbox = new Inbox()
    try {
      await subscribe(oldClient, `/user/${user.id}`, oldInbox)
      await service.sendDirectMessage(friend, user.id, 'before enable')
      await oldInbox.waitFor((item) => item.data.subject?.text === 'before enable')

      const m4 = await mfaCall(user, { mfa: { status: 'enable' } })
      const newToken = m4.body.response.access_token.access_token as string
      const newClient = pushClient(service, newToken, { timestampOffset })
      const newInbox = new Inbox()
      try {
        await subscribe(newClient, `/user/${user.id}`, newInbox)
        await service.sendDirectMessage(friend, user.id, 'after enable')
        await newInbox.waitFor((item) => item.data.subject?.text === 'after enable')
        await new Promise((resolve) => setTimeout(resolve, 300))
        expect(oldInbox.received.some((item) => item.data.subject?.text === 'after enable')).toBe(false)
      } finally {
        newClient.disconnect()
      }
    } finally {
      oldClient.disconnect()
    }
  })
})

describe('M5 disable', () => {
  it('answers exactly {} and keeps tokens, channel and the challenge-free known devices', async () => {
    const user = await service.signUp()
    await enableMfa(user)
    const m5 = await mfaCall(user, { mfa: { status: 'disable' } })
    expect(m5.status).toBe(200)
    expect(m5.body).toEqual({ response: {}, meta: { code: 200, errors: null } })
    const me = await service.call('GET', '/v3/users/me', { token: user.token })
    expect(me.status).toBe(200)
    expect(me.body.response.mfa.enabled).toBe(false)
    expect(me.body.response.mfa.channels).toHaveLength(1)

    // Tokens issued now expire again in 30 days, and a known device signs in without a challenge.
    const token = await service.signIn(user, { deviceId: 'after-disable' })
    expect(token).toMatch(/^[A-Za-z0-9]{40}$/)
    const direct = await login(user, { device_id: 'after-disable' })
    expect(direct.status).toBe(200)
    expect(typeof direct.body.expires_at).toBe('number')

    // The token issued while MFA was on still never expires.
    const mfaToken = user.token
    await service.advanceClock(2_592_000 + 10)
    expect((await service.call('GET', '/v3/users/me', { token: mfaToken })).status).toBe(200)
    expect((await service.call('GET', '/v3/users/me', { token })).status).toBe(401)

    // MFA can be enabled again with the channel it kept.
    const again = await mfaCall(user, { mfa: { status: 'enable' } }, mfaToken)
    expect(again.status).toBe(200)
  })

  it('refuses 400 when MFA is not enabled', async () => {
    const user = await service.signUp()
    const m5 = await mfaCall(user, { mfa: { status: 'disable' } })
    expect(m5.status).toBe(400)
    expect(m5.body.response).toBeNull()
    expect(m5.body.meta.code).toBe(400)
  })
})

describe('L1 rate limit (§18.17)', () => {
  it('counts only password checks answered 401', async () => {
    const user = await service.signUp()
    // Syntax errors (400) do not count.
    for (let i = 0; i < 12; i++) {
      expect((await service.call('POST', '/v2/access_tokens', { body: { username: user.email, password: 'nope' } })).status).toBe(400)
    }
    // Unusable verification codes with the right password are 401 but not failed password checks.
    for (let i = 0; i < 11; i++) {
      expect((await login(user, { device_id: 'd', verification: { code: 'not-a-code' } })).status).toBe(401)
    }
    expect((await login(user, { device_id: 'd' })).status).toBe(202)

    for (let i = 0; i < 10; i++) expect((await login(user, { password: 'wrong password' })).status).toBe(401)
    const limited = await login(user)
    expect(limited.status).toBe(429)
    expect(limited.body).toMatchObject({ response: null, meta: { code: 429 } })
    // 429 answers do not count: once the window has passed, one more failure does not lock again.
    for (let i = 0; i < 5; i++) expect((await login(user, { password: 'wrong password' })).status).toBe(429)
    await service.advanceClock(15 * 60)
    expect((await login(user, { password: 'wrong password' })).status).toBe(401)
    expect((await login(user)).status).toBe(202)
  })
})
