// The Electron composition root: builds the desktop adapters, hands them to the core, and carries
// the core's handlers and events over IPC to the one window. Everything with behaviour lives in
// core/; everything that touches Electron lives in desktop/.
/// <reference types="electron-vite/node" />
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { app, dialog, protocol, safeStorage, session, type BrowserWindow, type NativeImage } from 'electron'
import ElectronStore from 'electron-store'
// Copied next to the built main process, so it is found in development and in the packaged app alike.
import appIconPath from '../../build/icon.png?asset'
import { createAppCore, type AppCore } from './core/app-core'
import type { AppWindow, StatusDisplay } from './core/ports'
import { createDispatch } from './window-api/dispatch'
import { EventQueue } from './window-api/event-queue'
import { isAppUrl, type AppLocation } from './desktop/app-url'
import { createConsoleLog } from './log/console-log'
import { contentSecurityPolicy } from './hosting/content-security-policy'
import { closeToTray } from './desktop/close-to-tray'
import { remoteDebuggingSwitch } from './desktop/debugging-switches'
import { registerIpcTransport } from './desktop/ipc-transport'
import { LoginItem, offersStartAtLogin } from './desktop/login-item'
import { saveDialogExportFiles } from './desktop/export-files'
import { ElectronNotifier } from './desktop/notifier'
import { decodePng } from './desktop/png'
import { declarePictureScheme, handlePictures } from './desktop/picture-protocol'
import { schemePictureAddress } from './hosting/kept-pictures'
import { StoredPreferences, type KeyValueStore } from './storage/stored-preferences'
import { resolveServiceConfig } from './api/service-config'
import { serviceEnvironment } from './desktop/service-environment'
import { pictureOrigins } from '@shared/picture-origins'
import { connectToService } from './service/service-connection'
import { reportStartupFailure, type StartupFailureHost } from './desktop/startup-failure'
import { followTheme } from './desktop/native-theme'
import { systemIdle, watchPowerEvents } from './desktop/system-idle'
import { SafeStorageTokenVault } from './desktop/token-vault'
import { keychainSealing } from './desktop/store-key-sealing'
import { FileLocalStores } from './storage/local-store/local-stores'
import { loadSqliteFrom } from './storage/local-store/store-thread'
import { TrayService } from './desktop/tray'
import { TrayIcons } from './desktop/tray-icon'
import { UnreadBadge } from './desktop/unread-badge'
import { watchSession } from './desktop/watch-session'
import { createMainWindow, hardenSession, hardenWebContents, openExternal, WINDOW_PARTITION } from './desktop/window'

const log = createConsoleLog('main')
/** electron-store's name for the settings file: `settings.json` in the user data folder. */
const SETTINGS_STORE = 'settings'

// Before anything else: a packaged app will not be driven over remote debugging, every renderer
// is sandboxed, and a second launch only wakes the first.
const debuggingSwitch = app.isPackaged ? remoteDebuggingSwitch((name) => app.commandLine.hasSwitch(name)) : null
app.enableSandbox()
// Pictures kept on this device reach the page on a scheme of the app's own, declared before ready.
declarePictureScheme(protocol)
if (debuggingSwitch !== null) {
  log.error(`refusing to start with --${debuggingSwitch}: it would let another program control Parley`)
  app.exit(1)
} else if (app.requestSingleInstanceLock()) {
  main().catch((error: unknown) => {
    const settingsFile = join(app.getPath('userData'), `${SETTINGS_STORE}.json`)
    const host = {
      whenReady: () => app.whenReady(),
      showErrorBox: (title: string, content: string) => dialog.showErrorBox(title, content),
      exit: (code: number) => app.exit(code)
    } satisfies StartupFailureHost
    return reportStartupFailure(error, settingsFile, host, log)
  })
} else {
  app.quit()
}

