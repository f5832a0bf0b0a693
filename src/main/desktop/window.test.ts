import { EventEmitter } from 'node:events'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { PreferenceValues, Preferences } from '../core/ports'
import { contentSecurityPolicy } from '../hosting/content-security-policy'
import type { Session } from 'electron'
import { createMainWindow, hardenSession, hardenWebContents, openExternal, WINDOW_PARTITION } from './window'

const electron = vi.hoisted(() => ({
  windows: [] as unknown[],
  openExternal: vi.fn(async (_url: string) => undefined),
  workAreas: [{ x: 0, y: 0, width: 1920, height: 1050 }]
}))

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events')
  class BrowserWindow extends Emitter {
    loaded: string | null = null
    constructor(readonly options: Record<string, unknown>) {
      super()
      electron.windows.push(this)
    }
    loadFile(path: string) {
      this.loaded = `file:${path}`
      return Promise.resolve()
    }
    loadURL(url: string) {
      this.loaded = url
      return Promise.resolve()
    }
    getNormalBounds() {
      return { x: 10, y: 20, width: 900, height: 700 }
    }
    show() {}
  }
  return {
    BrowserWindow,
    screen: { getAllDisplays: () => electron.workAreas.map((workArea) => ({ workArea })) },
    shell: { openExternal: electron.openExternal }
  }
})

type FakeWindow = EventEmitter & { options: Record<string, unknown>; loaded: string | null }
const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
/** Stands for `session.fromPartition(WINDOW_PARTITION)`: the window only passes it on. */
const windowSession = { partition: WINDOW_PARTITION } as unknown as Session

function memoryPreferences(initial: Partial<PreferenceValues> = {}): Preferences & { values: Partial<PreferenceValues> } {
  const values: Partial<PreferenceValues> = { ...initial }
  return {
    values,
    get: (key) => values[key],
    set: (key, value) => {
      values[key] = value
    },
    delete: (key) => {
      Reflect.deleteProperty(values, key)
    }
  }
}

beforeEach(() => {
  electron.windows.length = 0
  electron.openExternal.mockClear()
})

describe('createMainWindow', () => {
  const location = { rendererFile: '/app/out/renderer/index.html' }

  it('creates a sandboxed, isolated window with the preload and no Node', () => {
    createMainWindow({ session: windowSession, preloadPath: '/app/out/preload/index.cjs', location, preferences: memoryPreferences(), log })
    const window = electron.windows[0] as FakeWindow
    expect(window.options.webPreferences).toMatchObject({
      session: windowSession,
      preload: '/app/out/preload/index.cjs',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      webviewTag: false
    })
    expect(window.loaded).toBe('file:/app/out/renderer/index.html')
  })

  it('loads the dev server in development', () => {
    createMainWindow({ session: windowSession, preloadPath: 'p', location: { ...location, devServerUrl: 'http://localhost:5173/' }, preferences: memoryPreferences(), log })
    expect((electron.windows[0] as FakeWindow).loaded).toBe('http://localhost:5173/')
  })

  it('reopens where it was closed, and remembers where that was', () => {
    const preferences = memoryPreferences({ windowBounds: { x: 200, y: 100, width: 1000, height: 700 } })
    createMainWindow({ session: windowSession, preloadPath: 'p', location, preferences, log })
    const window = electron.windows[0] as FakeWindow
    expect(window.options).toMatchObject({ x: 200, y: 100, width: 1000, height: 700 })

    window.emit('close')
    expect(preferences.values.windowBounds).toEqual({ x: 10, y: 20, width: 900, height: 700 })
  })

  it('does not reopen on a display that is gone', () => {
    const preferences = memoryPreferences({ windowBounds: { x: 3000, y: 100, width: 1000, height: 700 } })
    createMainWindow({ session: windowSession, preloadPath: 'p', location, preferences, log })
    const options = (electron.windows[0] as FakeWindow).options
    expect(options.x).toBeUndefined()
    expect(options.y).toBeUndefined()
  })
})

describe('the window session', () => {
  it('is kept in memory: a partition Electron would write to disk starts with persist:', () => {
    expect(WINDOW_PARTITION).not.toMatch(/^persist:/)
  })
})

