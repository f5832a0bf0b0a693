// The access token goes only where it came from (bound to its service, never redirected, one
// sign-in at a time), shown against real processes: the local service, browser
// mode's own host process, and real HTTP servers that record what reaches them or redirect it.
import { existsSync } from 'node:fs'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestService, TestUser } from '../../server/test/support'
import { TOKEN_FILE_NAME } from '../../src/main/storage/file-token-vault'
import type { TokenVault } from '../../src/main/core/ports'
import { createDispatch } from '../../src/main/window-api/dispatch'
import { launchApp, launchAppOnDisk, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { environmentWithoutParley, startBrowserCli } from '../support/browser-cli'
import { startRecordingHost, startRedirector, type HttpDouble } from '../support/http-doubles'
import { quietLog } from '../support/memory-platform'

const scope = testScope()

/** The smallest picture the image service takes: a PNG signature and nothing it needs to read. */
const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0])

async function double<T extends HttpDouble>(started: Promise<T>): Promise<T> {
  const running = await started
  scope.cleanups.push(() => running.close())
  return running
}

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'parley-token-binding-'))
  scope.cleanups.push(() => rm(dir, { recursive: true, force: true }))
  return dir
}

/** Whether the service still takes `token`: U1 answers 200 to a live one and 401 to a revoked one. */
async function stillLive(service: TestService, token: string): Promise<boolean> {
  const { status } = await service.call('GET', '/v3/users/me', { tokenHeader: token })
  if (status !== 200 && status !== 401) throw new Error(`U1 answered ${status}`)
  return status === 200
}

async function heldToken(app: { vault: TokenVault }): Promise<string> {
  const kept = await app.vault.load()
  if (kept === null) throw new Error('the app keeps no token')
  return kept.token
}

describe('a kept token and the service settings of a later start', () => {
  it('never shows the token to a service the start is pointed at (PARLEY_SERVICE_ORIGIN): it is revoked where it was issued, forgotten, and the sign-in screen says why', async () => {
    const service = await scope.service()
    const ada = await service.createUser({ name: 'Ada' })
    const dataDir = await tempDir()
    const first = launchAppOnDisk(service.origin, scope.cleanups, dataDir)
    await signInThroughSms(first, service, ada)
    const token = await heldToken(first)
    await first.core.stop()

    const elsewhere = await double(startRecordingHost())
    const cli = await startBrowserCli(['--data-dir', dataDir, '--port', '0'], { ...environmentWithoutParley(), PARLEY_SERVICE_ORIGIN: elsewhere.origin })
    scope.cleanups.push(() => cli.stop())

    expect(await cli.invoke('session:get', {})).toEqual({
      ok: true,
      value: { status: 'signedOut', notice: `The service address changed since you signed in. Sign in again to use ${elsewhere.origin}.` }
    })
    expect(elsewhere.heard(token)).toBe(false)
    expect(await stillLive(service, token)).toBe(false)
    expect(existsSync(join(dataDir, TOKEN_FILE_NAME))).toBe(false)
  })

  it('counts a single address elsewhere, or another app id, as another service', async () => {
    const service = await scope.service()
    const elsewhere = await double(startRecordingHost())
    for (const variable of [{ PARLEY_IMAGE_SERVICE_URL: `${elsewhere.origin}/image` }, { PARLEY_APP_ID: 'another-app' }]) {
      const user = await service.createUser()
      const dataDir = await tempDir()
      const first = launchAppOnDisk(service.origin, scope.cleanups, dataDir)
      await signInThroughSms(first, service, user)
      const token = await heldToken(first)
      await first.core.stop()

      const cli = await startBrowserCli(['--service-origin', service.origin, '--data-dir', dataDir, '--port', '0'], {
        ...environmentWithoutParley(),
        ...variable
      })
      scope.cleanups.push(() => cli.stop())
      expect(await cli.invoke('session:get', {})).toMatchObject({ ok: true, value: { status: 'signedOut', notice: /^The service address changed/ } })
      expect(await stillLive(service, token)).toBe(false)
      expect(elsewhere.heard(token)).toBe(false)
    }
  })

  it('carries on with the kept session when the start names the same service', async () => {
    const service = await scope.service()
    const ada = await service.createUser({ name: 'Ada' })
    const dataDir = await tempDir()
    const first = launchAppOnDisk(service.origin, scope.cleanups, dataDir)
    await signInThroughSms(first, service, ada)
    await first.core.stop()

    const cli = await startBrowserCli(['--service-origin', service.origin, '--data-dir', dataDir, '--port', '0'], environmentWithoutParley())
    scope.cleanups.push(() => cli.stop())
    expect(await cli.invoke('session:get', {})).toMatchObject({ ok: true, value: { status: 'signedIn', me: { id: ada.id } } })
  })
})

