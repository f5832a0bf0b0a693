// Main's core against the real local service for two-step verification (M1–M5, with V2 and V3 for
// the phone's code) and the signed-in apps (T1, T2): the token switch M4 forces, signing in with
// two-step verification on, and signing apps out, this one among them.
import { describe, expect, it } from 'vitest'
import type { TestService, TestUser } from '../../server/test/support'
import { chatId } from '@shared/conversation-id'
import type { TwoStepConfirmation } from '@shared/account'
import { launchApp, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { MemoryPreferences, MemoryVault } from '../support/memory-platform'

const { cleanups, service: serviceForTest } = testScope()

async function signedInApp(service: TestService, user: TestUser, options: { vault?: MemoryVault; preferences?: MemoryPreferences } = {}): Promise<AppHarness> {
  const app = launchApp(service.origin, cleanups, options)
  await signInThroughSms(app, service, user)
  return app
}

const lastTwoDigits = (phone: string): string => phone.replace(/\D/g, '').slice(-2)

/** Begins the setup and confirms the PIN the service texted, as the user would. */
async function enableTwoStep(app: AppHarness, service: TestService, user: TestUser): Promise<Extract<TwoStepConfirmation, { status: 'enabled' }>> {
  await app.call('security:beginTwoStep', {})
  const confirmation = await app.call('security:confirmTwoStep', { code: await service.lastPin(user.phoneNumber) })
  if (confirmation.status !== 'enabled') throw new Error(`two-step verification did not go on: ${JSON.stringify(confirmation)}`)
  return confirmation
}

/** The status the service answers U1 with, for this token. */
async function statusOfToken(service: TestService, token: string): Promise<number> {
  return (await service.call('GET', '/v3/users/me', { token })).status
}

describe('turning two-step verification on', () => {
  it('texts a code to the phone, and once it is confirmed the app carries on with the token M4 issued, on REST and on push', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser()
    const grace = await service.signUp()
    const app = await signedInApp(service, ada)
    const oldToken = app.vault.token
    if (oldToken === null) throw new Error('no token was kept')

    const begun = await app.call('security:beginTwoStep', {})
    expect(begun).toEqual({ phoneHint: lastTwoDigits(ada.phoneNumber) })
    const statusesBefore = app.events.all('push:status').length
    const confirmation = await app.call('security:confirmTwoStep', { code: await service.lastPin(ada.phoneNumber) })

    expect(confirmation).toMatchObject({
      status: 'enabled',
      backupCode: expect.stringMatching(/^[a-z0-9]{16}$/),
      account: { id: ada.id, twoStep: { enabled: true, phoneHint: lastTwoDigits(ada.phoneNumber) } }
    })
    // The vault holds the new token, the only one the service still takes.
    const newToken = app.vault.token
    expect(newToken).not.toBeNull()
    expect(newToken).not.toBe(oldToken)
    expect(await statusOfToken(service, oldToken)).toBe(401)
    expect(await statusOfToken(service, newToken ?? '')).toBe(200)
    const me = await service.call('GET', '/v3/users/me', { token: newToken ?? '' })
    expect(me.body.response.mfa).toMatchObject({ enabled: true })

    // The app keeps working: still signed in, and REST calls carry the new token.
    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: ada.id } })
    expect(await app.call('security:signedInApps', {})).toHaveLength(1)
    // Push follows again with the new token: a message sent now arrives by push.
    await app.events.waitFor('push:status', (status) => status === 'connected', 10_000, statusesBefore)
    const received = app.events.all('messages:received').length
    await service.sendDirectMessage(grace, ada.id, 'after the switch')
    const message = await app.events.waitFor('messages:received', (m) => m.text === 'after the switch', 10_000, received)
    expect(message.conversationId).toBe(chatId(ada.id, grace.id))
    expect(app.events.all('session:changed').filter((state) => state.status === 'signedOut')).toEqual([])
  })

  it('keeps the new token across a restart: an app started again from what was kept is signed in with it', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser()
    const vault = new MemoryVault()
    const preferences = new MemoryPreferences()
    const first = await signedInApp(service, ada, { vault, preferences })
    await enableTwoStep(first, service, ada)
    await first.core.stop()

    const again = launchApp(service.origin, cleanups, { vault, preferences })
    await again.core.start()
    expect(await again.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: ada.id } })
    expect(await again.call('security:signedInApps', {})).toHaveLength(1)
  })

  it('counts down a wrong code, and confirms the right one after it', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser()
    const app = await signedInApp(service, ada)
    await app.call('security:beginTwoStep', {})
    const pin = await service.lastPin(ada.phoneNumber)
    const wrong = pin === '000000' ? '111111' : '000000'

    expect(await app.call('security:confirmTwoStep', { code: wrong })).toEqual({ status: 'wrongCode', remainingAttempts: 4 })
    expect(await app.call('security:confirmTwoStep', { code: pin })).toMatchObject({ status: 'enabled' })
  })

  it('after five wrong codes the setup is over, and a new one starts afresh', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser()
    const app = await signedInApp(service, ada)
    await app.call('security:beginTwoStep', {})
    const pin = await service.lastPin(ada.phoneNumber)
    const wrong = pin === '000000' ? '111111' : '000000'
    for (const remainingAttempts of [4, 3, 2, 1, 0]) {
      expect(await app.call('security:confirmTwoStep', { code: wrong })).toEqual({ status: 'wrongCode', remainingAttempts })
    }
    await expect(app.call('security:confirmTwoStep', { code: pin })).rejects.toMatchObject({ code: 'VALIDATION', message: expect.stringMatching(/Turn two-step verification on again/) })

    await enableTwoStep(app, service, ada)
  })

  it('says a code expired once its verification has, and that nothing waits for a code before one was asked for', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser()
    const app = await signedInApp(service, ada)
    await expect(app.call('security:confirmTwoStep', { code: '123456' })).rejects.toMatchObject({ code: 'VALIDATION' })

    await app.call('security:beginTwoStep', {})
    const pin = await service.lastPin(ada.phoneNumber)
    await service.advanceClock(11 * 60)
    await expect(app.call('security:confirmTwoStep', { code: pin })).rejects.toMatchObject({ code: 'NOT_FOUND', message: expect.stringMatching(/expired/) })
    // The setup is forgotten with it.
    await expect(app.call('security:confirmTwoStep', { code: pin })).rejects.toMatchObject({ code: 'VALIDATION' })
  })

  it('forgets a cancelled setup', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser()
    const app = await signedInApp(service, ada)
    await app.call('security:beginTwoStep', {})
    const pin = await service.lastPin(ada.phoneNumber)
    expect(await app.call('security:cancelTwoStep', {})).toBeNull()
    await expect(app.call('security:confirmTwoStep', { code: pin })).rejects.toMatchObject({ code: 'VALIDATION' })
    const me = await service.call('GET', '/v3/users/me', { token: app.vault.token ?? '' })
    expect(me.body.response.mfa).toMatchObject({ enabled: false })
  })

  it('refuses every security call when nobody is signed in', async () => {
    const service = await serviceForTest()
    const app = launchApp(service.origin, cleanups)
    await expect(app.call('security:beginTwoStep', {})).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    await expect(app.call('security:disableTwoStep', {})).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    await expect(app.call('security:newBackupCode', {})).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    await expect(app.call('security:signedInApps', {})).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    await expect(app.call('security:signOutApp', { id: '1' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
  })
})

describe('with two-step verification on', () => {
  it('every sign-in asks for a code, also on a device the service knows, and the backup code is one', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser()
    const app = await signedInApp(service, ada)
    // Before: this device is known, so signing in again needs no code.
    await app.call('session:signOut', {})
    expect(await app.call('session:signIn', { username: ada.email, password: ada.password })).toMatchObject({ status: 'signedIn' })

    const { backupCode } = await enableTwoStep(app, service, ada)
    await app.call('session:signOut', {})
    expect(await app.call('session:signIn', { username: ada.email, password: ada.password })).toMatchObject({ status: 'verificationRequired' })
    expect(await app.call('session:confirmCode', { code: backupCode })).toMatchObject({ status: 'signedIn', me: { id: ada.id } })

    // A backup code works once.
    await app.call('session:signOut', {})
    await app.call('session:signIn', { username: ada.email, password: ada.password })
    expect(await app.call('session:confirmCode', { code: backupCode })).toEqual({ status: 'wrongCode', remainingAttempts: 4 })
  })

  it('a new backup code replaces the old one', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser()
    const app = await signedInApp(service, ada)
    const { backupCode: first } = await enableTwoStep(app, service, ada)
    const { backupCode: second } = await app.call('security:newBackupCode', {})
    expect(second).toMatch(/^[a-z0-9]{16}$/)
    expect(second).not.toBe(first)

    await app.call('session:signOut', {})
    await app.call('session:signIn', { username: ada.email, password: ada.password })
    expect(await app.call('session:confirmCode', { code: first })).toEqual({ status: 'wrongCode', remainingAttempts: 4 })
    expect(await app.call('session:confirmCode', { code: second })).toMatchObject({ status: 'signedIn' })
  })

  it('turning it off keeps this session, and sign-ins on a known device need no code again', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser()
    const app = await signedInApp(service, ada)
    await enableTwoStep(app, service, ada)
    const token = app.vault.token

    const account = await app.call('security:disableTwoStep', {})
    expect(account).toMatchObject({ id: ada.id, twoStep: { enabled: false, phoneHint: lastTwoDigits(ada.phoneNumber) } })
    expect(app.vault.token).toBe(token)
    expect(await statusOfToken(service, token ?? '')).toBe(200)
    // Off already is what was asked for.
    expect(await app.call('security:disableTwoStep', {})).toMatchObject({ twoStep: { enabled: false } })

    await app.call('session:signOut', {})
    expect(await app.call('session:signIn', { username: ada.email, password: ada.password })).toMatchObject({ status: 'signedIn' })
  })
})

