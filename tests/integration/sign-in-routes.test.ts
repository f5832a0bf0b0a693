// Every way through the verification screen, against the real local service: texting the service
// instead of receiving a code, a backup code, a verification that locks or expires and the fresh
// start after it, and the challenge that MFA puts on every sign-in, a known device's too.
import { describe, expect, it } from 'vitest'
import type { TestService, TestUser } from '../../server/test/support'
import type { SessionState } from '@shared/session'
import { launchApp, signInThroughSms, testScope, type AppHarness, type LaunchOptions } from '../support/app-harness'

const { cleanups, service: serviceFor } = testScope()

const launch = (origin: string, options: LaunchOptions = {}): AppHarness => launchApp(origin, cleanups, options)

const TEN_MINUTES_MS = 10 * 60_000

/** The app on its verification screen for `user`, with the session's events counted from there. */
async function verifying(app: AppHarness, user: TestUser): Promise<void> {
  const result = await app.call('session:signIn', { username: user.email, password: user.password })
  expect(result).toEqual({ status: 'verificationRequired', challenge: { smsHint: user.phoneNumber.slice(-2) } })
}

const challengeOf = (state: SessionState) => (state.status === 'verifying' ? state.challenge : null)

/** Texts the service from the user's phone, as the user would from theirs; answers the verifications it verified. */
async function textTheService(service: TestService, user: TestUser, to: string, text: string): Promise<string[]> {
  const answer = await service.call('POST', '/dev/sms', { body: { from: user.phoneNumber, to, text } })
  expect(answer.status).toBe(200)
  return answer.body.verified as string[]
}

async function smsSentTo(service: TestService, user: TestUser): Promise<unknown[]> {
  return (await service.call('GET', '/dev/outbox', { query: { to: user.phoneNumber } })).body as unknown[]
}

