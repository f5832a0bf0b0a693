import Database from 'better-sqlite3-multiple-ciphers'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { applyMigrations } from '../src/db/migrate.js'
import { migrations } from '../src/db/migrations/index.js'
import { hashPassword } from '../src/domain/secrets.js'
import { startTestService, type TestService, type TestUser } from './support.js'

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})

afterAll(async () => {
  await service.close()
})

const login = (user: TestUser, extra: Record<string, unknown> = {}) =>
  service.call('POST', '/v2/access_tokens', {
    body: { app_id: 'app-1', grant_type: 'password', username: user.email, password: user.password, ...extra }
  })

async function challenge(user: TestUser, deviceId = 'dev-1'): Promise<string> {
  const result = await login(user, { device_id: deviceId })
  expect(result.status).toBe(202)
  return result.body.verification.code as string
}

async function verifyBySms(user: TestUser, code: string): Promise<void> {
  expect((await service.call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } })).status).toBe(200)
  const pin = await service.lastPin(user.phoneNumber)
  expect((await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin } } })).status).toBe(200)
}

describe('L1 login (§3.1)', () => {
  it('challenges a new device with 202 and a login verification', async () => {
    const user = await service.createUser({ email: 'Casey.Jones@Example.test', phoneNumber: '+44 7700900042' })
    const result = await login(user, { device_id: 'laptop' })
    expect(result.status).toBe(202)
    expect(result.body.meta).toBeUndefined()
    const v = result.body.verification
    expect(Object.keys(v).sort()).toEqual(['code', 'long_pin', 'methods', 'status', 'system_number', 'type'])
    expect(v.code).toMatch(/^[0-9a-f]{40}-[0-9a-f]{40}$/)
    expect(v.long_pin).toMatch(/^[0-9a-f]{12}$/)
    expect(v.status).toBe('unverified')
    expect(v.type).toBe('force')
    expect(v.system_number).toBe('+1 5555550199')
    expect(v.methods).toEqual({ sms: '42', call: '42', email: 'C***@Example.test' })
  })

  it('challenges when device_id is absent or empty', async () => {
    const user = await service.createUser()
    expect((await login(user)).status).toBe(202)
    expect((await login(user, { device_id: '' })).status).toBe(202)
    expect((await login(user, { device_id: null })).status).toBe(202)
  })

  it('accepts the e-mail case-insensitively and the phone by digits', async () => {
    const user = await service.createUser({ email: 'MiXeD@example.test', phoneNumber: '+1 5551234567' })
    for (const username of ['mixed@EXAMPLE.test', '+15551234567', '1 (555) 123-4567', '+1 5551234567']) {
      expect((await login({ ...user, email: username })).status).toBe(202)
    }
  })

  it('issues a token with a verified code, and then knows the device', async () => {
    const user = await service.createUser({ name: 'Dana' })
    const code = await challenge(user, 'phone-1')
    await verifyBySms(user, code)
    const granted = await login(user, { device_id: 'phone-1', verification: { code } })
    expect(granted.status).toBe(200)
    const now = Math.floor(Date.now() / 1000)
    expect(granted.body).toEqual({
      access_token: expect.stringMatching(/^[A-Za-z0-9]{40}$/),
      user_id: user.id,
      user_name: 'Dana',
      expires_at: expect.any(Number),
      user: { id: user.id, name: 'Dana', email: user.email, avatar_url: null, admin: false }
    })
    expect(Math.abs(granted.body.expires_at - (now + 2_592_000))).toBeLessThan(10)

    // The code is consumed: it cannot be used again.
    expect((await login(user, { device_id: 'phone-1', verification: { code } })).status).toBe(401)
    // The device is now known: no challenge.
    const again = await login(user, { device_id: 'phone-1' })
    expect(again.status).toBe(200)
    expect(again.body.access_token).not.toBe(granted.body.access_token)
    // Another device is still challenged.
    expect((await login(user, { device_id: 'phone-2' })).status).toBe(202)
  })

  it('refuses unusable verification codes with 401', async () => {
    const user = await service.createUser()
    const other = await service.createUser()
    const unverified = await challenge(user)
    expect((await login(user, { verification: { code: unverified } })).status).toBe(401)
    expect((await login(user, { verification: { code: 'nope' } })).status).toBe(401)
    const othersCode = await challenge(other)
    await verifyBySms(other, othersCode)
    expect((await login(user, { verification: { code: othersCode } })).status).toBe(401)
  })

  it('refuses wrong credentials with 401 and bad syntax with 400', async () => {
    const user = await service.createUser()
    expect((await login(user, { password: 'wrong' })).status).toBe(401)
    expect((await login({ ...user, email: 'nobody@example.test' })).status).toBe(401)
    expect((await login(user, { grant_type: 'client_credentials' })).status).toBe(400)
    expect((await login(user, { app_id: 7 })).status).toBe(400)
    expect((await login(user, { device_id: 7 })).status).toBe(400)
    expect((await service.call('POST', '/v2/access_tokens', { body: { username: user.email } })).status).toBe(400)
  })

  it('ignores a token sent with L1', async () => {
    const user = await service.createUser()
    const result = await service.call('POST', '/v2/access_tokens', {
      token: 'bogus',
      body: { app_id: 'a', grant_type: 'password', username: user.email, password: user.password }
    })
    expect(result.status).toBe(202)
  })

  it('answers 429 after 10 failed password checks within 15 minutes, even with the right password', async () => {
    const user = await service.createUser()
    const other = await service.createUser()
    for (let i = 0; i < 10; i++) expect((await login(user, { password: `wrong-${i}` })).status).toBe(401)
    const limited = await login(user)
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({ response: null, meta: { code: 429, errors: expect.any(Array) } })
    expect((await login(user, { password: 'wrong' })).status).toBe(429)
    // Other accounts are not affected; 400s and 429s do not count.
    expect((await login(other)).status).toBe(202)
    await service.advanceClock(15 * 60 + 1)
    expect((await login(user)).status).toBe(202)
  })

  it('holds under concurrency: of 200 simultaneous wrong passwords at most 10 are 401, the rest 429, and then the right password is 429 (§18.28)', async () => {
    const user = await service.createUser()
    const answers = await Promise.all(Array.from({ length: 200 }, (_, i) => login(user, { password: `wrong-${i}` })))
    const statuses = answers.map((answer) => answer.status)
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10)
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([])
    expect((await login(user)).status).toBe(429)
  })

  it('counts the right password checked alongside wrong ones as no failure', async () => {
    const user = await service.createUser()
    const answers = await Promise.all([
      ...Array.from({ length: 9 }, (_, i) => login(user, { password: `wrong-${i}` })),
      login(user, { device_id: 'dev-concurrent' })
    ])
    expect(answers.map((answer) => answer.status)).toEqual([...Array<number>(9).fill(401), 202])
    expect((await login(user, { password: 'wrong-9' })).status).toBe(401)
    expect((await login(user)).status).toBe(429)
  })

  it('counts per username as sent, ASCII case-insensitive: an unknown username reaches 429 the same way', async () => {
    const unknown = { email: `Nobody.${Date.now()}@Example.test`, password: 'whatever' } as TestUser
    for (let i = 0; i < 10; i++) {
      const variant = { ...unknown, email: i % 2 === 0 ? unknown.email.toUpperCase() : unknown.email.toLowerCase() }
      expect((await login(variant, { password: `wrong-${i}` })).status).toBe(401)
    }
    const limited = await login(unknown)
    expect(limited.status).toBe(429)
    expect(limited.body).toEqual({ response: null, meta: { code: 429, errors: expect.any(Array) } })

    const crowd = { ...unknown, email: `crowd.${Date.now()}@example.test` }
    const statuses = (await Promise.all(Array.from({ length: 50 }, () => login(crowd)))).map((answer) => answer.status)
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(10)
    expect(statuses.filter((status) => status !== 401 && status !== 429)).toEqual([])
    expect((await login(crowd)).status).toBe(429)
    // Non-ASCII letters are not folded: a username that differs in one of them is another username.
    expect((await login({ ...crowd, email: crowd.email.replace('crowd', 'crówd') })).status).toBe(401)
  })

  it('limits an account whatever spelling of it the failures used', async () => {
    const user = await service.createUser()
    const spellings = [user.email.toUpperCase(), user.phoneNumber, user.phoneNumber.replace(' ', ''), user.email]
    for (let i = 0; i < 10; i++) {
      expect((await login({ ...user, email: spellings[i % spellings.length] ?? user.email }, { password: `wrong-${i}` })).status).toBe(401)
    }
    for (const spelling of spellings) expect((await login({ ...user, email: spelling })).status).toBe(429)
  })
})

