import { EventEmitter } from 'node:events'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { INVOKE_CHANNELS } from '@shared/window-api'
import { EventQueue } from '../window-api/event-queue'
import { registerIpcTransport } from './ipc-transport'

type Handler = (event: unknown, payload: unknown) => Promise<unknown>

const electron = vi.hoisted(() => ({ handlers: new Map<string, Handler>() }))

vi.mock('electron', () => ({
  ipcMain: {
    handle: (channel: string, handler: Handler) => electron.handlers.set(channel, handler),
    removeHandler: (channel: string) => electron.handlers.delete(channel)
  }
}))

const APP_URL = 'file:///app/out/renderer/index.html'

class FakeWebContents extends EventEmitter {
  sent: [string, unknown][] = []
  destroyed = false
  send(channel: string, payload: unknown): void {
    this.sent.push([channel, payload])
  }
  isDestroyed(): boolean {
    return this.destroyed
  }
}

function setup() {
  const contents = new FakeWebContents()
  const events = new EventQueue()
  const dispatch = vi.fn(async (channel: unknown, _payload: unknown) => ({ ok: true as const, value: `${String(channel)} done` }))
  const warn = vi.fn()
  const dispose = registerIpcTransport({
    dispatch,
    events,
    appContents: () => contents as never,
    isAppUrl: (url) => url.startsWith(APP_URL),
    log: { info: vi.fn(), warn, error: vi.fn() }
  })
  const topFrame = { url: APP_URL, parent: null }
  const call = (channel: string, payload: unknown = {}, event: object = { sender: contents, senderFrame: topFrame }) => {
    const handler = electron.handlers.get(channel)
    if (!handler) throw new Error(`no handler for ${channel}`)
    return handler(event, payload)
  }
  return { contents, events, dispatch, warn, dispose, call, topFrame }
}

beforeEach(() => electron.handlers.clear())

describe('registerIpcTransport', () => {
  it('registers exactly the contract channels and removes them again', () => {
    const { dispose } = setup()
    expect([...electron.handlers.keys()].sort()).toEqual([...INVOKE_CHANNELS].sort())
    dispose()
    expect(electron.handlers.size).toBe(0)
  })

  it('passes a call from the app page to the shared dispatch', async () => {
    const { call, dispatch } = setup()
    await expect(call('session:signIn', { username: 'ada', password: 'pw' })).resolves.toEqual({
      ok: true,
      value: 'session:signIn done'
    })
    expect(dispatch).toHaveBeenCalledWith('session:signIn', { username: 'ada', password: 'pw' })
  })

  it.each([
    ['a subframe of the app window', (c: FakeWebContents) => ({ sender: c, senderFrame: { url: APP_URL, parent: {} } })],
    ['a foreign page in the top frame', (c: FakeWebContents) => ({ sender: c, senderFrame: { url: 'https://evil.example/', parent: null } })],
    ['another web contents', () => ({ sender: new FakeWebContents(), senderFrame: { url: APP_URL, parent: null } })],
    ['a frame that is already gone', (c: FakeWebContents) => ({ sender: c, senderFrame: null })]
  ])('refuses %s without dispatching', async (_name, eventFor) => {
    const { call, contents, dispatch, warn } = setup()
    const result = await call('session:get', {}, eventFor(contents))
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ code: 'FORBIDDEN' }) })
    expect(dispatch).not.toHaveBeenCalled()
    expect(warn).toHaveBeenCalled()
  })

  it('holds events until app:ready, then delivers them in order and as they come', async () => {
    const { call, contents, events } = setup()
    events.emit('push:status', { state: 'connecting' } as never)
    events.emit('conversations:changed', [])
    expect(contents.sent).toEqual([])

    await call('app:ready')
    expect(contents.sent).toEqual([
      ['push:status', { state: 'connecting' }],
      ['conversations:changed', []]
    ])
    events.emit('conversations:focus', { conversationId: 'c1' })
    expect(contents.sent.at(-1)).toEqual(['conversations:focus', { conversationId: 'c1' }])
  })

  it('holds events again from a reload until the next app:ready', async () => {
    const { call, contents, events } = setup()
    await call('app:ready')
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false, initiator: null })
    events.emit('conversations:changed', [])
    expect(contents.sent).toEqual([])

    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true })
    await call('app:ready')
    expect(contents.sent).toEqual([['conversations:changed', []]])
  })

  it('keeps delivering while a navigation the page started may yet be refused, and holds events once it commits', async () => {
    const { call, contents, events } = setup()
    await call('app:ready')
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: false, initiator: { url: APP_URL } })
    events.emit('conversations:changed', [])
    expect(contents.sent).toHaveLength(1)

    contents.emit('did-navigate', {}, APP_URL)
    events.emit('conversations:changed', [])
    expect(contents.sent).toHaveLength(1)
  })

  it('holds events when the page crashes or the window closes', async () => {
    for (const departure of ['render-process-gone', 'destroyed']) {
      const { call, contents, events } = setup()
      await call('app:ready')
      contents.emit(departure, {}, {})
      events.emit('conversations:changed', [])
      expect(contents.sent).toEqual([])
      electron.handlers.clear()
    }
  })

  it('ignores in-page and subframe navigations', async () => {
    const { call, contents, events } = setup()
    await call('app:ready')
    contents.emit('did-start-navigation', { isMainFrame: true, isSameDocument: true })
    contents.emit('did-start-navigation', { isMainFrame: false, isSameDocument: false })
    events.emit('conversations:changed', [])
    expect(contents.sent).toHaveLength(1)
  })

  it('does not attach when app:ready itself was refused', async () => {
    const { call, contents, events } = setup()
    await call('app:ready', {}, { sender: contents, senderFrame: { url: 'https://evil.example/', parent: null } })
    events.emit('conversations:changed', [])
    expect(contents.sent).toEqual([])
  })
})
