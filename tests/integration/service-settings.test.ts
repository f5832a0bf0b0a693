// Settings ▸ Service against real local services: Test connection asks each address as the
// contract says and reports what is wrong in words; Save moves the app to another deployment
// without a restart; and a setting the environment decides is reported and kept.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestService } from '../../server/test/support'
import { localServiceConfig, resolveServiceConfig } from '../../src/main/api/service-config'
import { createAppCore } from '../../src/main/core/app-core'
import { NEW_SERVICE_REFUSED_SESSION_NOTICE, NEW_SERVICE_SIGN_IN_NOTICE } from '../../src/main/core/service-settings'
import { checkServiceAddresses } from '../../src/main/service/connection-check'
import { connectToService } from '../../src/main/service/service-connection'
import type { SavedServiceSettings } from '../../src/main/service/service-settings-control'
import type { ServiceSettings } from '@shared/service-settings'
import { launchApp, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { FakeIdle, FakeWindow, MemoryPreferences, MemoryVault, quietLog, RecordingDisplay, RecordingEvents, RecordingNotifier } from '../support/memory-platform'

const { cleanups, service: serviceFor } = testScope()

/** Two deployments over one database: the same accounts and tokens behind two sets of addresses. */
async function twoDeploymentsOfOneService(): Promise<[TestService, TestService]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-service-settings-'))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const db = join(dataDir, 'service.db')
  return [await serviceFor({ db }), await serviceFor({ db })]
}

const chatOf = (a: string, b: string): string => [a, b].sort((x, y) => Number(x) - Number(y)).join('+')

/** The settings file of the Electron shell, or browser mode's store, as the service connection sees it. */
class MemorySavedSettings implements SavedServiceSettings {
  value: unknown
  constructor(value?: unknown) {
    this.value = value
  }
  get(): unknown {
    return this.value
  }
  set(saved: unknown): void {
    this.value = saved
  }
}

/** A loopback port nothing listens on: taken from the system, then let go. */
async function unusedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

describe('Test connection', () => {
  it('reports every address of a real local service ok', async () => {
    const service = await serviceFor()
    const checks = await checkServiceAddresses(localServiceConfig(service.origin))
    expect(checks.map(({ setting, ok }) => [setting, ok])).toEqual([
      ['baseUrl', true],
      ['v2Url', true],
      ['v4Url', true],
      ['imageServiceUrl', true],
      ['pushUrl', true],
      ['pushWsUrl', true]
    ])
  })

  it('says nothing answers at an unused port, for HTTP and WebSocket addresses alike', async () => {
    const port = await unusedPort()
    const checks = await checkServiceAddresses(localServiceConfig(`http://127.0.0.1:${port}`))
    for (const check of checks) {
      expect(check).toMatchObject({ ok: false, problem: expect.stringMatching(/^nothing answers at this address \(connection refused\)/) })
    }
  })

  it('says which address has a path the service does not answer, and why', async () => {
    const service = await serviceFor()
    const local = localServiceConfig(service.origin)
    const checks = await checkServiceAddresses({
      ...local,
      baseUrl: `${service.origin}/v2`,
      v4Url: `${service.origin}/v5`,
      imageServiceUrl: `${service.origin}/v3`,
      pushUrl: `${service.origin}/push`,
      pushWsUrl: local.pushWsUrl.replace('/faye', '/push')
    })
    expect(checks).toEqual([
      {
        setting: 'baseUrl',
        address: `${service.origin}/v2`,
        ok: false,
        problem: 'answered 404 (not found) where the service answers 401 to GET /v2/chats without a sign-in; check the address and its path'
      },
      { setting: 'v2Url', address: local.v2Url, ok: true },
      {
        setting: 'v4Url',
        address: `${service.origin}/v5`,
        ok: false,
        problem: 'answered 404 (not found) where the service answers 401 to GET /v5/relationships without a sign-in; check the address and its path'
      },
      {
        setting: 'imageServiceUrl',
        address: `${service.origin}/v3`,
        ok: false,
        problem: 'answered 404 (not found) where the service answers 401 to POST /v3/pictures without a sign-in; check the address and its path'
      },
      {
        setting: 'pushUrl',
        address: `${service.origin}/push`,
        ok: false,
        problem: 'answered 404 (not found) to a push handshake, where the gateway answers 200; check the address and its path'
      },
      {
        setting: 'pushWsUrl',
        address: local.pushWsUrl.replace('/faye', '/push'),
        ok: false,
        problem: 'answered 404 (not found) where the gateway opens a WebSocket; check the address and its path'
      }
    ])
  })

  it('does not contact an address the transport rule refuses', async () => {
    const checks = await checkServiceAddresses({ ...localServiceConfig('http://127.0.0.1:1'), v2Url: 'http://192.0.2.1/v2' })
    expect(checks[1]).toEqual({
      setting: 'v2Url',
      address: 'http://192.0.2.1/v2',
      ok: false,
      problem: 'http: to 192.0.2.1 would send the access token unencrypted; use https:, or http: only to this computer (127.0.0.1, [::1], localhost)'
    })
  })
})