describe('signing in by texting the service', () => {
  it('shows where to text and what, checks until the text arrives, and signs in without any code sent', async () => {
    const service = await serviceFor()
    const user = await service.createUser({ name: 'Tex' })
    const app = launch(service.origin)
    await app.core.start()
    const startedAt = Date.now()
    await verifying(app, user)

    const route = await app.call('session:textInstead', {})
    expect(route).toMatchObject({ systemNumber: '+1 5555550199', checkedAt: null, expired: false })
    expect(route.text).toMatch(/[0-9a-f]{12}/)
    // Ten minutes from when the service answered the sign-in.
    expect(route.expiresAt).toBeGreaterThanOrEqual(startedAt + TEN_MINUTES_MS)
    expect(route.expiresAt).toBeLessThanOrEqual(Date.now() + TEN_MINUTES_MS)
    expect(app.events.all('session:changed').map(challengeOf).at(-1)).toEqual({ smsHint: user.phoneNumber.slice(-2), textRoute: route })

    // Progress shows while the app waits: each check is published with its time.
    const checked = await app.events.waitFor('session:changed', (state) => (challengeOf(state)?.textRoute?.checkedAt ?? null) !== null)
    expect(challengeOf(checked)?.textRoute).toMatchObject({ ...route, checkedAt: expect.any(Number) })

    expect(await textTheService(service, user, route.systemNumber, `Sign me in: ${route.text}`)).toHaveLength(1)

    const signedIn = await app.events.waitFor('session:changed', (state) => state.status === 'signedIn')
    expect(signedIn).toEqual({ status: 'signedIn', me: { id: user.id, name: 'Tex', avatarUrl: null } })
    expect(app.vault.token).toMatch(/^[A-Za-z0-9]{40}$/)
    expect(await app.call('session:get', {})).toEqual(signedIn)
    expect(await smsSentTo(service, user)).toEqual([])
  })

  it('stops checking on Cancel: a text that arrives after it does not sign the app in', async () => {
    const service = await serviceFor()
    const user = await service.createUser()
    const app = launch(service.origin)
    await verifying(app, user)
    const route = await app.call('session:textInstead', {})

    expect(await app.call('session:cancelTextRoute', {})).toBeNull()
    expect(await app.call('session:get', {})).toEqual({ status: 'verifying', challenge: { smsHint: user.phoneNumber.slice(-2) } })
    const eventsAfterCancel = app.events.all('session:changed').length

    // The text arrives after all; with nobody checking, the app stays where the user left it.
    expect(await textTheService(service, user, route.systemNumber, route.text)).toHaveLength(1)
    await new Promise((resolve) => setTimeout(resolve, 6_000))
    expect(app.events.all('session:changed')).toHaveLength(eventsAfterCancel)
    expect((await app.call('session:get', {})).status).toBe('verifying')
  }, 20_000)

  it('gives up when the service says the verification expired, and starting over gets a new one', async () => {
    const service = await serviceFor()
    const user = await service.createUser()
    const app = launch(service.origin)
    await verifying(app, user)
    const route = await app.call('session:textInstead', {})

    await service.advanceClock(601)
    const expired = await app.events.waitFor('session:changed', (state) => challengeOf(state)?.spent === 'expired')
    expect(challengeOf(expired)).toEqual({
      smsHint: user.phoneNumber.slice(-2),
      textRoute: { ...route, checkedAt: expect.toSatisfy((at: unknown) => at === null || typeof at === 'number'), expired: true },
      spent: 'expired'
    })
    await expect(app.call('session:textInstead', {})).rejects.toMatchObject({ code: 'NOT_FOUND' })

    const fresh = await app.call('session:startOver', {})
    expect(fresh).toEqual({ status: 'verificationRequired', challenge: { smsHint: user.phoneNumber.slice(-2) } })
    const second = await app.call('session:textInstead', {})
    expect(second.text).not.toBe(route.text)
    expect(await textTheService(service, user, second.systemNumber, second.text)).toHaveLength(1)
    expect(await app.events.waitFor('session:changed', (state) => state.status === 'signedIn')).toMatchObject({ me: { id: user.id } })
  })

  it('gives up at the expiry by its own clock, without waiting for the service to say so', async () => {
    const service = await serviceFor()
    const user = await service.createUser()
    let clockAhead = 0
    const app = launch(service.origin, { now: () => Date.now() + clockAhead })
    await verifying(app, user)
    const route = await app.call('session:textInstead', {})

    clockAhead = TEN_MINUTES_MS
    const expired = await app.events.waitFor('session:changed', (state) => challengeOf(state)?.spent === 'expired')
    expect(challengeOf(expired)?.textRoute?.expired).toBe(true)
    // The service still had it: only the app's clock said it was over.
    expect(await textTheService(service, user, route.systemNumber, route.text)).toHaveLength(1)
  })
})

describe('signing in with a backup code', () => {
  it('takes the backup code in place of a PIN, counting down a wrong one like a PIN', async () => {
    const service = await serviceFor()
    const user = await service.signUp()
    const backup = await service.call('POST', '/v3/user/mfa/backup', { token: user.token })
    expect(backup.status).toBe(200)
    const backupCode = backup.body.response.mfa.backup_code as string
    const app = launch(service.origin)
    await verifying(app, user)

    const wrong = backupCode.replace(/^./, (first) => (first === 'a' ? 'b' : 'a'))
    expect(await app.call('session:confirmCode', { code: wrong })).toEqual({ status: 'wrongCode', remainingAttempts: 4 })
    expect(await app.call('session:confirmCode', { code: backupCode })).toMatchObject({ status: 'signedIn', me: { id: user.id } })
    expect(await smsSentTo(service, user)).toHaveLength(1)
  })
})

