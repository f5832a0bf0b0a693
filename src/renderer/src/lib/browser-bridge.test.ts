import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Api } from '@shared/window-api'
import { decodeBinaryInvoke } from '@shared/bridge-protocol'
import { installBrowserBridge } from './browser-bridge'

/** Stands in for the browser's WebSocket; the host's side is tested over a real socket in src/main/browser. */
class FakeSocket extends EventTarget {
  static readonly CONNECTING = 0
  static readonly OPEN = 1
  static instances: FakeSocket[] = []
  readyState = FakeSocket.CONNECTING
  sent: Record<string, unknown>[] = []

  constructor(readonly url: string) {
    super()
    FakeSocket.instances.push(this)
  }
  send(message: string | Uint8Array): void {
    const frame = typeof message === 'string' ? JSON.parse(message) : { binary: true, ...(decodeBinaryInvoke(message) as object) }
    this.sent.push(frame as Record<string, unknown>)
  }
  open(): void {
    this.readyState = FakeSocket.OPEN
    this.dispatchEvent(new Event('open'))
  }
  receive(frame: object): void {
    this.dispatchEvent(new MessageEvent('message', { data: JSON.stringify(frame) }))
  }
  drop(reason: string): void {
    this.readyState = 3
    this.dispatchEvent(Object.assign(new Event('close'), { code: 4000, reason }))
  }
}

/** A fresh window-like object each time, because the bridge installs itself once per window. */
function page(hash: string) {
  const target = {
    location: { hash, pathname: '/', search: '', host: '127.0.0.1:4321', protocol: 'http:' },
    history: { state: null, replaceState: vi.fn() },
    sessionStorage: window.sessionStorage,
    document,
    addEventListener: vi.fn(),
    WebSocket: FakeSocket
  }
  installBrowserBridge({ target: target as unknown as Window, WebSocket: FakeSocket as unknown as typeof WebSocket })
  return { target, api: (target as unknown as { api: Api }).api, socket: FakeSocket.instances.at(-1) }
}

beforeEach(() => {
  FakeSocket.instances = []
  window.sessionStorage.clear()
  vi.spyOn(console, 'warn').mockImplementation(() => undefined)
  vi.spyOn(console, 'error').mockImplementation(() => undefined)
})

afterEach(() => vi.restoreAllMocks())

describe('installBrowserBridge', () => {
  it('connects with the secret from the fragment and removes it from the address bar', () => {
    const { target, socket } = page('#secret=s3cr%2Bt')
    expect(socket?.url).toBe('ws://127.0.0.1:4321/bridge?secret=s3cr%2Bt')
    expect(target.history.replaceState).toHaveBeenCalledWith(null, '', '/')
  })

  it('finds the secret again after a reload of the same tab', () => {
    page('#secret=abc')
    const { socket } = page('')
    expect(socket?.url).toBe('ws://127.0.0.1:4321/bridge?secret=abc')
  })

  it('leaves an existing window.api alone', () => {
    const existing = { invoke: vi.fn(), on: vi.fn() }
    const target = { api: existing, location: { hash: '#secret=x' } }
    installBrowserBridge({ target: target as unknown as Window, WebSocket: FakeSocket as unknown as typeof WebSocket })
    expect(target.api).toBe(existing)
    expect(FakeSocket.instances).toHaveLength(0)
  })

  it('sends calls made before the socket opens, and resolves them with their results', async () => {
    const { api, socket } = page('#secret=abc')
    const answer = api.invoke('session:get', {})
    socket?.open()
    const invoke = socket?.sent.find((frame) => frame.type === 'invoke')
    expect(invoke).toEqual({ type: 'invoke', id: 1, channel: 'session:get', payload: {} })
    socket?.receive({ type: 'result', id: 1, result: { ok: true, value: { state: 'signedOut' } } })
    await expect(answer).resolves.toEqual({ ok: true, value: { state: 'signedOut' } })
  })

  it('sends a call carrying bytes as one binary message', () => {
    const { api, socket } = page('#secret=abc')
    socket?.open()
    const bytes = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 1, 2, 3)
    void api.invoke('uploads:start', { uploadId: 'upload-1234', contentType: 'image/png', bytes })
    expect(socket?.sent.at(-1)).toEqual({
      binary: true,
      type: 'invoke',
      id: 1,
      channel: 'uploads:start',
      payload: { uploadId: 'upload-1234', contentType: 'image/png', bytes }
    })
  })

  it('reports focus when it connects, and when the window gains or loses it', () => {
    const { target, socket } = page('#secret=abc')
    socket?.open()
    expect(socket?.sent[0]).toEqual({ type: 'focus', focused: expect.any(Boolean) })
    const handlers = new Map(target.addEventListener.mock.calls.map(([name, handler]) => [name, handler as () => void]))
    handlers.get('blur')?.()
    expect(socket?.sent.at(-1)).toEqual({ type: 'focus', focused: false })
    handlers.get('focus')?.()
    expect(socket?.sent.at(-1)).toEqual({ type: 'focus', focused: true })
  })

  it('delivers events to their listeners until they unsubscribe', () => {
    const { api, socket } = page('#secret=abc')
    socket?.open()
    const listener = vi.fn()
    const unsubscribe = api.on('conversations:focus', listener)
    socket?.receive({ type: 'event', event: 'conversations:focus', payload: { conversationId: 'c1' } })
    unsubscribe()
    socket?.receive({ type: 'event', event: 'conversations:focus', payload: { conversationId: 'c2' } })
    expect(listener.mock.calls).toEqual([[{ conversationId: 'c1' }]])
    expect(() => api.on('nope' as never, () => undefined)).toThrow()
  })

  it('fails pending and later calls once the socket is gone', async () => {
    const { api, socket } = page('#secret=abc')
    socket?.open()
    const answer = api.invoke('conversations:list', {})
    socket?.drop('The app was opened in another tab.')
    await expect(answer).rejects.toThrow('another tab')
    await expect(api.invoke('conversations:list', {})).rejects.toThrow('another tab')
  })

  it('without a secret, every call fails with what to do', async () => {
    const { api } = page('')
    await expect(api.invoke('session:get', {})).rejects.toThrow(/npm run web/)
    expect(FakeSocket.instances).toHaveLength(0)
  })
})