describe('failures recorded before they were counted per username', () => {
  it('still count for their account after the migration', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'service-login-'))
    const path = join(dir, 'old.db')
    try {
      const old = new Database(path)
      applyMigrations(old, migrations.filter((migration) => !migration.id.startsWith('login-')))
      const now = Math.floor(Date.now() / 1000)
      const { id } = old
        .prepare<[string, number, number], { id: number }>(
          `INSERT INTO users (name, email, email_key, phone_number, phone_digits, password_hash, share_token, created_at, updated_at)
           VALUES ('Old', 'old@example.test', 'old@example.test', '+1 5550009999', '15550009999', ?, 'abcdefgh', ?, ?) RETURNING id`
        )
        .get(await hashPassword('right password'), now, now) as { id: number }
      for (let i = 0; i < 10; i++) old.prepare('INSERT INTO login_failures (user_id, at) VALUES (?, ?)').run(id, now)
      old.close()

      const restarted = await startTestService({ db: path })
      try {
        const answer = await restarted.call('POST', '/v2/access_tokens', {
          body: { app_id: 'a', grant_type: 'password', username: 'OLD@example.test', password: 'right password' }
        })
        expect(answer.status).toBe(429)
      } finally {
        await restarted.close()
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('verifications V1–V3 (§3.2)', () => {
  it('shows a verification, bare, and 404 for unknown codes', async () => {
    const user = await service.createUser()
    const code = await challenge(user)
    const shown = await service.call('GET', `/v3/verifications/${code}`)
    expect(shown.status).toBe(200)
    expect(shown.body.verification.code).toBe(code)
    expect(shown.body.verification.status).toBe('unverified')
    expect((await service.call('GET', '/v3/verifications/unknown')).status).toBe(404)
  })

  it('sends a 6-digit PIN by SMS on V2 and answers exactly {hint}', async () => {
    const user = await service.createUser({ phoneNumber: '+1 5550009876' })
    const code = await challenge(user)
    const result = await service.call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } })
    expect(result.body).toEqual({ hint: '76' })
    const outbox = await service.call('GET', '/dev/outbox', { query: { to: '15550009876' } })
    const last = outbox.body.at(-1)
    expect(last).toEqual({ to: '+1 5550009876', text: expect.stringMatching(/^Your verification code is \d{6}$/), sent_at: expect.any(Number) })
  })

  it('refuses other methods and bad bodies with 400, unknown codes with 404', async () => {
    const user = await service.createUser()
    const code = await challenge(user)
    for (const body of [{ verification: { method: 'call' } }, { verification: {} }, {}, { verification: 'sms' }]) {
      expect((await service.call('POST', `/v3/verifications/${code}/initiate`, { body })).status).toBe(400)
    }
    expect((await service.call('POST', '/v3/verifications/nope/initiate', { body: { verification: { method: 'sms' } } })).status).toBe(404)
    expect((await service.call('POST', '/v3/verifications/nope/confirm', { body: { verification: { pin: '1' } } })).status).toBe(404)
    expect((await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: 123456 } } })).status).toBe(400)
  })

  it('confirms with the current PIN: exactly {status: 20000}, then 400 when repeated', async () => {
    const user = await service.createUser()
    const code = await challenge(user)
    await service.call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } })
    const first = await service.lastPin(user.phoneNumber)
    await service.call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } })
    const second = await service.lastPin(user.phoneNumber)
    if (first !== second) {
      // A new PIN replaces the earlier one.
      const stale = await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: first } } })
      expect(stale.status).toBe(400)
    }
    const ok = await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: second } } })
    expect(ok.status).toBe(200)
    expect(ok.body).toEqual({ status: 20000 })
    expect((await service.call('GET', `/v3/verifications/${code}`)).body.verification.status).toBe('verified')
    const again = await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: second } } })
    expect(again.status).toBe(400)
    expect(again.body).toEqual({ response: null, meta: { code: 400, errors: expect.any(Array) } })
    expect((await service.call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } })).status).toBe(400)
  })

  it('counts wrong PINs down from 5 and then locks', async () => {
    const user = await service.createUser()
    const code = await challenge(user)
    await service.call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } })
    const pin = await service.lastPin(user.phoneNumber)
    const wrong = pin === '000000' ? '111111' : '000000'
    for (const remaining of [4, 3, 2, 1, 0]) {
      const result = await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: wrong } } })
      expect(result.status).toBe(400)
      expect(result.body).toEqual({ remaining_attempts: remaining })
    }
    const locked = await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin } } })
    expect(locked.body).toEqual({ remaining_attempts: 0 })
    expect((await service.call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } })).status).toBe(400)
    expect((await service.call('GET', `/v3/verifications/${code}`)).body.verification.status).toBe('unverified')
    const text = await service.call('POST', '/dev/sms', {
      body: { from: user.phoneNumber, to: '+1 5555550199', text: `Please verify (${(await service.call('GET', `/v3/verifications/${code}`)).body.verification.long_pin})` }
    })
    expect(text.body).toEqual({ verified: [] })
  })

  it('accepts nothing before V2 but a backup code', async () => {
    const user = await service.createUser()
    const code = await challenge(user)
    const result = await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: '123456' } } })
    expect(result.body).toEqual({ remaining_attempts: 4 })
  })

  it('verifies by text to the system number (/dev/sms)', async () => {
    const user = await service.createUser({ phoneNumber: '+33 612345678' })
    const code = await challenge(user)
    const longPin = (await service.call('GET', `/v3/verifications/${code}`)).body.verification.long_pin as string
    const elsewhere = await service.call('POST', '/dev/sms', { body: { from: '+33 612345678', to: '+1 5550000000', text: longPin } })
    expect(elsewhere.body).toEqual({ verified: [] })
    const stranger = await service.call('POST', '/dev/sms', { body: { from: '+33 699999999', to: '+1 5555550199', text: longPin } })
    expect(stranger.body).toEqual({ verified: [] })
    const result = await service.call('POST', '/dev/sms', {
      body: { from: '33612345678', to: '15555550199', text: `Verify my phone number (${longPin})` }
    })
    expect(result.body).toEqual({ verified: [code] })
    expect((await service.call('GET', `/v3/verifications/${code}`)).body.verification.status).toBe('verified')
    expect((await login(user, { device_id: 'dev-1', verification: { code } })).status).toBe(200)
    // V1 still shows a consumed verification until it expires.
    expect((await service.call('GET', `/v3/verifications/${code}`)).status).toBe(200)
  })

  it('expires verifications after 10 minutes', async () => {
    const user = await service.createUser()
    const code = await challenge(user)
    await verifyBySms(user, code)
    await service.advanceClock(601)
    expect((await service.call('GET', `/v3/verifications/${code}`)).status).toBe(404)
    expect((await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin: '1' } } })).status).toBe(404)
    expect((await login(user, { device_id: 'dev-1', verification: { code } })).status).toBe(401)
  })
})