describe('Save', () => {
  /** The same deployment's addresses written anew (a trailing slash): the same origins, so the session may carry over. */
  const rewritten = (origin: string): ServiceSettings => ({ ...localServiceConfig(origin), baseUrl: `${origin}/v3/`, v2Url: `${origin}/v2/` })

  it('keeps the session at the same origin when the deployment accepts its token: it stays signed in, and push starts again there', async () => {
    const service = await serviceFor()
    const ada = await service.createUser({ name: 'Ada' })
    const bea = await service.signUp({ name: 'Bea' })
    const app = launchApp(service.origin, cleanups)
    await signInThroughSms(app, service, ada)
    const statusesBefore = app.events.all('push:status').length

    const view = await app.call('service:save', { settings: rewritten(service.origin) })

    expect(view).toEqual({ settings: rewritten(service.origin), overriddenBy: {} })
    expect(await app.call('service:get', {})).toEqual(view)
    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: ada.id } })
    await app.events.waitFor('push:status', (status) => status === 'connected', 10_000, statusesBefore + 1)
    await service.sendDirectMessage(bea, ada.id, 'after the save')
    const received = await app.events.waitFor('messages:received', (message) => message.text === 'after the save')
    expect(received).toMatchObject({ conversationId: chatOf(ada.id, bea.id), senderId: bea.id })
    expect(app.events.all('session:changed').filter((state) => state.status === 'signedOut')).toEqual([])
  })

  it('signs out with a notice saying why when the deployment at the same origin refuses the session', async () => {
    const service = await serviceFor()
    const ada = await service.createUser({ name: 'Ada' })
    const app = launchApp(service.origin, cleanups)
    await signInThroughSms(app, service, ada)
    // Signed out on the service behind the app's back: U1 on Save is the first to hear of it.
    expect((await service.call('POST', '/v2/access_tokens/current/destroy', { token: app.vault.token ?? '' })).status).toBe(200)

    await app.call('service:save', { settings: rewritten(service.origin) })

    expect(await app.call('session:get', {})).toEqual({ status: 'signedOut', notice: NEW_SERVICE_REFUSED_SESSION_NOTICE })
    expect(app.vault.token).toBeNull()
    expect(app.events.all('push:status').at(-1)).toBe('offline')
  })

  it('keeps the session when the deployment at the same origin cannot be reached, and push keeps trying there', async () => {
    const service = await serviceFor()
    const ada = await service.createUser()
    const app = launchApp(service.origin, cleanups)
    await signInThroughSms(app, service, ada)
    const statusesAtClose = app.events.all('push:status').length
    await service.close()
    await app.events.waitFor('push:status', (status) => status === 'reconnecting', 10_000, statusesAtClose)
    const statusesBefore = app.events.all('push:status').length

    expect(await app.call('service:save', { settings: rewritten(service.origin) })).toEqual({ settings: rewritten(service.origin), overriddenBy: {} })

    expect(await app.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: ada.id } })
    // Push starts again on the saved settings, and keeps trying.
    await app.events.waitFor('push:status', (status) => status === 'connecting', 10_000, statusesBefore)
    expect(app.events.all('push:status').slice(statusesBefore, statusesBefore + 2)).toEqual(['offline', 'connecting'])
    await expect(app.call('people:blocked', {})).rejects.toMatchObject({ code: 'NETWORK' })
  })

  it('moves to another origin without its token, even one that would take it: signed out there, asked to sign in, and the token revoked', async () => {
    const [first, second] = await twoDeploymentsOfOneService()
    const ada = await first.createUser({ name: 'Ada' })
    const app = launchApp(first.origin, cleanups)
    await signInThroughSms(app, first, ada)
    const token = app.vault.token ?? ''

    const view = await app.call('service:save', { settings: localServiceConfig(second.origin) })

    expect(view).toEqual({ settings: localServiceConfig(second.origin), overriddenBy: {} })
    expect(await app.call('session:get', {})).toEqual({ status: 'signedOut', notice: NEW_SERVICE_SIGN_IN_NOTICE })
    expect(app.vault.token).toBeNull()
    expect(app.events.all('push:status').at(-1)).toBe('offline')
    // Signed out where it was issued, not left live with nobody holding it.
    expect((await first.call('GET', '/v3/users/me', { token })).status).toBe(401)

    const bea = await second.signUp({ name: 'Bea' })
    await signInThroughSms(app, second, ada)
    await second.sendDirectMessage(bea, ada.id, 'welcome to the second')
    await app.events.waitFor('messages:received', (message) => message.text === 'welcome to the second')
  })

  it('moves to an unreachable origin the same way, the session ended', async () => {
    const first = await serviceFor()
    const ada = await first.createUser()
    const app = launchApp(first.origin, cleanups)
    await signInThroughSms(app, first, ada)
    const nowhere = localServiceConfig(`http://127.0.0.1:${await unusedPort()}`)

    expect(await app.call('service:save', { settings: nowhere })).toEqual({ settings: nowhere, overriddenBy: {} })

    expect(await app.call('session:get', {})).toEqual({ status: 'signedOut', notice: NEW_SERVICE_SIGN_IN_NOTICE })
  })

  it('refuses settings that break the transport rule, naming the field, and changes nothing', async () => {
    const first = await serviceFor()
    const app = launchApp(first.origin, cleanups)
    const before = await app.call('service:get', {})

    await expect(app.call('service:save', { settings: { ...localServiceConfig(first.origin), pushWsUrl: 'ws://chat.example.com/faye' } })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringMatching(/^Push WebSocket address: ws: to chat\.example\.com would send the access token unencrypted/)
    })
    expect(await app.call('service:get', {})).toEqual(before)
  })
})

