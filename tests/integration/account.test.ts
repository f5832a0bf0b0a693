// Main's core against the real local service for the user's own account: reading it (U1), the
// profile with its avatar (U2, I1), the password (P1), and signing out when the service is gone.
import { describe, expect, it } from 'vitest'
import type { TestService, TestUser } from '../../server/test/support'
import type { SessionState } from '@shared/session'
import { PASSWORD_CHANGED_NOTICE } from '../../src/main/core/profile'
import { launchApp, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'

const { cleanups, service: serviceForTest } = testScope()

async function signedInApp(service: TestService, user: TestUser): Promise<AppHarness> {
  const app = launchApp(service.origin, cleanups)
  await signInThroughSms(app, service, user)
  return app
}

/** The bytes of a PNG as I1 checks them: its signature, then anything. */
function png(size = 64): Uint8Array {
  const bytes = new Uint8Array(size)
  bytes.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])
  return bytes
}

/** U1 as the service answers it to this token. */
async function selfUser(service: TestService, token: string): Promise<{ status: number; user: Record<string, unknown> }> {
  const answer = await service.call('GET', '/v3/users/me', { token })
  return { status: answer.status, user: answer.status === 200 ? (answer.body.response as Record<string, unknown>) : {} }
}

describe('account:get', () => {
  it('reads the profile, with two-step verification off and no phone hint before a phone is its channel', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser({ name: 'Ada Lovelace' })
    const app = await signedInApp(service, ada)

    expect(await app.call('account:get', {})).toEqual({
      id: ada.id,
      name: 'Ada Lovelace',
      email: ada.email,
      bio: '',
      avatarUrl: null,
      twoStep: { enabled: false, phoneHint: null }
    })
  })
})

describe('account:updateProfile', () => {
  it('saves name, e-mail and bio, and the signed-in user is renamed at once', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser({ name: 'Ada' })
    const app = await signedInApp(service, ada)
    const before = app.events.all('session:changed').length

    const result = await app.call('account:updateProfile', { changes: { name: '  Ada Lovelace ', email: 'countess@example.test', bio: 'Notes on the engine.' } })

    expect(result).toEqual({
      status: 'saved',
      account: expect.objectContaining({ name: 'Ada Lovelace', email: 'countess@example.test', bio: 'Notes on the engine.' })
    })
    const renamed = await app.events.waitFor('session:changed', (state: SessionState) => state.status === 'signedIn', 5000, before)
    expect(renamed).toEqual({ status: 'signedIn', me: { id: ada.id, name: 'Ada Lovelace', avatarUrl: null } })
    expect(await app.call('session:get', {})).toEqual(renamed)
    expect(app.preferences.get('account')).toEqual({ id: ada.id, name: 'Ada Lovelace', avatarUrl: null })
    const { user } = await selfUser(service, app.vault.token ?? '')
    expect(user).toMatchObject({ name: 'Ada Lovelace', email: 'countess@example.test', bio: 'Notes on the engine.' })
  })

  it('sets an avatar uploaded through I1, shown as the signed-in user\'s, and null removes it', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser({ name: 'Ada' })
    const app = await signedInApp(service, ada)
    const { url } = await app.call('uploads:start', { uploadId: 'avatar-0001', contentType: 'image/png', bytes: png() })

    const saved = await app.call('account:updateProfile', { changes: { avatarUrl: url } })

    expect(saved).toMatchObject({ status: 'saved', account: { avatarUrl: url } })
    expect(await app.call('session:get', {})).toEqual({ status: 'signedIn', me: { id: ada.id, name: 'Ada', avatarUrl: url } })
    expect((await selfUser(service, app.vault.token ?? '')).user).toMatchObject({ image_url: url })

    expect(await app.call('account:updateProfile', { changes: { avatarUrl: null } })).toMatchObject({ status: 'saved', account: { avatarUrl: null } })
    expect(await app.call('session:get', {})).toEqual({ status: 'signedIn', me: { id: ada.id, name: 'Ada', avatarUrl: null } })
  })

  it('refuses an e-mail another account uses, whatever its case, at the Email field, and changes nothing', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser({ name: 'Ada' })
    const grace = await service.createUser({ name: 'Grace' })
    const app = await signedInApp(service, ada)

    const result = await app.call('account:updateProfile', { changes: { name: 'Ada L.', email: grace.email.toUpperCase() } })

    expect(result).toEqual({ status: 'invalid', field: 'email', message: expect.stringMatching(/belongs to another account/) })
    expect((await selfUser(service, app.vault.token ?? '')).user).toMatchObject({ name: 'Ada', email: ada.email })
    expect(await app.call('session:get', {})).toMatchObject({ me: { name: 'Ada' } })
  })

  it('refuses a picture that is not on the image service at the avatar', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser({ name: 'Ada' })
    const app = await signedInApp(service, ada)

    const result = await app.call('account:updateProfile', { changes: { avatarUrl: 'https://elsewhere.example.test/ada.png' } })

    expect(result).toEqual({ status: 'invalid', field: 'avatar', message: expect.stringMatching(/picture/) })
    expect((await selfUser(service, app.vault.token ?? '')).user).toMatchObject({ image_url: null })
  })

  it.each([
    ['name', { name: ' ' }, /Write your name/],
    ['name', { name: 'x'.repeat(65) }, /64 characters/],
    ['email', { email: 'ada.example.test' }, /@/],
    ['bio', { bio: 'x'.repeat(501) }, /500 characters/]
  ] as const)('checks the %s before asking the service: %j', async (field, changes, message) => {
    const service = await serviceForTest()
    const ada = await service.createUser({ name: 'Ada' })
    const app = await signedInApp(service, ada)
    const { user: before } = await selfUser(service, app.vault.token ?? '')

    expect(await app.call('account:updateProfile', { changes })).toEqual({ status: 'invalid', field, message: expect.stringMatching(message) })
    // Nothing was written: U2 moves `updated_at` even for a value unchanged.
    expect((await selfUser(service, app.vault.token ?? '')).user).toEqual(before)
  })
})