describe('a service that answers with a redirect', () => {
  /** Ada signed in on an app whose REST and image addresses go through `redirector`, which passes them on for now. */
  async function signedInThroughRedirector(): Promise<{ service: TestService; ada: TestUser; app: AppHarness; redirector: Awaited<ReturnType<typeof startRedirector>>; token: string }> {
    const service = await scope.service()
    const redirector = await double(startRedirector(service.origin))
    const ada = await service.createUser({ name: 'Ada' })
    const app = launchApp(service.origin, scope.cleanups, {
      config: { baseUrl: `${redirector.origin}/v3`, v4Url: `${redirector.origin}/v4`, imageServiceUrl: `${redirector.origin}/image` }
    })
    await signInThroughSms(app, service, ada)
    return { service, ada, app, redirector, token: (await heldToken(app)) }
  }

  it('is never followed by a REST read or write: the token stays home, the person reads where it pointed, and the session and the message stay', async () => {
    const { app, redirector, token } = await signedInThroughRedirector()
    const group = await app.call('groups:create', { group: { name: 'Walkers', description: '', imageUrl: null, share: false } })
    const target = await double(startRecordingHost())
    redirector.redirectTo(target.origin, 307)
    const words = `The service answered with a redirect to ${target.origin}/v3/users/me; check the address in Settings ▸ Service.`

    await expect(app.call('account:get', {})).rejects.toMatchObject({ code: 'NETWORK', message: words })
    const pending = await app.call('messages:send', { conversationId: group.id, text: 'Still here?', clientId: 'c-1' })
    expect(pending).toMatchObject({ clientId: 'c-1', text: 'Still here?' })
    const failed = await app.events.waitFor('outbox:changed', ({ pending }) => pending.some((message) => message.error !== null), 10_000)
    expect(failed.pending[0]).toMatchObject({ text: 'Still here?', error: expect.stringMatching(/^Not sent: The service answered with a redirect to .*\/v3\/groups\/.*It will be sent when the service answers\.$/) })

    expect(target.requests).toEqual([])
    expect(target.heard(token)).toBe(false)
    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn' })
  })

  it('is never followed by an upload, and a 301 to plain http: is refused the same way', async () => {
    const { app, redirector, token } = await signedInThroughRedirector()
    const target = await double(startRecordingHost())
    redirector.redirectTo(target.origin, 301)
    await expect(app.call('uploads:start', { uploadId: 'u-1', contentType: 'image/png', bytes: PNG })).rejects.toMatchObject({
      code: 'NETWORK',
      message: `The service answered with a redirect to ${target.origin}/image/pictures; check the address in Settings ▸ Service.`
    })
    expect(target.requests).toEqual([])
    expect(target.heard(token)).toBe(false)
  })

  it('is never followed by push: a handshake answered with a redirect reaches nobody else, and the session stays', async () => {
    const service = await scope.service()
    const target = await double(startRecordingHost())
    const redirector = await double(startRedirector(service.origin))
    redirector.redirectTo(target.origin, 307)
    const ada = await service.createUser({ name: 'Ada' })
    const app = launchApp(service.origin, scope.cleanups, { config: { pushUrl: `${redirector.origin}/faye` } })

    const result = await app.call('session:signIn', { username: ada.email, password: ada.password })
    expect(result.status).toBe('verificationRequired')
    await app.call('session:sendCode', {})
    await app.call('session:confirmCode', { code: await service.lastPin(ada.phoneNumber) })
    await expect.poll(() => redirector.requests.length, { timeout: 15_000 }).toBeGreaterThanOrEqual(2)

    expect(target.requests).toEqual([])
    expect(redirector.heard(await heldToken(app))).toBe(false)
    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn' })
  })

  it('is never followed by push’s WebSocket: the upgrade answered with a redirect reaches nobody else, and push carries on over long polling', async () => {
    const service = await scope.service()
    const target = await double(startRecordingHost())
    const redirector = await double(startRedirector(service.origin))
    redirector.redirectTo(target.origin, 307)
    const ada = await service.createUser({ name: 'Ada' })
    const app = launchApp(service.origin, scope.cleanups, { config: { pushWsUrl: `${redirector.origin.replace('http', 'ws')}/faye` } })

    await signInThroughSms(app, service, ada)
    await expect.poll(() => redirector.requests.some((seen) => seen.method.endsWith('(upgrade)')), { timeout: 15_000 }).toBe(true)
    expect(target.requests).toEqual([])
    expect(redirector.heard(await heldToken(app))).toBe(false)
  })
})

describe('one account at a time, over the IPC dispatch', () => {
  it('refuses a second sign-in, and a code confirmed, while signed in: the first session and its token stay', async () => {
    const service = await scope.service()
    const [ada, grace] = [await service.createUser({ name: 'Ada' }), await service.createUser({ name: 'Grace' })]
    const app = launchApp(service.origin, scope.cleanups)
    await signInThroughSms(app, service, ada)
    const token = await heldToken(app)
    const dispatch = createDispatch(app.core.handlers, quietLog)

    const refused = { ok: false, error: { code: 'CONFLICT', message: 'You are already signed in. Sign out first to sign in to another account.' } }
    expect(await dispatch('session:signIn', { username: grace.email, password: grace.password })).toEqual(refused)
    expect(await dispatch('session:confirmCode', { code: '123456' })).toEqual(refused)

    expect(await dispatch('session:get', {})).toMatchObject({ ok: true, value: { status: 'signedIn', me: { id: ada.id } } })
    expect(await heldToken(app)).toBe(token)
    expect(await stillLive(service, token)).toBe(true)
  })
})
