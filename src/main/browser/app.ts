// Browser mode's composition root: the same core as the desktop app, with file-based adapters,
// served to a browser tab by the host. Each call is a whole app with its own data directory, so
// one process can run several (end-to-end tests run one per user).
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { pictureOrigins } from '@shared/picture-origins'
import { isWebUrl } from '@shared/web-url'
import { createAppCore, type AppCore, type AppCoreDependencies } from '../core/app-core'
import type { DesktopNotification } from '../core/ports'
import type { Log } from '../log/log'
import { EventQueue } from '../window-api/event-queue'
import { createConsoleLog } from '../log/console-log'
import { resolveServiceConfig, type ServiceConfig } from '../api/service-config'
import { connectToService } from '../service/service-connection'
import { dataDirStores } from '../storage/data-dir-stores'
import { pathPictureAddress } from '../hosting/kept-pictures'
import { startBrowserHost } from './host'
import { PageWindow } from './page-window'
import { PageNotifier } from './page-notifier'

export interface BrowserAppOptions {
  /** Where the session token and preferences are kept; created private (0700) if missing. */
  dataDir: string
  /** The built renderer: `out/renderer`. */
  rendererDir: string
  /** Which service to use; by default the saved `service` setting overlaid with `environment`'s PARLEY_* variables. */
  config?: ServiceConfig
  environment?: Record<string, string | undefined>
  host?: string
  /** 0 (the default) picks a free port. */
  port?: number
  log?: Log
  /** How links reach a browser; by default the system's opener (xdg-open, open, start). */
  openExternal?: (url: string) => Promise<void>
  /** Builds the core; tests may substitute one. */
  createCore?: (dependencies: AppCoreDependencies) => AppCore
}

export interface BrowserApp {
  /** Open this in a browser: it carries the per-launch secret in its fragment. */
  url: string
  origin: string
  config: ServiceConfig
  /**
   * Settles once the core has started (the session kept from the last run restored); rejects,
   * with the host closed, when it could not. The app listens before: it answers the page then.
   */
  started: Promise<void>
  /** Notifications the app has shown, most recent last. */
  notifications: readonly DesktopNotification[]
  /** Stops the core, then the host. */
  close(): Promise<void>
}

export async function startBrowserApp(options: BrowserAppOptions): Promise<BrowserApp> {
  const log = options.log ?? createConsoleLog('browser')
  const { settings, vault, preferences, stores } = dataDirStores(options.dataDir, log)
  const environment = options.environment ?? process.env
  const config = options.config ?? resolveServiceConfig(settings.get('service'), environment)
  const events = new EventQueue()
  const window = new PageWindow()
  const notifier = new PageNotifier(events, log)

  // Kept pictures are served on the page's own origin, at a path only this launch's page is told.
  const pictureKey = randomBytes(32).toString('base64url')
  const createCore = options.createCore ?? createAppCore
  // Settings ▸ Service saves into the store start-up read; a config given whole has no environment over it.
  const service = connectToService({
    config,
    log,
    saved: { get: () => settings.get('service'), set: (saved) => settings.set('service', saved) },
    environment: options.config === undefined ? environment : {}
  })
  const core = createCore({
    service,
    vault,
    preferences,
    stores,
    keptPictureAddress: (url) => pathPictureAddress(pictureKey, url),
    notifier,
    window,
    idle: window,
    // No tray in a browser: the page shows the badge in its title and icon, from the same state.
    display: { show: () => undefined },
    host: { tray: false, startAtLogin: false },
    events,
    openExternal: options.openExternal ?? ((url) => openWithSystem(url, log)),
    log
  })

  // The core starts while the host begins to listen and the page loads; the page's calls wait for it.
  const started = core.start()
  const host = await startBrowserHost({
    handlers: core.handlers,
    started,
    events,
    window,
    rendererDir: options.rendererDir,
    ...(options.host === undefined ? {} : { host: options.host }),
    port: options.port ?? 0,
    // The origins main lets picture URLs through for, as the settings say when each page is served.
    pictureOrigins: () => pictureOrigins(service.settings.current().settings),
    keptPictures: { key: pictureKey, serve: (url) => core.pictures.serve(url) },
    log
  }).catch(async (error: unknown) => {
    // Nothing to serve the page from (the port taken, say): the core goes as it came.
    await started.catch(() => undefined)
    await core.stop()
    throw error
  })
  // A core that cannot start leaves nothing listening.
  const closeOnFailure = started.catch(async (error: unknown) => {
    await host.close()
    throw error
  })

  return {
    url: host.url,
    origin: host.origin,
    config,
    started: closeOnFailure,
    get notifications() {
      return notifier.shown
    },
    async close() {
      await core.stop()
      await host.close()
    }
  }
}

/** Opens an http(s) link in the user's default browser. */
async function openWithSystem(url: string, log: Log): Promise<void> {
  if (!isWebUrl(url)) {
    log.warn('refused to open a link that is not http(s)', { url })
    return
  }
  const [command, args] =
    process.platform === 'darwin'
      ? ['open', [url]]
      : process.platform === 'win32'
        ? ['explorer.exe', [url]]
        : ['xdg-open', [url]]
  const child = spawn(command, args, { stdio: 'ignore', detached: true })
  child.on('error', (error) => log.warn(`could not open ${url} with ${command}`, error))
  child.unref()
}
