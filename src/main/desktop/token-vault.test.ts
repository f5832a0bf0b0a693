import { describe, expect, it, vi } from 'vitest'
import type { Log } from '../log/log'
import type { KeyValueStore } from '../storage/stored-preferences'
import { issuedToken, issuerAt } from '../../../tests/support/memory-platform'
import { SafeStorageTokenVault, type Encryption } from './token-vault'

const secret = issuedToken('secret-token', issuerAt('https://chat.example'))

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
  it('stores the token and its issuer encrypted as one, and reads them back in a later launch', async () => {
    const store = memoryStore()
    await new SafeStorageTokenVault({ store, encryption: fakeEncryption(), log: fakeLog() }).save(secret)
    const stored = store.data.get('session')
    expect(typeof stored).toBe('string')
    expect(Buffer.from(stored as string, 'base64').toString()).not.toContain('secret-token')
    expect(Buffer.from(stored as string, 'base64').toString()).not.toContain('chat.example')

    const nextLaunch = new SafeStorageTokenVault({ store, encryption: fakeEncryption(), log: fakeLog() })
    expect(await nextLaunch.load()).toEqual(secret)
  })

  it('forgets a token kept without its issuer by an older version', async () => {
    const store = memoryStore()
    store.data.set('accessToken', fakeEncryption().encryptString('secret-token').toString('base64'))
    const log = fakeLog()
    expect(await new SafeStorageTokenVault({ store, encryption: fakeEncryption(), log }).load()).toBeNull()
    expect(store.data.size).toBe(0)
    expect(log.warn).toHaveBeenCalled()
  })

  it('clears the token from memory and disk', async () => {
    const store = memoryStore()
    const vault = new SafeStorageTokenVault({ store, encryption: fakeEncryption(), log: fakeLog() })
    await vault.save(secret)
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
    await vault.save(secret)
    await vault.save(issuedToken('newer-token'))
    expect(store.data.size).toBe(0)
    expect(await vault.load()).toEqual(issuedToken('newer-token'))
    expect(log.warn).toHaveBeenCalledTimes(1)
    expect(log.warn.mock.calls[0]?.[0]).toMatch(/memory only/)
  })

  it('uses a real keyring backend on Linux', async () => {
    const store = memoryStore()
    await new SafeStorageTokenVault({ store, encryption: fakeEncryption({ backend: 'gnome_libsecret' }), log: fakeLog() }).save(secret)
    expect(store.data.has('session')).toBe(true)
  })

  it('forgets a saved token it cannot decrypt', async () => {
    const store = memoryStore()
    store.data.set('session', Buffer.from('from another keychain').toString('base64'))
    const log = fakeLog()
    const vault = new SafeStorageTokenVault({ store, encryption: fakeEncryption(), log })
    expect(await vault.load()).toBeNull()
    expect(store.data.has('session')).toBe(false)
    expect(log.warn).toHaveBeenCalled()
  })
})
