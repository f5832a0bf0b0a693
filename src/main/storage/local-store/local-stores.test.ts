import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Message, PendingMessage } from '@shared/messages'
import type { LocalStore, OpenedStore } from '../../core/ports'
import { FileLocalStores, SET_ASIDE_NOTICE, setAsideNotice } from './local-stores'
import { PLAIN_FILE, type KeySealing } from './store-keys'

const GROUP = '7001' as ConversationId
const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
const UNIQUE_TEXT = 'the otter sleeps at the quarry 4f1c'

function message(id: string, text = `message ${id}`): Message {
  return {
    id,
    conversationId: GROUP,
    sourceGuid: `guid-${id}`,
    senderId: '42',
    senderName: 'Ada',
    senderAvatarUrl: null,
    text,
    attachments: [],
    createdAt: 1_700_000_000 + Number(id),
    system: false,
    aboutUserIds: [],
    deleted: false
  }
}

function pending(clientId: string): PendingMessage {
  return { clientId, conversationId: GROUP, text: `unsent ${clientId}`, queuedAt: 1, state: 'failed', error: 'Not sent' }
}

let directory: string
let stores: FileLocalStores
const opened: LocalStore[] = []

async function open(accountId = '42', sealing: KeySealing = PLAIN_FILE): Promise<OpenedStore> {
  stores = new FileLocalStores({ directory, sealing, log, now: () => 1234 })
  const result = await stores.open(accountId)
  opened.push(result.store)
  return result
}

beforeEach(() => {
  directory = join(mkdtempSync(join(tmpdir(), 'parley-store-')), 'store')
})

afterEach(async () => {
  for (const store of opened.splice(0)) await store.close()
  rmSync(join(directory, '..'), { recursive: true, force: true })
})