describe('a verification that cannot go on', () => {
  it('locks after five wrong codes, says so, refuses another code, and starting over works', async () => {
    const service = await serviceFor()
    const user = await service.createUser()
    const app = launch(service.origin)
    await app.core.start()
    await verifying(app, user)
    await app.call('session:sendCode', {})
    const pin = await service.lastPin(user.phoneNumber)
    const wrong = pin === '000000' ? '111111' : '000000'

    for (const remainingAttempts of [4, 3, 2, 1, 0]) {
      expect(await app.call('session:confirmCode', { code: wrong })).toEqual({ status: 'wrongCode', remainingAttempts })
    }
    expect(await app.call('session:get', {})).toEqual({ status: 'verifying', challenge: { smsHint: user.phoneNumber.slice(-2), spent: 'locked' } })
    // Not even the right PIN helps now, nor a new one.
    expect(await app.call('session:confirmCode', { code: pin })).toEqual({ status: 'wrongCode', remainingAttempts: 0 })
    await expect(app.call('session:sendCode', {})).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/locked/) })

    expect(await app.call('session:startOver', {})).toEqual({ status: 'verificationRequired', challenge: { smsHint: user.phoneNumber.slice(-2) } })
    await signInThroughSms(app, service, user)
    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: user.id } })
  })

  it('says the sign-in expired when a code comes too late, and starting over works', async () => {
    const service = await serviceFor()
    const user = await service.createUser()
    const app = launch(service.origin)
    await app.core.start()
    await verifying(app, user)
    await app.call('session:sendCode', {})
    const pin = await service.lastPin(user.phoneNumber)

    await service.advanceClock(601)
    await expect(app.call('session:confirmCode', { code: pin })).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/expired/) })
    expect(await app.call('session:get', {})).toEqual({ status: 'verifying', challenge: { smsHint: user.phoneNumber.slice(-2), spent: 'expired' } })

    await app.call('session:startOver', {})
    await app.call('session:sendCode', {})
    const signedIn = await app.call('session:confirmCode', { code: await service.lastPin(user.phoneNumber) })
    expect(signedIn).toMatchObject({ status: 'signedIn', me: { id: user.id } })
  })

  it('cannot start over once the user left the verification', async () => {
    const service = await serviceFor()
    const user = await service.createUser()
    const app = launch(service.origin)
    await verifying(app, user)
    await app.call('session:cancelVerification', {})
    await expect(app.call('session:startOver', {})).rejects.toMatchObject({ code: 'VALIDATION' })
    await expect(app.call('session:textInstead', {})).rejects.toMatchObject({ code: 'VALIDATION' })
  })
})

describe('two-step verification on', () => {
  it('asks for a code at every sign-in, on a device the service already knows too', async () => {
    const service = await serviceFor()
    const user = await service.createUser()
    const app = launch(service.origin)
    await app.core.start()
    await signInThroughSms(app, service, user)
    await app.call('session:signOut', {})

    // A known device with two-step verification off signs in at once.
    expect(await app.call('session:signIn', { username: user.email, password: user.password })).toMatchObject({ status: 'signedIn' })
    await app.call('session:signOut', {})
    await enableTwoStep(service, user, await service.signIn(user))

    // The same device, known to the service, is challenged now.
    await verifying(app, user)
    await app.call('session:sendCode', {})
    const signedIn = await app.call('session:confirmCode', { code: await service.lastPin(user.phoneNumber) })
    expect(signedIn).toMatchObject({ status: 'signedIn', me: { id: user.id } })
  })
})

/** M2, V2, V3 with the texted PIN, M3, M4, as the account's owner does over REST from another device. */
async function enableTwoStep(service: TestService, user: TestUser, token: string): Promise<void> {
  const channel = { method: 'phone_number' }
  const started = await service.call('POST', '/v3/user/mfa', { token, body: { channel } })
  expect(started.status).toBe(202)
  const code = started.body.response.verification.code as string
  expect((await service.call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } })).status).toBe(200)
  const pin = await service.lastPin(user.phoneNumber)
  expect((await service.call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin } } })).status).toBe(200)
  expect((await service.call('POST', '/v3/user/mfa', { token, body: { channel, verification: { code } } })).status).toBe(201)
  const enabled = await service.call('POST', '/v3/user/mfa', { token, body: { mfa: { status: 'enable' } } })
  expect(enabled.status).toBe(200)
}