describe('hardenWebContents', () => {
  function harden() {
    const contents = Object.assign(new EventEmitter(), {
      openHandler: null as ((details: { url: string }) => { action: string }) | null,
      setWindowOpenHandler(handler: (details: { url: string }) => { action: string }) {
        this.openHandler = handler
      }
    })
    hardenWebContents(contents as never, (url) => url.startsWith('file:///app/out/renderer/index.html'), log)
    return contents
  }

  it('blocks every navigation away from the app', () => {
    const contents = harden()
    const event = { preventDefault: vi.fn() }
    contents.emit('will-navigate', event, 'https://evil.example/')
    expect(event.preventDefault).toHaveBeenCalled()
    expect(electron.openExternal).not.toHaveBeenCalled()
  })

  it('lets the page reload itself', () => {
    const contents = harden()
    const event = { preventDefault: vi.fn() }
    contents.emit('will-navigate', event, 'file:///app/out/renderer/index.html')
    expect(event.preventDefault).not.toHaveBeenCalled()
  })

  it('opens no windows, and sends http(s) links to the browser', () => {
    const contents = harden()
    expect(contents.openHandler?.({ url: 'https://example.com/a' })).toEqual({ action: 'deny' })
    expect(electron.openExternal).toHaveBeenCalledWith('https://example.com/a')
    expect(contents.openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' })
    expect(contents.openHandler?.({ url: 'smb://host/share' })).toEqual({ action: 'deny' })
    expect(electron.openExternal).toHaveBeenCalledTimes(1)
  })

  it('refuses webviews', () => {
    const contents = harden()
    const event = { preventDefault: vi.fn() }
    contents.emit('will-attach-webview', event)
    expect(event.preventDefault).toHaveBeenCalled()
  })
})

describe('hardenSession', () => {
  type HeadersListener = (details: object, callback: (response: object) => void) => void
  type RequestHandler = (contents: unknown, permission: string, callback: (granted: boolean) => void, details: { isMainFrame: boolean }) => void
  type CheckHandler = (contents: unknown, permission: string, origin: string, details: { isMainFrame: boolean }) => boolean
  interface FakeSession {
    onHeaders: HeadersListener | null
    requestHandler: RequestHandler | null
    checkHandler: CheckHandler | null
  }

  function harden(policy: () => string = () => contentSecurityPolicy()) {
    const session: FakeSession & Record<string, unknown> = {
      onHeaders: null as ((details: object, callback: (response: object) => void) => void) | null,
      requestHandler: null as RequestHandler | null,
      checkHandler: null as CheckHandler | null,
      webRequest: {
        onHeadersReceived(listener: HeadersListener) {
          session.onHeaders = listener
        }
      },
      setPermissionRequestHandler(handler: RequestHandler) {
        session.requestHandler = handler
      },
      setPermissionCheckHandler(handler: CheckHandler) {
        session.checkHandler = handler
      }
    }
    hardenSession(session as never, policy)
    return session
  }

  it('puts the CSP on documents, replacing any other', () => {
    const session = harden()
    const callback = vi.fn()
    session.onHeaders?.({ resourceType: 'mainFrame', responseHeaders: { 'content-security-policy': ['x'], Server: ['vite'] } }, callback)
    expect(callback).toHaveBeenCalledWith({
      responseHeaders: { Server: ['vite'], 'Content-Security-Policy': [contentSecurityPolicy()] }
    })
  })

  it('puts on each document the policy in force when it arrives', () => {
    let pictureOrigins = ['http://127.0.0.1:8080']
    const session = harden(() => contentSecurityPolicy({ pictureOrigins }))
    const policies: unknown[] = []
    const callback = (response: object): number => policies.push(response)
    session.onHeaders?.({ resourceType: 'mainFrame', responseHeaders: {} }, callback)
    pictureOrigins = ['http://127.0.0.1:8080', 'https://pictures.example.com']
    session.onHeaders?.({ resourceType: 'mainFrame', responseHeaders: {} }, callback)
    expect(policies).toEqual([
      { responseHeaders: { 'Content-Security-Policy': [contentSecurityPolicy({ pictureOrigins: ['http://127.0.0.1:8080'] })] } },
      { responseHeaders: { 'Content-Security-Policy': [contentSecurityPolicy({ pictureOrigins: ['http://127.0.0.1:8080', 'https://pictures.example.com'] })] } }
    ])
  })

  it('leaves other responses alone', () => {
    const session = harden()
    const callback = vi.fn()
    session.onHeaders?.({ resourceType: 'image', responseHeaders: {} }, callback)
    expect(callback).toHaveBeenCalledWith({})
  })

  it("grants no permission but the position, and that to the app's page only, never to a frame", () => {
    const session = harden()
    const granted = (permission: string, isMainFrame: boolean): boolean => {
      const callback = vi.fn()
      session.requestHandler?.({}, permission, callback, { isMainFrame })
      expect(callback).toHaveBeenCalledOnce()
      const checked = session.checkHandler?.({}, permission, 'file://', { isMainFrame })
      expect(callback).toHaveBeenCalledWith(checked)
      return checked ?? true
    }
    for (const permission of ['media', 'notifications', 'clipboard-read', 'midi', 'openExternal']) expect(granted(permission, true), permission).toBe(false)
    expect(granted('geolocation', true)).toBe(true)
    expect(granted('geolocation', false)).toBe(false)
  })
})

describe('openExternal', () => {
  it('opens http(s) only', async () => {
    await openExternal('https://example.com/', log)
    await openExternal('javascript:alert(1)', log)
    await openExternal('file:///etc/passwd', log)
    expect(electron.openExternal).toHaveBeenCalledTimes(1)
  })
})
