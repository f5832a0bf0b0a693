import { describe, expect, it, vi } from 'vitest'
import { StoredPreferences, type KeyValueStore } from './stored-preferences'

function memoryStore(initial: Record<string, unknown> = {}): KeyValueStore {
  const data = new Map(Object.entries(initial))
  return { get: (key) => data.get(key), set: (key, value) => void data.set(key, value), delete: (key) => void data.delete(key) }
}

describe('StoredPreferences', () => {
  it('reads back what it wrote', () => {
    const preferences = new StoredPreferences(memoryStore(), { info: vi.fn(), warn: vi.fn(), error: vi.fn() })
    expect(preferences.get('deviceId')).toBeUndefined()
    preferences.set('deviceId', 'device-1')
    preferences.set('lastRead', { '1': { general: '42' } })
    expect(preferences.get('deviceId')).toBe('device-1')
    expect(preferences.get('lastRead')).toEqual({ '1': { general: '42' } })
  })

  it('ignores a malformed saved value and says so', () => {
    const warn = vi.fn()
    const preferences = new StoredPreferences(memoryStore({ lastRead: ['not', 'a', 'record'], deviceId: 7 }), {
      info: vi.fn(),
      warn,
      error: vi.fn()
    })
    expect(preferences.get('lastRead')).toBeUndefined()
    expect(preferences.get('deviceId')).toBeUndefined()
    expect(warn).toHaveBeenCalledTimes(2)
  })

  it('keeps an unsent message and the signed-in account across restarts, and refuses damaged ones', () => {
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
    const store = memoryStore()
    const preferences = new StoredPreferences(store, log)
    const pending = { clientId: 'client-1', conversationId: '42', text: 'hi', queuedAt: 1, state: 'failed' as const, error: null }
    preferences.set('outbox', [pending])
    preferences.set('account', { id: '7', name: 'Ada', avatarUrl: null })
    expect(new StoredPreferences(store, log).get('outbox')).toEqual([pending])
    expect(new StoredPreferences(store, log).get('account')).toEqual({ id: '7', name: 'Ada', avatarUrl: null })

    store.set('outbox', [{ ...pending, state: 'delivered' }])
    expect(preferences.get('outbox')).toBeUndefined()
    expect(log.warn).toHaveBeenCalledWith('ignored a malformed saved preference "outbox"', expect.anything())
  })

  it('keeps what an unsent message carries across restarts', () => {
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
    const store = memoryStore()
    const pending = {
      clientId: 'client-1',
      conversationId: '42',
      text: '',
      attachments: [
        { type: 'image' as const, url: 'http://127.0.0.1:8080/image/i/0123456789abcdef' },
        { type: 'location' as const, lat: '51.5', lng: '-0.12', name: 'Crag' },
        { type: 'emoji' as const, placeholder: '?', charmap: [[1, 2]] as [number, number][] }
      ],
      queuedAt: 1,
      state: 'sending' as const,
      error: null
    }
    new StoredPreferences(store, log).set('outbox', [pending])
    expect(new StoredPreferences(store, log).get('outbox')).toEqual([pending])
  })

  it('keeps the desktop state across restarts: status, the global mute, settings, and the mutes of chats and the ends of group mutes', () => {
    const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
    const store = memoryStore()
    const preferences = new StoredPreferences(store, log)
    preferences.set('presence', 'dnd')
    preferences.set('globalMute', { until: null })
    preferences.set('settings', { sound: false })
    preferences.set('chatMutes', { '7': { '7+9': { until: 1_800_000_000_000 } } })
    preferences.set('groupMuteEnds', { '7': { '42': 1_800_000_000_000 } })

    const restarted = new StoredPreferences(store, log)
    expect(restarted.get('presence')).toBe('dnd')
    expect(restarted.get('globalMute')).toEqual({ until: null })
    expect(restarted.get('settings')).toEqual({ sound: false })
    expect(restarted.get('chatMutes')).toEqual({ '7': { '7+9': { until: 1_800_000_000_000 } } })
    expect(restarted.get('groupMuteEnds')).toEqual({ '7': { '42': 1_800_000_000_000 } })

    store.set('presence', 'busy')
    store.set('groupMuteEnds', { '7': { '42': 'tomorrow' } })
    expect(restarted.get('presence')).toBeUndefined()
    expect(restarted.get('groupMuteEnds')).toBeUndefined()
    expect(log.warn).toHaveBeenCalledTimes(2)
  })
})