describe('environment overrides', () => {
  it('reports which settings a variable decides, and keeps them through a save, in force and in the file', async () => {
    const first = await serviceFor()
    const second = await serviceFor()
    const environment = { PARLEY_APP_ID: 'kiosk', PARLEY_IMAGE_SERVICE_URL: `${first.origin}/image` }
    const saved = new MemorySavedSettings({ ...localServiceConfig(first.origin), appId: 'saved-app' })
    const platform = {
      events: new RecordingEvents(),
      vault: new MemoryVault(),
      preferences: new MemoryPreferences(),
      notifier: new RecordingNotifier(),
      window: new FakeWindow(),
      idle: new FakeIdle(),
      display: new RecordingDisplay()
    }
    const core = createAppCore({
      ...platform,
      service: connectToService({ config: resolveServiceConfig(saved.value, environment), log: quietLog, saved, environment }),
      host: { tray: true, startAtLogin: false },
      openExternal: async () => undefined,
      log: quietLog
    })
    cleanups.push(() => core.stop())
    const harness: AppHarness = { ...platform, core, call: (channel, request) => core.handlers[channel](request) }
    const app = harness.call

    expect(await app('service:get', {})).toEqual({
      settings: { ...localServiceConfig(first.origin), appId: 'kiosk' },
      overriddenBy: { appId: 'PARLEY_APP_ID', imageServiceUrl: 'PARLEY_IMAGE_SERVICE_URL' }
    })

    const typed = { ...localServiceConfig(second.origin), appId: 'typed-over' }
    const view = await app('service:save', { settings: typed })

    expect(view).toEqual({
      settings: { ...localServiceConfig(second.origin), appId: 'kiosk', imageServiceUrl: `${first.origin}/image` },
      overriddenBy: { appId: 'PARLEY_APP_ID', imageServiceUrl: 'PARLEY_IMAGE_SERVICE_URL' }
    })
    // The file keeps its own values for what the environment decides, for when the variable is gone.
    expect(saved.value).toEqual({ ...localServiceConfig(second.origin), appId: 'saved-app', imageServiceUrl: `${first.origin}/image` })
    expect(resolveServiceConfig(saved.value, environment)).toEqual(view.settings)

    // The app id in force is the variable's: the second deployment issues the token to it.
    const ada = await second.createUser()
    await signInThroughSms(harness, second, ada)
    const tokens = await second.call('GET', '/v2/access_tokens', { token: harness.vault.token ?? '' })
    expect(tokens.body.access_tokens.map((token: { app_id: string }) => token.app_id)).toEqual(['kiosk'])
  })
})