describe('tokens T1–T3 and U1', () => {
  it('lists, revokes one and logs out', async () => {
    const user = await service.signUp()
    const second = await service.signIn(user, { appId: 'second-app' })
    const list = await service.call('GET', '/v2/access_tokens', { token: user.token })
    expect(list.status).toBe(200)
    const entries = list.body.access_tokens as { id: number; created_at: string; app_id: string }[]
    const [first, other] = entries as [(typeof entries)[number], (typeof entries)[number]]
    expect(entries.map((e) => e.app_id)).toEqual(['test-app', 'second-app'])
    for (const entry of entries) {
      expect(Number.isInteger(entry.id)).toBe(true)
      expect(entry.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/)
    }
    expect(first.id).toBeLessThan(other.id)

    expect((await service.call('POST', `/v2/access_tokens/${other.id}/destroy`, { token: user.token })).body).toEqual({})
    expect((await service.call('GET', '/v3/users/me', { token: second })).status).toBe(401)
    expect((await service.call('POST', `/v2/access_tokens/${other.id}/destroy`, { token: user.token })).status).toBe(404)
    expect((await service.call('POST', '/v2/access_tokens/abc/destroy', { token: user.token })).status).toBe(404)

    const outsider = await service.signUp()
    expect((await service.call('POST', `/v2/access_tokens/${first.id}/destroy`, { token: outsider.token })).status).toBe(404)

    const logout = await service.call('POST', '/v2/access_tokens/current/destroy', { token: user.token })
    expect(logout.status).toBe(200)
    expect(logout.body).toEqual({})
    expect((await service.call('GET', '/v3/users/me', { token: user.token })).status).toBe(401)
  })

  it('expires tokens after 30 days', async () => {
    const user = await service.signUp()
    await service.advanceClock(2_592_000 - 100)
    expect((await service.call('GET', '/v3/users/me', { token: user.token })).status).toBe(200)
    await service.advanceClock(200)
    expect((await service.call('GET', '/v3/users/me', { token: user.token })).status).toBe(401)
  })

  it('shows the self user (U1)', async () => {
    const user = await service.signUp({ name: 'Émile Zola', phoneNumber: '+33 600000001' })
    const me = await service.call('GET', '/v3/users/me', { token: user.token })
    expect(me.body.response).toEqual({
      id: user.id,
      user_id: user.id,
      name: 'Émile Zola',
      email: user.email,
      phone_number: '+33 600000001',
      image_url: null,
      bio: '',
      created_at: expect.any(Number),
      updated_at: expect.any(Number),
      share_url: expect.stringMatching(new RegExp(`^${service.origin}/contact/${user.id}/[A-Za-z0-9]{8}$`)),
      mfa: { enabled: false, channels: [] }
    })
  })
})