async function main(): Promise<void> {
  const settings = keyValueStore(SETTINGS_STORE)
  const environment = serviceEnvironment(process.env, app.isPackaged)
  const config = resolveServiceConfig(settings.get('service'), environment)
  const preferences = new StoredPreferences(settings, log)
  const events = new EventQueue()
  const location: AppLocation = {
    rendererFile: join(import.meta.dirname, '../renderer/index.html'),
    devServerUrl: app.isPackaged ? undefined : process.env.ELECTRON_RENDERER_URL
  }

  let window: BrowserWindow | null = null
  const reveal = (): void => {
    if (window === null) {
      window = openWindow()
      return
    }
    if (window.isMinimized()) window.restore()
    window.show()
    window.focus()
  }
  const isShown = (): boolean => window !== null && window.isVisible() && !window.isMinimized()
  const appWindow: AppWindow = {
    isFocused: () => isShown() && window?.isFocused() === true,
    reveal
  }

  await app.whenReady()

  // The tray's menu calls the same core handlers as the window's menus.
  const tray = new TrayService({
    icon: trayIcons(),
    window: { isShown, show: reveal, hide: () => window?.hide() },
    actions: {
      setStatus: (status) => core.handlers['presence:set']({ status }),
      mute: (duration) => core.handlers['notifications:mute']({ duration }),
      unmute: () => core.handlers['notifications:unmute']({}),
      signOut: () => signOutFromTray(),
      quit: () => app.quit()
    },
    log
  })
  /** The tray asks as the window does before unsent messages go with the account, in a native dialog. */
  async function signOutFromTray(): Promise<void> {
    const result = await core.handlers['session:signOut']({})
    if (result.status !== 'unsentMessages') return
    const { response } = await dialog.showMessageBox({
      type: 'warning',
      title: 'Unsent messages',
      message: 'Unsent messages',
      detail:
        result.count === 1
          ? '1 message you wrote has not been sent yet. Signing out removes it from this device, and it will not be sent.'
          : `${result.count} messages you wrote have not been sent yet. Signing out removes them from this device, and they will not be sent.`,
      buttons: ['Cancel', 'Sign out anyway'],
      defaultId: 0,
      cancelId: 0
    })
    if (response === 1) await core.handlers['session:signOut']({ discardUnsent: true })
  }
  const badge = new UnreadBadge()
  const loginItem = new LoginItem()
  const host = { tray: true, startAtLogin: offersStartAtLogin(process.platform, app.isPackaged) }
  const display: StatusDisplay = {
    show: (state) => {
      tray.show(state)
      badge.show(state.unreadCount)
      if (host.startAtLogin) loginItem.follow(state.settings.startAtLogin)
      followTheme(state.settings.theme)
    }
  }

  // Settings ▸ Service saves into the same file start-up read, under the same environment.
  const service = connectToService({
    config,
    log,
    saved: { get: () => settings.get('service'), set: (saved) => settings.set('service', saved) },
    environment
  })
  // `npm start` runs this window on Electron's ABI with node_modules built for Node's: it fetched a
  // SQLite built for Electron and says where (scripts/electron-sqlite.mjs). A package has its own,
  // and takes nothing from its environment (serviceEnvironment).
  const sqliteAddon = environment.PARLEY_SQLITE_BINDING
  if (sqliteAddon !== undefined) loadSqliteFrom(sqliteAddon)
  const core: AppCore = createAppCore({
    service,
    vault: new SafeStorageTokenVault({ store: keyValueStore('vault'), encryption: safeStorage, log }),
    preferences,
    stores: new FileLocalStores({ directory: join(app.getPath('userData'), 'store'), sealing: keychainSealing(safeStorage), log }),
    keptPictureAddress: schemePictureAddress,
    exportFiles: saveDialogExportFiles(() => window),
    notifier: new ElectronNotifier(log),
    window: appWindow,
    idle: systemIdle,
    display,
    host,
    events: watchSession(events, (signedIn) => tray.setSignedIn(signedIn)),
    openExternal: (url) => openExternal(url, log),
    log
  })

  // Pictures load from the origins main lets picture URLs through for, as the settings say when the page loads.
  const windowSession = session.fromPartition(WINDOW_PARTITION)
  hardenSession(windowSession, () => contentSecurityPolicy({ pictureOrigins: pictureOrigins(service.settings.current().settings) }))
  handlePictures(windowSession.protocol, (url) => core.pictures.serve(url))
  app.on('web-contents-created', (_event, contents) => hardenWebContents(contents, (url) => isAppUrl(url, location), log))
  // The core starts while the window loads; the window's calls wait for it.
  const started = core.start()
  registerIpcTransport({
    dispatch: createDispatch(core.handlers, log, started),
    events,
    appContents: () => window?.webContents ?? null,
    isAppUrl: (url) => isAppUrl(url, location),
    log
  })

  function openWindow(): BrowserWindow {
    const created = createMainWindow({ session: windowSession, preloadPath: join(import.meta.dirname, '../preload/index.cjs'), location, preferences, log })
    created.on('closed', () => {
      if (window === created) window = null
    })
    closeToTray(created, () => tray.keepsAppRunning)
    badge.attach(created)
    return created
  }

  window = openWindow()
  app.on('second-instance', reveal)
  // The Dock's icon (macOS) brings back a window that was closed or hidden.
  app.on('activate', reveal)
  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit()
  })

  // Quitting waits for the core to disconnect push and flush what it keeps, once.
  let stopped = false
  app.on('will-quit', (event) => {
    if (stopped) return
    event.preventDefault()
    tray.destroy()
    core
      .stop()
      .catch((error: unknown) => log.warn('the core did not stop cleanly', error))
      .finally(() => {
        stopped = true
        app.quit()
      })
  })

  watchPowerEvents({ away: () => core.locked(), back: () => core.resumed() })
  await followLoginItem(core, loginItem, host.startAtLogin)
  await started
}

/** The tray's images, drawn from the app icon. macOS shows the unread count on the Dock instead. */
function trayIcons(): (unreadCount: number) => NativeImage {
  const icons = new TrayIcons(decodePng(readFileSync(appIconPath)), process.platform !== 'darwin')
  return (unreadCount) => icons.forUnread(unreadCount)
}

/** The setting starts out as the system has it: the user may have changed the login item in the system's own settings. */
async function followLoginItem(core: AppCore, loginItem: LoginItem, offered: boolean): Promise<void> {
  if (!offered) return
  const { settings } = await core.handlers['desktop:get']({})
  const enabled = loginItem.enabled
  if (settings.startAtLogin !== enabled) await core.handlers['settings:update']({ changes: { startAtLogin: enabled } })
}

function keyValueStore(name: string): KeyValueStore {
  const store = new ElectronStore<Record<string, unknown>>({ name })
  return {
    get: (key) => store.get(key),
    set: (key, value) => store.set(key, value),
    delete: (key) => store.delete(key)
  }
}