describe('signed-in apps', () => {
  it('lists every live token with its app, oldest first, and signing another out ends that session at its next call', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser()
    const here = await signedInApp(service, ada)
    const there = await signedInApp(service, ada)
    await service.signIn(ada, { appId: 'other-app' })

    const apps = await here.call('security:signedInApps', {})
    expect(apps).toHaveLength(3)
    expect(apps.map((app) => app.appId)).toEqual([expect.any(String), expect.any(String), 'other-app'])
    expect(apps[0]?.appId).not.toBe('')
    expect(apps.map((app) => Number(app.id))).toEqual([...apps.map((app) => Number(app.id))].sort((a, b) => a - b))
    for (const app of apps) expect(Math.abs(app.createdAt - Date.now() / 1000)).toBeLessThan(600)

    // `there` signed in second: its token is the second.
    const thereApp = apps[1]
    if (thereApp === undefined) throw new Error('no second app')
    const left = await here.call('security:signOutApp', { id: thereApp.id })
    expect(left.map((app) => app.id)).toEqual([apps[0]?.id, apps[2]?.id])

    await expect(there.call('security:signedInApps', {})).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    await there.events.waitFor('session:changed', (state) => state.status === 'signedOut')
    expect(there.vault.token).toBeNull()
    expect(await here.call('session:get', {})).toMatchObject({ status: 'signedIn' })
  })

  it('signing this app out ends its session', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser()
    const app = await signedInApp(service, ada)
    const [own] = await app.call('security:signedInApps', {})
    if (own === undefined) throw new Error('no app listed')

    await expect(app.call('security:signOutApp', { id: own.id })).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: expect.stringMatching(/signed this app out/) })
    const state = await app.events.waitFor('session:changed', (changed) => changed.status === 'signedOut')
    expect(state).toEqual({ status: 'signedOut', notice: 'You signed this app out from Signed-in apps.' })
    expect(app.vault.token).toBeNull()
  })

  it('says so when the app was already signed out', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser()
    const app = await signedInApp(service, ada)
    await expect(app.call('security:signOutApp', { id: '999999' })).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'That app was already signed out.' })
    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn' })
  })
})
