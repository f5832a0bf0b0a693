import { mkdtemp, readFile, readdir, rm, stat, writeFile, chmod } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { StoredPreferences } from './stored-preferences'
import { ensurePrivateDirectory } from './data-dir'
import { FileTokenVault, TOKEN_FILE_NAME } from './file-token-vault'
import { JsonFileStore } from './json-file-store'
import { issuedToken, issuerAt } from '../../../tests/support/memory-platform'

const posix = process.platform !== 'win32'
let workDir: string
const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }

beforeEach(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'parley-files-'))
  log.warn.mockClear()
})

afterEach(async () => {
  await rm(workDir, { recursive: true, force: true })
})

const modeOf = async (path: string) => (await stat(path)).mode & 0o777

describe('FileTokenVault', () => {
  const secret = issuedToken('secret-token', issuerAt('https://chat.example'))

  it('keeps the token with its issuer in a file only the user can read, in a directory only the user can enter', async () => {
    const dataDir = join(workDir, 'data')
    const vault = new FileTokenVault(dataDir, log)
    expect(await vault.load()).toBeNull()
    await vault.save(secret)
    expect(JSON.parse(await readFile(join(dataDir, TOKEN_FILE_NAME), 'utf8'))).toEqual(secret)
    if (posix) {
      expect(await modeOf(join(dataDir, TOKEN_FILE_NAME))).toBe(0o600)
      expect(await modeOf(dataDir)).toBe(0o700)
    }
    expect(await new FileTokenVault(dataDir, log).load()).toEqual(secret)
  })

  it('replaces the token whole and leaves no temporary files', async () => {
    const vault = new FileTokenVault(workDir, log)
    await vault.save(issuedToken('first'))
    await vault.save(issuedToken('second'))
    expect(await vault.load()).toEqual(issuedToken('second'))
    expect(await readdir(workDir)).toEqual([TOKEN_FILE_NAME])
  })

  it('forgets a bare token kept by an older version, which says nothing of where it may go', async () => {
    await writeFile(join(workDir, TOKEN_FILE_NAME), 'secret-token', { mode: 0o600 })
    expect(await new FileTokenVault(workDir, log).load()).toBeNull()
    expect(await readdir(workDir)).toEqual([])
    expect(log.warn).toHaveBeenCalled()
  })

  it('clears the token', async () => {
    const vault = new FileTokenVault(workDir, log)
    await vault.save(secret)
    await vault.clear()
    await vault.clear()
    expect(await vault.load()).toBeNull()
  })

  it.runIf(posix)('tightens a token file others could read', async () => {
    await writeFile(join(workDir, TOKEN_FILE_NAME), JSON.stringify(secret), { mode: 0o644 })
    await chmod(join(workDir, TOKEN_FILE_NAME), 0o644)
    expect(await new FileTokenVault(workDir, log).load()).toEqual(secret)
    expect(await modeOf(join(workDir, TOKEN_FILE_NAME))).toBe(0o600)
    expect(log.warn).toHaveBeenCalled()
  })
})

describe('ensurePrivateDirectory', () => {
  it.runIf(posix)('tightens an existing directory others could enter', async () => {
    await chmod(workDir, 0o755)
    ensurePrivateDirectory(workDir)
    expect(await modeOf(workDir)).toBe(0o700)
  })
})

describe('JsonFileStore', () => {
  it('persists preferences as JSON, written whole', async () => {
    const file = join(workDir, 'settings.json')
    const preferences = new StoredPreferences(new JsonFileStore(file, log), log)
    preferences.set('deviceId', 'device-1')
    preferences.set('lastRead', { '1': { general: '7' } })
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({ deviceId: 'device-1', lastRead: { '1': { general: '7' } } })
    expect(await readdir(workDir)).toEqual(['settings.json'])
    if (posix) expect(await modeOf(file)).toBe(0o600)

    const reopened = new StoredPreferences(new JsonFileStore(file, log), log)
    expect(reopened.get('lastRead')).toEqual({ '1': { general: '7' } })
  })

  it('deletes keys', async () => {
    const file = join(workDir, 'settings.json')
    const store = new JsonFileStore(file, log)
    store.set('a', 1)
    store.delete('a')
    expect(JSON.parse(await readFile(file, 'utf8'))).toEqual({})
  })

  it('starts afresh from an unreadable file and keeps it aside', async () => {
    const file = join(workDir, 'settings.json')
    await writeFile(file, '{ not json')
    const store = new JsonFileStore(file, log)
    expect(store.get('deviceId')).toBeUndefined()
    expect(log.warn).toHaveBeenCalled()
    const names = await readdir(workDir)
    expect(names.some((name) => name.startsWith('settings.json.unreadable-'))).toBe(true)
  })
})
