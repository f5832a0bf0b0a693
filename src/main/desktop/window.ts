// The one app window, locked down: sandboxed renderer with context isolation and no Node, a strict
// CSP on every document the session loads, no navigation away from the app, no new windows
// (http(s) links go to the user's browser instead), no permissions but the position, no webviews.
import { BrowserWindow, screen, shell, type Session, type WebContents } from 'electron'
import { isWebUrl } from '@shared/web-url'
import type { Preferences } from '../core/ports'
import type { Log } from '../log/log'
import type { AppLocation } from './app-url'
import { MINIMUM_SIZE, restoreBounds } from './window-bounds'

/**
 * The window's session: in memory (a partition without `persist:`), so nothing the page loads, the
 * pictures of messages and people's avatars above all, lies in Chromium's disk cache, unencrypted
 * beside the encrypted store. The page keeps nothing of its own (no web storage, no cookies): what
 * lasts is main's, and pictures kept on this device come sealed from the store's cache.
 */
export const WINDOW_PARTITION = 'parley-window'

export interface MainWindowOptions {
  /** The session made from `WINDOW_PARTITION`, hardened, with the picture scheme handled. */
  session: Session
  preloadPath: string
  location: AppLocation
  preferences: Preferences
  log: Log
}

export function createMainWindow(options: MainWindowOptions): BrowserWindow {
  const workAreas = screen.getAllDisplays().map((display) => display.workArea)
  const window = new BrowserWindow({
    ...restoreBounds(options.preferences.get('windowBounds'), workAreas),
    minWidth: MINIMUM_SIZE.width,
    minHeight: MINIMUM_SIZE.height,
    title: 'Parley',
    show: false,
    webPreferences: {
      session: options.session,
      preload: options.preloadPath,
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      navigateOnDragDrop: false,
      spellcheck: true
    }
  })
  window.once('ready-to-show', () => window.show())
  window.on('close', () => options.preferences.set('windowBounds', window.getNormalBounds()))

  if (options.location.devServerUrl !== undefined) void window.loadURL(options.location.devServerUrl)
  else void window.loadFile(options.location.rendererFile)
  return window
}

/**
 * Applied to every web contents the app creates, the main window's included. The page may only
 * navigate to the app itself (`location.reload()`, the dev server's full reload).
 */
export function hardenWebContents(contents: WebContents, isAppUrl: (url: string) => boolean, log: Log): void {
  contents.on('will-navigate', (event, url) => {
    if (isAppUrl(url)) return
    event.preventDefault()
    log.warn('blocked the app page from navigating away', { url })
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
  contents.setWindowOpenHandler(({ url }) => {
    openInBrowser(url, log)
    return { action: 'deny' }
  })
}

/**
 * The CSP header on every document, and no permission (camera, notifications…) for any page but
 * one: the app's own page (the session's only main frame, which never navigates away) may learn
 * the device's position, for Share location ▸ Use my position, which the person asks for with a
 * click and the system may still refuse (macOS asks them). The policy is asked for each document:
 * the picture origins it names can change while the app runs.
 */
export function hardenSession(session: Session, contentSecurityPolicy: () => string): void {
  session.webRequest.onHeadersReceived((details, callback) => {
    if (details.resourceType !== 'mainFrame' && details.resourceType !== 'subFrame') {
      callback({})
      return
    }
    const headers = Object.fromEntries(
      Object.entries(details.responseHeaders ?? {}).filter(([name]) => name.toLowerCase() !== 'content-security-policy')
    )
    callback({ responseHeaders: { ...headers, 'Content-Security-Policy': [contentSecurityPolicy()] } })
  })
  session.setPermissionRequestHandler((_contents, permission, callback, details) => callback(permission === 'geolocation' && details.isMainFrame))
  session.setPermissionCheckHandler((_contents, permission, _origin, details) => permission === 'geolocation' && details.isMainFrame)
}

/** Opens http(s) URLs in the user's browser; anything else (file:, javascript:, custom schemes) is refused. */
export async function openExternal(url: string, log: Log): Promise<void> {
  if (!isWebUrl(url)) {
    log.warn('refused to open a link that is not http(s)', { url })
    return
  }
  await shell.openExternal(url)
}

function openInBrowser(url: string, log: Log): void {
  if (isWebUrl(url)) openExternal(url, log).catch((error: unknown) => log.warn('could not open a link', error))
}
