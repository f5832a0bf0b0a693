import { describe, expect, it, vi } from 'vitest'
import type { Log } from '../log/log'
import type { KeyValueStore } from '../core/stored-preferences'
import { SafeStorageTokenVault, type Encryption } from './token-vault'

function memoryStore(): KeyValueStore & { data: Map<string, unknown> } {
  const data = new Map<string, unknown>()
  return { data, get: (key) => data.get(key), set: (key, value) => void data.set(key, value), delete: (key) => void data.delete(key) }
}

function fakeEncryption(options: { available?: boolean; backend?: string } = {}): Encryption {
  return {
    isEncryptionAvailable: () => options.available ?? true,
    encryptString: (text) => Buffer.from(`sealed:${[...text].reverse().join('')}`),
    decryptString: (buffer) => {
      const text = buffer.toString()
      if (!text.startsWith('sealed:')) throw new Error('Error while decrypting the ciphertext provided to safeStorage.decryptString.')
      return [...text.slice('sealed:'.length)].reverse().join('')
    },
    ...(options.backend === undefined ? {} : { getSelectedStorageBackend: () => options.backend as string })
  }
}

function fakeLog() {
  return { info: vi.fn(), warn: vi.fn<Log['warn']>(), error: vi.fn() } satisfies Log
}

describe('SafeStorageTokenVault', () => {
  it('stores the token encrypted and reads it back in a later launch', async () => {
    const store = memoryStore()
    await new SafeStorageTokenVault({ store, encryption: fakeEncryption(), log: fakeLog() }).save('secret-token')
    const stored = store.data.get('accessToken')
    expect(typeof stored).toBe('string')
    expect(Buffer.from(stored as string, 'base64').toString()).not.toContain('secret-token')

    const nextLaunch = new SafeStorageTokenVault({ store, encryption: fakeEncryption(), log: fakeLog() })
    expect(await nextLaunch.load()).toBe('secret-token')
  })

  it('clears the token from memory and disk', async () => {
    const store = memoryStore()
    const vault = new SafeStorageTokenVault({ store, encryption: fakeEncryption(), log: fakeLog() })
    await vault.save('secret-token')
    await vault.clear()
    expect(await vault.load()).toBeNull()
    expect(store.data.size).toBe(0)
  })

  it.each([
    ['no encryption at all', { available: false }],
    ["Linux's basic_text fallback", { available: true, backend: 'basic_text' }]
  ])('keeps the token in memory only with %s, and says why once', async (_name, encryption) => {
    const store = memoryStore()
    const log = fakeLog()
    const vault = new SafeStorageTokenVault({ store, encryption: fakeEncryption(encryption), log })
    await vault.save('secret-token')
    await vault.save('newer-token')
    expect(store.data.size).toBe(0)
    expect(await vault.load()).toBe('newer-token')
    expect(log.warn).toHaveBeenCalledTimes(1)
    expect(log.warn.mock.calls[0]?.[0]).toMatch(/memory only/)
  })

  it('uses a real keyring backend on Linux', async () => {
    const store = memoryStore()
    await new SafeStorageTokenVault({ store, encryption: fakeEncryption({ backend: 'gnome_libsecret' }), log: fakeLog() }).save('t')
    expect(store.data.has('accessToken')).toBe(true)
  })

  it('forgets a saved token it cannot decrypt', async () => {
    const store = memoryStore()
    store.data.set('accessToken', Buffer.from('from another keychain').toString('base64'))
    const log = fakeLog()
    const vault = new SafeStorageTokenVault({ store, encryption: fakeEncryption(), log })
    expect(await vault.load()).toBeNull()
    expect(store.data.has('accessToken')).toBe(false)
    expect(log.warn).toHaveBeenCalled()
  })
})
