// Core's search (message-search.ts) over a real store: how the query's names become conversations and people, and what is said of what was searched.
import Sqlite from 'better-sqlite3-multiple-ciphers'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import type { HistoryDownload } from '@shared/storage'
import { migrate } from '../../src/main/storage/local-store/migrations'
import { SqliteStore } from '../../src/main/storage/local-store/sqlite-store'
import { MessageSearch } from '../../src/main/core/message-search'
import type { LocalStore } from '../../src/main/core/ports'

const ME = { id: '42', name: 'Ada', email: null, phoneNumber: null, avatarUrl: null } as const
const BASE_TIME = 1_700_000_000

function conversation(id: string, name: string): Conversation {
  return { id, kind: 'group', name, avatarUrl: null, lastActivityAt: BASE_TIME, lastMessageId: null, preview: null, unreadCount: 0, mute: null }
}

function message(id: string, conversationId: string, text: string, senderId = '43', createdAt = BASE_TIME): Message {
  return {
    id,
    conversationId,
    sourceGuid: `g${id}`,
    senderId,
    senderName: senderId === ME.id ? 'Ada' : 'Grace',
    senderAvatarUrl: null,
    text,
    attachments: [],
    createdAt,
    system: false,
    aboutUserIds: [],
    deleted: false
  }
}

let store: LocalStore
let download: HistoryDownload
let signedIn: boolean
let search: MessageSearch
const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }

beforeEach(async () => {
  const db = new Sqlite(':memory:')
  migrate(db)
  store = new SqliteStore(db, null)
  download = { state: 'downloading', conversationsDone: 0, conversations: 2, current: null }
  signedIn = true
  search = new MessageSearch({
    store: () => store,
    me: () => (signedIn ? (ME as never) : null),
    conversations: () => [conversation('1', 'Weekend Hikers'), conversation('2', 'Família')],
    download: async () => download,
    log,
    // Days begin at midnight UTC here, whatever the machine's zone.
    dayStart: (date) => utcDayStart(date)
  })
  await store.keepRun('1', [message('10', '1', 'summit at dawn', '43', Date.parse('2024-05-01T09:00:00Z') / 1000), message('11', '1', 'summit photos soon', '42', Date.parse('2024-05-02T09:00:00Z') / 1000)], {
    after: null,
    before: null,
    reachesStart: true
  })
  await store.keepMessages([message('20', '2', 'summit dinner', '43', Date.parse('2024-06-01T09:00:00Z') / 1000)])
})

afterEach(async () => {
  await store.close()
})

const ids = async (query: string, conversationId?: string): Promise<string[]> => (await search.search({ query, conversationId })).hits.map((hit) => hit.messageId)

describe('searching kept messages', () => {
  it('reads the query and its filters, newest first', async () => {
    expect(await ids('summit')).toEqual(['20', '11', '10'])
    expect(await ids('summit in:hikers')).toEqual(['11', '10'])
    expect(await ids('summit in:familia')).toEqual(['20'])
    expect(await ids('summit from:me')).toEqual(['11'])
    expect(await ids('summit from:grace')).toEqual(['20', '10'])
    expect(await ids('summit before:2024-05-02')).toEqual(['10'])
    expect(await ids('summit after:2024-05-02')).toEqual(['20', '11'])
    expect(await ids('summit', '2')).toEqual(['20'])
    expect(await ids('summit in:hikers', '2')).toEqual([])
  })

  it('says what was searched and how the query was read', async () => {
    const result = await search.search({ query: 'summit in:nowhere before:soon' })
    expect(result).toMatchObject({ hits: [], next: null, searched: true })
    expect(result.notes.map((note) => note.kind)).toEqual(['badDate', 'noSuchConversation'])
    expect(result.scope).toEqual({ messages: 3, oldestAt: Date.parse('2024-05-01T09:00:00Z') / 1000, history: 'downloading', conversationsPartial: 1 })
    download = { ...download, state: 'off' }
    expect((await search.search({ query: '' })).scope.history).toBe('off')
    expect(await search.search({ query: '  ' })).toMatchObject({ searched: false, hits: [] })
  })

  it('says history is complete once every conversation is kept from its start', async () => {
    await store.keepRun('2', [message('20', '2', 'summit dinner', '43', BASE_TIME)], { after: null, before: null, reachesStart: true })
    download = { ...download, state: 'done' }
    expect((await search.search({ query: 'x' })).scope).toMatchObject({ history: 'complete', conversationsPartial: 0 })
  })

  it('asks for a sign-in first, and says when nothing is kept', async () => {
    signedIn = false
    await expect(search.search({ query: 'summit' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    signedIn = true
    const none = new MessageSearch({ store: () => null, me: () => ME as never, conversations: () => [], download: async () => download, log })
    expect(await none.search({ query: 'summit' })).toMatchObject({ hits: [], searched: false, notes: [{ kind: 'nothingKept' }] })
  })
})

/** Unix seconds at midnight UTC of a YYYY-MM-DD. */
function utcDayStart(date: string): number {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number)
  return Date.UTC(year, month - 1, day) / 1000
}
