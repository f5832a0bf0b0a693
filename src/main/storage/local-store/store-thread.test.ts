import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Message, PendingMessage } from '@shared/messages'
import { loadSqliteFrom, startSpareStoreThread, StoreThread } from './store-thread'

const GROUP = '7001' as ConversationId
const KEY = 'ab'.repeat(32)

function message(id: string): Message {
  return { id, conversationId: GROUP, sourceGuid: `guid-${id}`, senderId: '42', senderName: 'Ada', senderAvatarUrl: null, text: `message ${id}`, attachments: [], createdAt: 1, system: false, aboutUserIds: [], deleted: false }
}

function pending(clientId: string): PendingMessage {
  return { clientId, conversationId: GROUP, text: `unsent ${clientId}`, queuedAt: 1, state: 'failed', error: 'Not sent' }
}

let directory: string
const threads: StoreThread[] = []

function thread(name = 'a test store'): StoreThread {
  const started = new StoreThread(name)
  threads.push(started)
  return started
}

beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'parley-store-thread-'))
})

afterEach(async () => {
  for (const started of threads.splice(0)) await started.end()
  rmSync(directory, { recursive: true, force: true })
})

describe("a store's worker thread", () => {
  it('answers requests in the order they were made, each with what the store said', async () => {
    const store = thread()
    await store.request('open', { file: join(directory, '1.db'), key: KEY })
    const answers: string[] = []
    const writes = Array.from({ length: 20 }, (_, index) =>
      store.request('call', { method: 'keepRun', args: [GROUP, [message(String(index + 1))], { after: index === 0 ? null : String(index), before: null, reachesStart: index === 0 }] }).then(() => answers.push(`kept ${index + 1}`))
    )
    const read = store.request('call', { method: 'newest', args: [GROUP, 50] }).then((history) => {
      answers.push('read')
      return history
    })
    await Promise.all(writes)
    const history = (await read) as { messages: Message[]; older: string }
    expect(answers).toEqual([...Array.from({ length: 20 }, (_, index) => `kept ${index + 1}`), 'read'])
    expect(history.messages.map((kept) => kept.id)).toEqual(Array.from({ length: 20 }, (_, index) => String(index + 1)))
    expect(history.older).toBe('none')
    // A Map crosses as a Map.
    expect(await store.request('call', { method: 'syncPoints', args: [] })).toEqual(new Map([[GROUP, '20']]))
  })

  it('keeps SQLite\'s error name and code across, as main reads them', async () => {
    const file = join(directory, '1.db')
    const made = thread()
    await made.request('open', { file, key: KEY })
    await made.close()
    // The "disk" is full once the database has the pages its schema takes (see local-stores.ts).
    const store = thread()
    await store.request('open', { file, key: KEY, maxPages: statSync(file).size / 4096 })
    const failed = store.request('call', { method: 'keepMessages', args: [Array.from({ length: 50 }, (_, index) => ({ ...message(String(index + 1)), text: 'x'.repeat(2_000) }))] })
    await expect(failed).rejects.toMatchObject({ name: 'SqliteError', code: 'SQLITE_FULL' })
    // The thread goes on after a failed request.
    expect(await store.request('call', { method: 'messageCount', args: [GROUP] })).toBe(0)
  })

  it('writes the unsent count in the same turn as the outbox, before the commit when it grows', async () => {
    const store = thread()
    const unsentPath = join(directory, '1.unsent')
    await store.request('open', { file: join(directory, '1.db'), key: KEY, unsentPath })
    await store.request('call', { method: 'keepOutbox', args: [[pending('a'), pending('b')]] })
    expect(readFileSync(unsentPath, 'utf8')).toBe('2\n')
    await store.request('call', { method: 'keepOutbox', args: [[pending('b')]] })
    expect(readFileSync(unsentPath, 'utf8')).toBe('1\n')
  })

  it('closes once every request made before is done, and ends', async () => {
    const store = thread()
    const file = join(directory, '1.db')
    await store.request('open', { file, key: KEY })
    const writes = Array.from({ length: 30 }, (_, index) => store.request('call', { method: 'keepMessages', args: [[message(String(index + 1))]] }))
    await store.close()
    // Every write was answered before the close was.
    expect(await Promise.all(writes)).toHaveLength(30)
    await expect(store.request('call', { method: 'outbox', args: [] })).rejects.toThrow(/a test store is closed/)

    const again = thread()
    await again.request('open', { file, key: KEY })
    expect(await again.request('call', { method: 'messageCount', args: [GROUP] })).toBe(30)
  })

  it('that dies fails every request waiting on it, and every one after, saying so, rather than leaving them to hang', async () => {
    const store = thread('the local store of 42')
    await store.request('open', { file: join(directory, '1.db'), key: KEY })
    const waiting = Array.from({ length: 5 }, (_, index) => store.request('call', { method: 'keepMessages', args: [[message(String(index + 1))]] }).then(() => 'answered', (error: Error) => error.message))
    await store.end()
    const outcomes = await Promise.all(waiting)
    // Some may have been answered before it died; the rest fail, none hangs.
    expect(outcomes.filter((outcome) => outcome !== 'answered').every((outcome) => /the worker thread of the local store of 42 stopped/.test(outcome))).toBe(true)
    await expect(store.request('call', { method: 'outbox', args: [] })).rejects.toThrow(/the worker thread of the local store of 42 stopped/)
  })

  it('that dies in the middle of a request fails it', async () => {
    const dying = new StoreThread('a thread that dies', { script: "require('node:worker_threads').parentPort.on('message', () => process.exit(7))", eval: true })
    threads.push(dying)
    await expect(dying.request('call', { method: 'outbox', args: [] })).rejects.toThrow('the worker thread of a thread that dies stopped (exit code 7)')
  })
})

