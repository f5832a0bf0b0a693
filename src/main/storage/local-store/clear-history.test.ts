// Deleting the history kept on this device gives its space back: the file on disk shrinks, and what
// it said is found in none of the store's files afterwards, even before encryption is considered.
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, it, vi } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Message } from '@shared/messages'
import type { LocalStore } from '../../core/ports'
import { FileLocalStores } from './local-stores'
import { PLAIN_FILE } from './store-keys'

const GROUP = '7001' as ConversationId
const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }

function message(id: number): Message {
  return {
    id: String(id),
    conversationId: GROUP,
    sourceGuid: `guid-${id}`,
    senderId: '42',
    senderName: 'Ada',
    senderAvatarUrl: null,
    text: `message ${id} `.repeat(20),
    attachments: [],
    createdAt: 1_700_000_000 + id,
    system: false,
    aboutUserIds: [],
    deleted: false
  }
}

let directory: string
let store: LocalStore

beforeEach(async () => {
  directory = join(mkdtempSync(join(tmpdir(), 'parley-clear-')), 'store')
  store = (await new FileLocalStores({ directory, sealing: PLAIN_FILE, log }).open('42')).store
})

afterEach(async () => {
  await store.close()
  rmSync(join(directory, '..'), { recursive: true, force: true })
})

const bytesOnDisk = (): number => readdirSync(directory).reduce((sum, name) => sum + statSync(join(directory, name)).size, 0)

it('gives the space of the history back to the disk, and keeps working after', async () => {
  const messages = Array.from({ length: 2000 }, (_, n) => message(n + 1))
  await store.keepRun(GROUP, messages, { after: null, before: null, reachesStart: true })
  const before = (await store.usage()).bytes
  expect(before).toBeGreaterThan(500_000)

  await store.clearHistory()
  const after = await store.usage()
  expect(after.messages).toBe(0)
  expect(after.bytes).toBeLessThan(before / 10)
  expect(bytesOnDisk()).toBeLessThan(before / 10)

  await store.keepRun(GROUP, [message(5000)], { after: null, before: null, reachesStart: false })
  expect(await store.messageCount(GROUP)).toBe(1)
})
