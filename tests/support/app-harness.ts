// Main's core wired to a real local service and to the in-memory platform, for integration tests
// that drive it as the renderer would: through its handlers, watching the events it emits.
import { afterEach, expect } from 'vitest'
import { startTestService, type TestService, type TestUser } from '../../server/test/support'
import { localServiceConfig, type ServiceConfig } from '../../src/main/api/service-config'
import { createAppCore, type AppCore } from '../../src/main/core/app-core'
import { dataDirStores } from '../../src/main/storage/data-dir-stores'
import type { LocalStores, Preferences, TokenVault } from '../../src/main/core/ports'
import { connectToService } from '../../src/main/service/service-connection'
import type { InvokeChannel, InvokeRequest, InvokeResponse } from '@shared/window-api'
import { FakeIdle, FakeWindow, MemoryPreferences, MemoryVault, quietLog, RecordingDisplay, RecordingEvents, RecordingNotifier } from './memory-platform'

type Cleanup = () => Promise<void> | void

/** What a test starts that its teardown must end: services, apps, relays. */
export interface TestScope {
  /** Ended after each test, the last started first. */
  readonly cleanups: Cleanup[]
  /** The local service on a free port, closed after the test. */
  service(options?: Parameters<typeof startTestService>[0]): Promise<TestService>
}

/** Call once at a test file's top level: it registers the teardown (`afterEach`) that ends what each test started. */
export function testScope(): TestScope {
  const cleanups: Cleanup[] = []
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
  })
  return {
    cleanups,
    async service(options = {}) {
      const service = await startTestService(options)
      cleanups.push(() => service.close())
      return service
    }
  }
}

/** What a device keeps of the app between runs: in memory by default, or on disk (`launchAppOnDisk`). */
export interface AppHarness<Vault extends TokenVault = MemoryVault, Prefs extends Preferences = MemoryPreferences> {
  core: AppCore
  events: RecordingEvents
  vault: Vault
  preferences: Prefs
  notifier: RecordingNotifier
  window: FakeWindow
  idle: FakeIdle
  display: RecordingDisplay
  call<C extends InvokeChannel>(channel: C, request: InvokeRequest<C>): Promise<InvokeResponse<C>>
}

export interface LaunchOptions extends AppOptions {
  /** A device's kept state, to start the app again where it left off. */
  vault?: MemoryVault
  preferences?: MemoryPreferences
}

interface AppOptions {
  /** The app's clock (Unix ms); the real one when left out. */
  now?: () => number
  /** Settings that differ from the local service's (a wrong attestation secret, say). */
  config?: Partial<ServiceConfig>
  /**
   * Where conversations and messages are kept on the device; nothing is kept when left out (on
   * disk: the data directory's own, unless given).
   */
  stores?: LocalStores
  /** How the host would address a picture kept on the device; the page is given none when left out. */
  keptPictureAddress?: (url: string) => string
}

/** Builds a core on `origin`; `stop` is handed to `cleanups` so the test's teardown ends it. */
export function launchApp(origin: string, cleanups: Cleanup[], options: LaunchOptions = {}): AppHarness {
  return launchWith(origin, cleanups, options.vault ?? new MemoryVault(), options.preferences ?? new MemoryPreferences(), options)
}

/**
 * Builds a core that keeps its token, preferences and local store in `dataDir` through browser
 * mode's own files (`session-token`, `settings.json`, `store/`), so a launch on the same directory
 * starts from what reached the disk and nothing else, as the app does after a restart.
 */
export function launchAppOnDisk(origin: string, cleanups: Cleanup[], dataDir: string, options: AppOptions = {}): AppHarness<TokenVault, Preferences> {
  const { vault, preferences, stores } = dataDirStores(dataDir, quietLog)
  return launchWith(origin, cleanups, vault, preferences, { ...options, stores: options.stores ?? stores })
}

function launchWith<Vault extends TokenVault, Prefs extends Preferences>(
  origin: string,
  cleanups: Cleanup[],
  vault: Vault,
  preferences: Prefs,
  options: AppOptions
): AppHarness<Vault, Prefs> {
  const events = new RecordingEvents()
  const notifier = new RecordingNotifier()
  const window = new FakeWindow()
  const idle = new FakeIdle()
  const display = new RecordingDisplay()
  const core = createAppCore({
    service: connectToService({ config: { ...localServiceConfig(origin), ...options.config }, log: quietLog }),
    vault,
    preferences,
    notifier,
    window,
    idle,
    display,
    host: { tray: true, startAtLogin: false },
    events,
    openExternal: async () => undefined,
    log: quietLog,
    ...(options.now === undefined ? {} : { now: options.now }),
    ...(options.stores === undefined ? {} : { stores: options.stores }),
    ...(options.keptPictureAddress === undefined ? {} : { keptPictureAddress: options.keptPictureAddress })
  })
  cleanups.push(() => core.stop())
  return { core, events, vault, preferences, notifier, window, idle, display, call: (channel, request) => core.handlers[channel](request) }
}

/** Signs in as a user would: through the SMS code when the service asks for one (a device it does not know yet). */
export async function signInThroughSms(app: AppHarness<TokenVault, Preferences>, service: TestService, user: TestUser): Promise<void> {
  const statusesBefore = app.events.all('push:status').length
  const result = await app.call('session:signIn', { username: user.email, password: user.password })
  if (result.status === 'verificationRequired') {
    await app.call('session:sendCode', {})
    const confirmed = await app.call('session:confirmCode', { code: await service.lastPin(user.phoneNumber) })
    expect(confirmed).toMatchObject({ status: 'signedIn', me: { id: user.id } })
  } else {
    expect(result).toMatchObject({ status: 'signedIn', me: { id: user.id } })
  }
  await app.events.waitFor('push:status', (status) => status === 'connected', 10_000, statusesBefore)
}
