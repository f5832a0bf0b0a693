import { describe, expect, it, vi } from 'vitest'
import { StoredPreferences, type KeyValueStore } from './preferences'

function memoryStore(initial: Record<string, unknown> = {}): KeyValueStore {
  const data = new Map(Object.entries(initial))
  return { get: (key) => data.get(key), set: (key, value) => void data.set(key, value), delete: (key) => void data.delete(key) }
}

describe('StoredPreferences', () => {
  it('reads back what it wrote', () => {
    const preferences = new StoredPreferences(memoryStore(), { info: vi.fn(), warn: vi.fn(), error: vi.fn() })
    expect(preferences.get('deviceId')).toBeUndefined()
    preferences.set('deviceId', 'device-1')
    preferences.set('lastRead', { general: '42' })
    expect(preferences.get('deviceId')).toBe('device-1')
    expect(preferences.get('lastRead')).toEqual({ general: '42' })
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
})