describe('account:changePassword', () => {
  it('refuses a wrong current password at that field, and nothing changes: the session goes on, the old password still works', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser({ name: 'Ada' })
    const app = await signedInApp(service, ada)

    await expect(app.call('account:changePassword', { current: 'not-my-password', next: 'a brand new secret' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'The current password is wrong. Check it and try again.'
    })

    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn' })
    expect((await selfUser(service, app.vault.token ?? '')).status).toBe(200)
    const again = launchApp(service.origin, cleanups)
    await signInThroughSms(again, service, ada)
  })

  it('says in words that there were too many wrong passwords, and to wait 15 minutes, once the service answers 429; nothing changes', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser({ name: 'Ada' })
    const app = await signedInApp(service, ada)
    for (let i = 0; i < 10; i++) {
      await expect(app.call('account:changePassword', { current: `wrong guess ${i}`, next: 'a brand new secret' })).rejects.toMatchObject({
        code: 'FORBIDDEN'
      })
    }

    // The right password too: the service refuses it until the window has passed (§18.32).
    await expect(app.call('account:changePassword', { current: ada.password, next: 'a brand new secret' })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: 'There have been too many wrong passwords for this account. Wait 15 minutes, then try again.'
    })

    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn' })
    expect((await selfUser(service, app.vault.token ?? '')).status).toBe(200)
    await service.advanceClock(15 * 60 + 1)
    const again = launchApp(service.origin, cleanups)
    await signInThroughSms(again, service, ada)
  })

  it('refuses a new password shorter than 8 characters without asking the service', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser({ name: 'Ada' })
    const app = await signedInApp(service, ada)

    await expect(app.call('account:changePassword', { current: ada.password, next: 'short' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringMatching(/at least 8 characters/)
    })
    expect((await selfUser(service, app.vault.token ?? '')).status).toBe(200)
  })

  it('ends every session, this one too, saying why; then the new password signs in and the old one does not', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser({ name: 'Ada' })
    const app = await signedInApp(service, ada)
    const elsewhere = await service.signIn(ada, { appId: 'other-app' })
    const token = app.vault.token ?? ''

    await app.call('account:changePassword', { current: ada.password, next: 'a fresh one, long enough' })

    expect(await app.call('session:get', {})).toEqual({ status: 'signedOut', notice: PASSWORD_CHANGED_NOTICE })
    expect(app.events.all('session:changed').at(-1)).toEqual({ status: 'signedOut', notice: PASSWORD_CHANGED_NOTICE })
    expect(app.vault.token).toBeNull()
    expect((await selfUser(service, token)).status).toBe(401)
    expect((await selfUser(service, elsewhere)).status).toBe(401)

    await expect(app.call('session:signIn', { username: ada.email, password: ada.password })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    await signInThroughSms(app, service, { ...ada, password: 'a fresh one, long enough' })
    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: ada.id } })
  })
})

describe('session:signOut', () => {
  it('clears the local session even when the service cannot be reached', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser({ name: 'Ada' })
    const app = await signedInApp(service, ada)
    await service.close()

    await app.call('session:signOut', {})

    expect(await app.call('session:get', {})).toEqual({ status: 'signedOut', notice: null })
    expect(app.vault.token).toBeNull()
  })
})
