import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { InvokeHandlers } from '@shared/window-api'
import type { AppCore, AppCoreDependencies } from '../core/app-core'
import { MessageFlow } from '../core/message-flow'
import { DEFAULT_SERVICE_CONFIG, localServiceConfig } from '../api/service-config'
import { startBrowserApp, type BrowserApp } from './app'
import { issuedToken } from '../../../tests/support/memory-platform'

let workDir: string
let rendererDir: string
const apps: BrowserApp[] = []
const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }

beforeEach(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'parley-app-'))
  rendererDir = join(workDir, 'renderer')
  await mkdir(rendererDir)
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html>')
})

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()))
  await rm(workDir, { recursive: true, force: true })
})

function fakeCore() {
  const built: AppCoreDependencies[] = []
  const core: AppCore = {
    handlers: new Proxy({} as InvokeHandlers, { get: () => async () => null }),
    messages: new MessageFlow(() => undefined),
    pictures: { serve: async () => null, usage: () => null },
    start: vi.fn(async () => undefined),
    stop: vi.fn(async () => undefined),
    locked: vi.fn(),
    resumed: vi.fn()
  }
  return {
    built,
    core,
    createCore: (dependencies: AppCoreDependencies) => {
      built.push(dependencies)
      return core
    }
  }
}

describe('startBrowserApp', () => {
  it('builds a core on a private data directory and the service named by the environment', async () => {
    const { built, core, createCore } = fakeCore()
    const dataDir = join(workDir, 'alice')
    const app = await startBrowserApp({
      dataDir,
      rendererDir,
      environment: { PARLEY_SERVICE_ORIGIN: 'http://127.0.0.1:9999' },
      log,
      createCore
    })
    apps.push(app)
    expect(app.config.baseUrl).toBe('http://127.0.0.1:9999/v3')
    expect(app.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/#secret=/)
    expect(core.start).toHaveBeenCalled()
    if (process.platform !== 'win32') expect((await stat(dataDir)).mode & 0o777).toBe(0o700)

    const dependencies = built[0]
    if (!dependencies) throw new Error('no core was built')
    await dependencies.vault.save(issuedToken('t'))
    expect((await stat(join(dataDir, 'session-token'))).isFile()).toBe(true)
    dependencies.preferences.set('deviceId', 'd1')
    expect((await stat(join(dataDir, 'settings.json'))).isFile()).toBe(true)
    expect(dependencies.window.isFocused()).toBe(false)

    const onClick = vi.fn()
    dependencies.notifier.show({ key: 'g1', conversationId: 'g1', title: 'Ada', body: 'hello', silent: false, onClick })
    expect(app.notifications).toHaveLength(1)
    app.notifications[0]?.onClick()
    expect(onClick).toHaveBeenCalled()
  })

  it('runs two apps in one process, one per user, apart', async () => {
    const alice = fakeCore()
    const bob = fakeCore()
    const one = await startBrowserApp({ dataDir: join(workDir, 'alice'), rendererDir, environment: {}, log, createCore: alice.createCore })
    const two = await startBrowserApp({ dataDir: join(workDir, 'bob'), rendererDir, environment: {}, log, createCore: bob.createCore })
    apps.push(one, two)
    expect(one.origin).not.toBe(two.origin)
    await alice.built[0]?.vault.save(issuedToken('alice-token'))
    expect(await bob.built[0]?.vault.load()).toBeNull()
  })

  it('stops the core when closed', async () => {
    const { core, createCore } = fakeCore()
    const app = await startBrowserApp({ dataDir: join(workDir, 'd'), rendererDir, environment: {}, log, createCore })
    await app.close()
    expect(core.stop).toHaveBeenCalled()
  })

  it('saves the service settings in its own store, where the next start reads them, under the same environment', async () => {
    const dataDir = join(workDir, 'moving')
    const environment = { PARLEY_APP_ID: 'kiosk' }
    const first = fakeCore()
    apps.push(await startBrowserApp({ dataDir, rendererDir, environment, log, createCore: first.createCore }))
    const settings = first.built[0]?.service.settings
    if (settings === undefined) throw new Error('no core was built')
    expect(settings.current().overriddenBy).toEqual({ appId: 'PARLEY_APP_ID' })

    const elsewhere = { ...localServiceConfig('http://localhost:9191'), appId: 'typed' }
    const { view } = await settings.save(elsewhere, null)
    expect(view.settings).toEqual({ ...elsewhere, appId: 'kiosk' })

    const next = await startBrowserApp({ dataDir, rendererDir, environment: {}, log, createCore: fakeCore().createCore })
    apps.push(next)
    // Without the variable, the app id is the default again: the environment's value was never saved.
    expect(next.config).toEqual({ ...elsewhere, appId: DEFAULT_SERVICE_CONFIG.appId })
  })
})

describe('startBrowserApp while its core starts', () => {
  it('listens before the core has started, and answers the page once it has', async () => {
    const { core, createCore } = fakeCore()
    let finishStart = (): void => undefined
    core.start = vi.fn(() => new Promise<void>((resolve) => (finishStart = resolve)))
    const app = await startBrowserApp({ dataDir: join(workDir, 'early'), rendererDir, environment: {}, log, createCore })
    apps.push(app)

    // The page is served while the kept session is still being restored.
    expect((await fetch(new URL('/', app.origin))).status).toBe(200)
    let started = false
    void app.started.then(() => (started = true))
    await new Promise((resolve) => setImmediate(resolve))
    expect(started).toBe(false)

    finishStart()
    await app.started
    expect(started).toBe(true)
  })

  it('stops listening, and says why, when the core cannot start', async () => {
    const { core, createCore } = fakeCore()
    core.start = vi.fn(async () => {
      throw new Error('the vault could not be read')
    })
    const app = await startBrowserApp({ dataDir: join(workDir, 'broken'), rendererDir, environment: {}, log, createCore })

    await expect(app.started).rejects.toThrow('the vault could not be read')
    await expect(fetch(new URL('/', app.origin))).rejects.toThrow()
  })

  it('stops the core when there is nothing to listen on', async () => {
    const taken = await startBrowserApp({ dataDir: join(workDir, 'first'), rendererDir, environment: {}, log, createCore: fakeCore().createCore })
    apps.push(taken)
    const { core, createCore } = fakeCore()

    await expect(
      startBrowserApp({ dataDir: join(workDir, 'second'), rendererDir, environment: {}, log, createCore, port: Number(new URL(taken.origin).port) })
    ).rejects.toThrow()
    expect(core.stop).toHaveBeenCalled()
  })
})
