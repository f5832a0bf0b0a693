// The preload (src/preload/index.ts) runs in the renderer's isolated world; here it runs against
// fakes of contextBridge and ipcRenderer to check what it lets through.
import { beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { EVENT_NAMES, INVOKE_CHANNELS, type Api } from '@shared/window-api'

const electron = vi.hoisted(() => ({
  exposed: new Map<string, unknown>(),
  invoke: vi.fn(async (..._args: unknown[]) => ({ ok: true, value: null })),
  on: vi.fn(),
  removeListener: vi.fn()
}))

vi.mock('electron', () => ({
  contextBridge: { exposeInMainWorld: (key: string, value: unknown) => electron.exposed.set(key, value) },
  ipcRenderer: { invoke: electron.invoke, on: electron.on, removeListener: electron.removeListener }
}))

let api: Api

beforeAll(async () => {
  await import('../../preload/index')
  api = electron.exposed.get('api') as Api
})

beforeEach(() => {
  electron.invoke.mockClear()
  electron.on.mockClear()
  electron.removeListener.mockClear()
})

describe('preload', () => {
  it('exposes window.api with invoke and on, and nothing else', () => {
    expect([...electron.exposed.keys()]).toEqual(['api'])
    expect(Object.keys(api).sort()).toEqual(['invoke', 'on'])
  })

  it('forwards every contract channel to the IPC channel of the same name', async () => {
    for (const channel of INVOKE_CHANNELS) {
      await api.invoke(channel, {} as never)
      expect(electron.invoke).toHaveBeenLastCalledWith(channel, {})
    }
    expect(electron.invoke).toHaveBeenCalledTimes(INVOKE_CHANNELS.length)
  })

  it('refuses a channel the contract does not name without reaching main', async () => {
    const result = await api.invoke('electron-store-get-data' as never, {} as never)
    expect(result).toEqual({ ok: false, error: expect.objectContaining({ code: 'VALIDATION' }) })
    expect(electron.invoke).not.toHaveBeenCalled()
  })

  it('subscribes to contract events, hands over only the payload, and unsubscribes', () => {
    const listener = vi.fn()
    const unsubscribe = api.on('push:status', listener)
    expect(electron.on).toHaveBeenCalledWith('push:status', expect.any(Function))
    const forward = electron.on.mock.calls[0]?.[1] as (event: unknown, payload: unknown) => void
    forward({ sender: 'the IPC event must not leak' }, { state: 'connected' })
    expect(listener).toHaveBeenCalledWith({ state: 'connected' })
    expect(listener.mock.calls[0]).toHaveLength(1)

    unsubscribe()
    expect(electron.removeListener).toHaveBeenCalledWith('push:status', forward)
  })

  it('accepts every contract event and refuses any other name', () => {
    for (const event of EVENT_NAMES) api.on(event, () => undefined)
    expect(electron.on).toHaveBeenCalledTimes(EVENT_NAMES.length)
    expect(() => api.on('ipc-message' as never, () => undefined)).toThrow(/no event called/)
  })
})