describe('a store on disk', () => {
  it('keeps what it was given across a reopening, and no file of it holds a message in readable form', async () => {
    const { store } = await open()
    await store.keepRun(GROUP, [message('1'), message('2', UNIQUE_TEXT)], { after: null, before: null, reachesStart: true })
    await store.keepOutbox([pending('a')])
    await store.close()

    expect(await stores.has('42')).toBe(true)
    expect(await stores.has('77')).toBe(false)
    const { store: again, setAside } = await open()
    expect(setAside).toBeNull()
    expect((await again.newest(GROUP, 10))?.messages.map((m) => m.text)).toEqual(['message 1', UNIQUE_TEXT])
    expect(await again.outbox()).toEqual([pending('a')])
    await again.close()
    expect(readdirSync(directory)).toContain('42.unsent')
    for (const name of readdirSync(directory).filter((entry) => statSync(join(directory, entry)).isFile())) {
      const bytes = readFileSync(join(directory, name))
      expect(bytes.includes(Buffer.from('otter sleeps')), name).toBe(false)
      expect(bytes.includes(Buffer.from('unsent a')), name).toBe(false)
    }
  })

  it('keeps the draft of each conversation across a reopening, in its worker thread, and no file of it holds one in readable form', async () => {
    const { store } = await open()
    const picture = { id: 'b7d1c3c2-5c5e-4c53-9d43-1f0e4c1d2a10', name: 'quarry.png', contentType: 'image/png' as const, url: 'https://i.example/quarry.png' }
    await store.keepDraft({ conversationId: GROUP, text: 'first thought', pictures: [], savedAt: 1 })
    await store.keepDraft({ conversationId: GROUP, text: UNIQUE_TEXT, pictures: [picture], savedAt: 2 })
    await store.keepDraft({ conversationId: '7002' as ConversationId, text: 'to be sent', pictures: [], savedAt: 3 })
    await store.forgetDraft('7002' as ConversationId)
    await store.close()

    const { store: again } = await open()
    expect(await again.drafts()).toEqual([{ conversationId: GROUP, text: UNIQUE_TEXT, pictures: [picture], savedAt: 2 }])
    await again.close()
    for (const name of readdirSync(directory).filter((entry) => statSync(join(directory, entry)).isFile())) {
      const bytes = readFileSync(join(directory, name))
      expect(bytes.includes(Buffer.from('otter sleeps')), name).toBe(false)
      expect(bytes.includes(Buffer.from('quarry.png')), name).toBe(false)
    }
  })

  it('keeps beside the database how many messages wait unsent, as a number and nothing more', async () => {
    const { store } = await open()
    await store.keepOutbox([pending('a'), pending('b')])
    expect(readFileSync(join(directory, '42.unsent'), 'utf8')).toBe('2\n')
    await store.keepOutbox([pending('b')])
    expect(readFileSync(join(directory, '42.unsent'), 'utf8')).toBe('1\n')
    await store.keepOutbox([])
    expect(readFileSync(join(directory, '42.unsent'), 'utf8')).toBe('0\n')
  })

  it('keeps its key sealed as the platform seals it', async () => {
    const sealing: KeySealing = {
      available: () => true,
      seal: (key) => Buffer.from(`sealed:${key}`.split('').reverse().join('')),
      unseal: (sealed) => sealed.toString().split('').reverse().join('').replace(/^sealed:/, '')
    }
    const { store } = await open('42', sealing)
    await store.keepMessages([message('1')])
    await store.close()
    expect(readFileSync(join(directory, '42.key'), 'utf8')).toMatch(/:delaes$/)
    expect((await open('42', sealing)).setAside).toBeNull()
  })

  it('sets aside a store whose key the platform can no longer unseal, and starts an empty one', async () => {
    const { store } = await open()
    await store.keepRun(GROUP, [message('1')], { after: null, before: null, reachesStart: true })
    await store.close()
    const otherKeychain: KeySealing = { available: () => true, seal: (key) => Buffer.from(key), unseal: () => 'not a key' }

    const { store: fresh, setAside } = await open('42', otherKeychain)
    expect(setAside).toBe(SET_ASIDE_NOTICE)
    expect(await fresh.newest(GROUP, 10)).toBeNull()
    expect(readdirSync(directory).filter((name) => name.includes('set-aside-1234'))).toEqual(expect.arrayContaining(['42.db.set-aside-1234']))
  })

  it('sets aside a database that is not one, keeping nothing of it but the file', async () => {
    const { store } = await open()
    await store.close()
    writeFileSync(join(directory, '42.db'), 'this is not a database at all'.repeat(200))

    const { store: fresh, setAside } = await open()
    expect(setAside).toBe(SET_ASIDE_NOTICE)
    await fresh.keepMessages([message('5')])
    expect(readFileSync(join(directory, '42.db.set-aside-1234'), 'utf8')).toContain('not a database')
  })

  it('names in its notice the unsent messages a store that cannot be read took with it, and no more after', async () => {
    const { store } = await open()
    await store.keepOutbox([pending('a'), pending('b')])
    await store.close()
    writeFileSync(join(directory, '42.db'), 'this is not a database at all'.repeat(200))

    const { store: fresh, setAside } = await open()
    expect(setAside).toBe(`${SET_ASIDE_NOTICE} 2 messages you wrote had not been sent and could not be recovered.`)
    expect(await fresh.outbox()).toEqual([])
    await fresh.close()
    expect((await open()).setAside).toBeNull()
    expect(readFileSync(join(directory, '42.db.set-aside-1234'), 'utf8')).toContain('not a database')
  })

  it('names the one unsent message a store whose key is lost took with it', async () => {
    const { store } = await open()
    await store.keepOutbox([pending('a')])
    await store.close()
    writeFileSync(join(directory, '42.key'), 'not a key')

    expect((await open()).setAside).toBe(`${SET_ASIDE_NOTICE} 1 message you wrote had not been sent and could not be recovered.`)
  })

  it('says unsent messages may have been lost when it cannot tell how many waited', async () => {
    await (await open()).store.close()
    writeFileSync(join(directory, '42.db'), 'this is not a database at all'.repeat(200))
    writeFileSync(join(directory, '42.unsent'), 'garbled')

    expect((await open()).setAside).toBe(`${SET_ASIDE_NOTICE} Messages you wrote that had not been sent yet, if there were any, could not be recovered.`)
  })

  it('words the notice for none, one, some or an unknown number of messages lost', () => {
    expect(setAsideNotice(0)).toBe(SET_ASIDE_NOTICE)
    expect(setAsideNotice(1)).toMatch(/ 1 message you wrote had not been sent and could not be recovered\.$/)
    expect(setAsideNotice(3)).toMatch(/ 3 messages you wrote had not been sent and could not be recovered\.$/)
    expect(setAsideNotice('unknown')).toMatch(/if there were any, could not be recovered\.$/)
  })

  it('opens a database with a byte flipped in a page of messages, then its check finds it; replaced, its outbox goes to the new one', async () => {
    const { store } = await open()
    await store.keepOutbox([pending('a'), pending('b')])
    const many = Array.from({ length: 400 }, (_, index) => message(String(index + 1), `message ${index + 1} ${'words '.repeat(20)}`))
    await store.keepRun(GROUP, many, { after: null, before: null, reachesStart: true })
    await store.close()
    const bytes = readFileSync(join(directory, '42.db'))
    expect(bytes.length).toBeGreaterThan(16 * 4096)
    flipByte(bytes, bytes.length - 4096 - 100)
    writeFileSync(join(directory, '42.db'), bytes)

    // The start does not wait for the whole file to be read: the store opens and serves.
    const { store: damaged, setAside: toldAtOpening, check } = await open()
    expect(toldAtOpening).toBeNull()
    expect(await damaged.outbox()).toEqual([pending('a'), pending('b')])
    expect(await check?.()).toBe('damaged')

    const { store: fresh, setAside } = await stores.replaceDamaged('42', damaged)
    opened.push(fresh)
    // Every message that waited was read back, so none is named as lost.
    expect(setAside).toBe(SET_ASIDE_NOTICE)
    expect(await fresh.outbox()).toEqual([pending('a'), pending('b')])
    expect(readFileSync(join(directory, '42.unsent'), 'utf8')).toBe('2\n')
    expect(await fresh.newest(GROUP, 10)).toBeNull()
    expect(readdirSync(directory)).toEqual(expect.arrayContaining(['42.db.set-aside-1234', '42.key.set-aside-1234']))
    // The damaged store is closed: what is asked of it now fails, and says so.
    await expect(damaged.outbox()).rejects.toThrow(/closed/)
  })

  it('finds a whole store whole, and checks none it has just made', async () => {
    const first = await open()
    expect(first.check).toBeUndefined()
    await first.store.keepMessages([message('1')])
    await first.store.close()
    expect(await (await open()).check?.()).toBe('whole')
  })

  it('names in its notice the unsent messages a damaged store took with it, where even its outbox cannot be read', async () => {
    const { store } = await open()
    await store.keepOutbox([pending('a'), pending('b'), pending('c')])
    await store.close()
    const { store: damaged } = await open()
    const unreadable = { ...damaged, outbox: () => Promise.reject(Object.assign(new Error('database disk image is malformed'), { code: 'SQLITE_CORRUPT' })), close: () => damaged.close() }

    const { store: fresh, setAside } = await stores.replaceDamaged('42', unreadable)
    opened.push(fresh)
    expect(setAside).toBe(`${SET_ASIDE_NOTICE} 3 messages you wrote had not been sent and could not be recovered.`)
    expect(await fresh.outbox()).toEqual([])
  })

  it('keeps SQLite\'s own error and code across the thread', async () => {
    const { store } = await open()
    await store.close()
    writeFileSync(join(directory, '42.db'), 'this is not a database at all'.repeat(200))
    const { store: fresh, setAside } = await open()
    expect(setAside).toBe(SET_ASIDE_NOTICE)
    expect(log.warn).toHaveBeenCalledWith('could not open the local store of 42; setting it aside', expect.objectContaining({ name: 'SqliteError', code: 'SQLITE_NOTADB' }))
    await fresh.close()
  })

  it('keeps stores in memory only where no key can be protected', async () => {
    const { store } = await open('42', { ...PLAIN_FILE, available: () => false })
    await store.keepMessages([message('1')])
    expect(readdirSync(join(directory, '..'))).toEqual([])
    expect(await stores.has('42')).toBe(false)
  })

  it('removes an account\'s store, key and anything set aside, and nobody else\'s', async () => {
    const { store } = await open('42')
    await store.keepOutbox([pending('a')])
    await store.close()
    await (await open('77')).store.close()
    expect(readdirSync(directory)).toContain('42.unsent')
    await stores.remove('42')
    expect(readdirSync(directory).filter((name) => name.startsWith('42.'))).toEqual([])
    expect(await stores.has('42')).toBe(false)
    expect(readdirSync(directory)).toEqual(expect.arrayContaining(['77.db', '77.key']))
  })

  it('keeps the account\'s pictures beside its store, and removes them with it', async () => {
    const url = 'https://i.example.test/quarry.png'
    const png = { contentType: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]) }
    const { store } = await open('42')
    expect(await store.pictures.keep(url, png, 1)).toBe(true)
    await store.close()
    const { store: again } = await open('42')
    expect(await again.pictures.read(url)).toEqual(png)
    await again.close()

    await stores.remove('42')
    expect(existsSync(join(directory, '42.pictures'))).toBe(false)
  })

  it('lets go of the pictures of a store it had to set aside: their key is the old store\'s', async () => {
    const url = 'https://i.example.test/quarry.png'
    const { store } = await open('42')
    await store.pictures.keep(url, { contentType: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47]) }, 1)
    await store.close()
    writeFileSync(join(directory, '42.db'), 'this is not a database at all'.repeat(200))

    const { store: fresh, setAside } = await open('42')
    expect(setAside).toBe(SET_ASIDE_NOTICE)
    expect(fresh.pictures.usage().pictures).toBe(0)
    expect(readdirSync(join(directory, '42.pictures'))).toEqual([])
  })

  it('refuses an account id that could name a file elsewhere', async () => {
    await expect(open('../42')).rejects.toThrow(/account id/)
  })
})

function flipByte(bytes: Buffer, at: number): void {
  bytes.writeUInt8(bytes.readUInt8(at) ^ 0x5a, at)
}