describe('the SQLite a thread loads', () => {
  afterEach(() => loadSqliteFrom(null))

  it('is the addon main names, when it names one (the Electron window of npm start loads its own build)', async () => {
    const addon = createRequire(import.meta.url).resolve('better-sqlite3-multiple-ciphers/build/Release/better_sqlite3.node')
    loadSqliteFrom(addon)
    const store = thread()
    await store.request('open', { file: join(directory, 'named.db'), key: KEY })
    expect(await store.request('call', { method: 'messageCount', args: [GROUP] })).toBe(0)
  })

  it('says the store cannot open when the addon named is not there, and nothing else is tried', async () => {
    loadSqliteFrom(join(directory, 'no-such-addon.node'))
    const store = thread()
    await expect(store.request('open', { file: join(directory, 'never.db'), key: KEY })).rejects.toThrow(/no-such-addon/)
  })
})

describe('a spare thread, started before any store asks for one', () => {
  it('is the thread the next store opens in, and that store only', async () => {
    const spareId = startSpareStoreThread().threadId
    const first = thread('the local store of 1')
    const second = thread('the local store of 2')
    expect(first.threadId).toBe(spareId)
    expect(second.threadId).not.toBe(spareId)
    await first.request('open', { file: join(directory, '1.db'), key: KEY })
    await first.request('call', { method: 'keepRun', args: [GROUP, [message('1')], { after: null, before: null, reachesStart: true }] })
    expect(((await first.request('call', { method: 'newest', args: [GROUP, 50] })) as { messages: Message[] }).messages.map((kept) => kept.id)).toEqual(['1'])
  })

  it('is passed over once it has ended, the store opening in a thread of its own', async () => {
    const spare = startSpareStoreThread({ script: 'process.exit(3)', eval: true })
    const spareId = spare.threadId
    await spare.exited
    const store = thread()
    expect(store.threadId).not.toBe(spareId)
    await store.request('open', { file: join(directory, '1.db'), key: KEY })
    expect(await store.request('call', { method: 'syncPoints', args: [] })).toEqual(new Map())
  })
})
