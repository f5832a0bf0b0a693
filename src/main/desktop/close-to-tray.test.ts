import { EventEmitter } from 'node:events'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { closeToTray, type ClosableWindow } from './close-to-tray'

const electron = vi.hoisted(() => ({ app: null as EventEmitter | null }))

vi.mock('electron', async () => {
  const { EventEmitter: Emitter } = await import('node:events')
  electron.app = new Emitter()
  return { app: electron.app }
})

class FakeWindow extends EventEmitter {
  hidden = false
  hide(): void {
    this.hidden = true
  }
  /** Emits 'close' as Electron does; true when the window would really close. */
  close(): boolean {
    const event = { prevented: false, preventDefault: () => (event.prevented = true) }
    this.emit('close', event)
    if (!event.prevented) this.emit('closed')
    return !event.prevented
  }
}

function app(): EventEmitter {
  if (electron.app === null) throw new Error('electron was not mocked')
  return electron.app
}

function watched(keepsRunning: () => boolean): FakeWindow {
  const window = new FakeWindow()
  closeToTray(window as unknown as ClosableWindow, keepsRunning)
  return window
}

beforeEach(() => {
  app().removeAllListeners()
})

describe('closeToTray', () => {
  it('hides the window instead of closing it while the app keeps running in the tray', () => {
    const window = watched(() => true)
    expect(window.close()).toBe(false)
    expect(window.hidden).toBe(true)
  })

  it('closes the window when the app does not keep running (no tray, or the setting off)', () => {
    let keepsRunning = true
    const window = watched(() => keepsRunning)
    keepsRunning = false
    expect(window.close()).toBe(true)
    expect(window.hidden).toBe(false)
  })

  it('closes the window for real once the app is quitting', () => {
    const window = watched(() => true)
    app().emit('before-quit')
    expect(window.close()).toBe(true)
  })

  it('closes the window for real when Windows ends the session', () => {
    const window = watched(() => true)
    window.emit('session-end')
    expect(window.close()).toBe(true)
  })

  it('stops listening for the quit once the window is gone', () => {
    const window = watched(() => false)
    expect(app().listenerCount('before-quit')).toBe(1)
    window.close()
    expect(app().listenerCount('before-quit')).toBe(0)
  })
})
