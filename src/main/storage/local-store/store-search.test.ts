import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Attachment, Message } from '@shared/messages'
import type { Poll } from '@shared/polls'
import type { SearchHit } from '@shared/search'
import type { LocalStore, StoreSearch } from '../../core/ports'
import { FileLocalStores } from './local-stores'
import { PLAIN_FILE } from './store-keys'

// The store's search over real database files, encrypted and opened as the app opens them.

const HIKERS = '7001' as ConversationId
const FAMILY = '7002' as ConversationId
const DAY = 86_400
/** 2023-11-14 22:13:20 UTC. */
const BASE_TIME = 1_700_000_000
const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }

let directory: string
let store: LocalStore
let nextId = 1000

function message(text: string, fields: Partial<Message> = {}): Message {
  nextId += 1
  return {
    id: String(nextId),
    conversationId: HIKERS,
    sourceGuid: `guid-${nextId}`,
    senderId: '42',
    senderName: 'Ada Lovelace',
    senderAvatarUrl: null,
    text,
    attachments: [],
    createdAt: BASE_TIME + nextId,
    system: false,
    aboutUserIds: [],
    deleted: false,
    ...fields
  }
}

function search(fields: Partial<StoreSearch>): StoreSearch {
  return { words: [], phrases: [], senderNames: [], senderIds: [], conversationIds: [], has: [], since: null, until: null, after: null, limit: 20, ...fields }
}

const texts = (hits: SearchHit[]): string[] => hits.map((hit) => hit.snippet.text)
const find = async (words: string[], fields: Partial<StoreSearch> = {}): Promise<string[]> => texts((await store.search(search({ words, ...fields }))).hits)

beforeEach(async () => {
  directory = join(mkdtempSync(join(tmpdir(), 'parley-search-')), 'store')
  store = (await new FileLocalStores({ directory, sealing: PLAIN_FILE, log }).open('42')).store
})

afterEach(async () => {
  await store.close()
  rmSync(join(directory, '..'), { recursive: true, force: true })
})

describe('the search of kept messages', () => {
  it('finds words by prefix, whatever their case and accents, and marks what matched', async () => {
    await store.keepMessages([message('Hiking at the Café Müller tomorrow?'), message('nothing to see')])
    expect(await find(['hik'])).toEqual(['Hiking at the Café Müller tomorrow?'])
    expect(await find(['cafe'])).toEqual(['Hiking at the Café Müller tomorrow?'])
    expect(await find(['MULLER', 'tomo'])).toEqual(['Hiking at the Café Müller tomorrow?'])
    expect(await find(['CAFÉ'])).toEqual(['Hiking at the Café Müller tomorrow?'])
    expect(await find(['iking'])).toEqual([])
    const [hit] = (await store.search(search({ words: ['cafe', 'hik'] }))).hits
    expect(hit?.snippet.marks.map(({ start, end }) => hit.snippet.text.slice(start, end))).toEqual(['Hiking', 'Café'])
  })

  it('finds a word inside Chinese, Japanese and Thai text, which has no spaces between words', async () => {
    await store.keepMessages([message('我们明天去爬山'), message('我住在东京都'), message('私は昨日新しいカメラを買いました'), message('ภูเขาสวยมากครับ')])
    expect(await find(['爬山'])).toEqual(['我们明天去爬山'])
    expect(await find(['东京'])).toEqual(['我住在东京都'])
    expect(await find(['カメラ'])).toEqual(['私は昨日新しいカメラを買いました'])
    expect(await find(['ภูเขา'])).toEqual(['ภูเขาสวยมากครับ'])
    expect(await find(['สวย'])).toEqual(['ภูเขาสวยมากครับ'])
    expect(await find(['山爬'])).toEqual([])
    const [hit] = (await store.search(search({ words: ['爬山'] }))).hits
    expect(hit?.snippet.marks).toEqual([{ start: 5, end: 7 }])
  })

  it('finds phrases as phrases', async () => {
    await store.keepMessages([message('the blue whale sings'), message('a whale, blue and grey')])
    expect(await find([], { phrases: ['blue whale'] })).toEqual(['the blue whale sings'])
    expect(await find(['blue', 'whale'])).toEqual(['a whale, blue and grey', 'the blue whale sings'])
    // A phrase matches whole words, not prefixes.
    expect(await find([], { phrases: ['blue wha'] })).toEqual([])
  })

  it('finds poll questions and options, location names and picture messages by their text', async () => {
    const poll: Poll = {
      id: '77',
      conversationId: HIKERS,
      subject: 'Where shall we camp?',
      ownerId: '42',
      expiresAt: BASE_TIME + DAY,
      ended: false,
      multiple: false,
      anonymous: false,
      options: [
        { id: '1', title: 'Lakeside', votes: 0, voters: [] },
        { id: '2', title: 'Summit ridge', votes: 0, voters: [] }
      ],
      myVotes: [],
      canEnd: true
    }
    const withPoll = message('Ada created a poll', { attachments: [{ type: 'poll', pollId: '77' }] })
    const place: Attachment = { type: 'location', lat: '1', lng: '2', name: 'Ben Nevis car park' }
    await store.keepMessages([withPoll, message('meet here', { attachments: [place] }), message('look at this', { attachments: [{ type: 'image', url: 'https://i.example/1.png' }] })])
    // The poll arrives after its message, as it does from the service.
    expect(await find(['lakeside'])).toEqual([])
    await store.keepPoll(poll)
    expect(await find(['lakeside'])).toEqual(['Ada created a poll · Where shall we camp? · Lakeside · Summit ridge'])
    expect(await find(['camp'])).toHaveLength(1)
    expect(await find(['nevis'])).toEqual(['meet here · Ben Nevis car park'])
    // The poll changed: its new option is found, the old one no more.
    await store.keepPoll({ ...poll, options: [{ id: '1', title: 'Forest', votes: 1, voters: [] }] })
    expect(await find(['lakeside'])).toEqual([])
    expect(await find(['forest'])).toHaveLength(1)
  })

  it('narrows by each filter', async () => {
    await store.keepMessages([
      message('trip photos', { attachments: [{ type: 'image', url: 'https://i.example/2.png' }], createdAt: BASE_TIME }),
      message('trip plan', { senderId: '43', senderName: 'Grace Hopper', createdAt: BASE_TIME + DAY }),
      message('trip place', { attachments: [{ type: 'location', lat: '1', lng: '2', name: 'Hut' }], createdAt: BASE_TIME + 2 * DAY }),
      message('trip vote', { attachments: [{ type: 'poll', pollId: '5' }], conversationId: FAMILY, createdAt: BASE_TIME + 3 * DAY })
    ])
    expect(await find(['trip'])).toEqual(['trip vote', 'trip place · Hut', 'trip plan', 'trip photos'])
    expect(await find(['trip'], { has: ['image'] })).toEqual(['trip photos'])
    expect(await find(['trip'], { has: ['location'] })).toEqual(['trip place · Hut'])
    expect(await find(['trip'], { has: ['poll'] })).toEqual(['trip vote'])
    expect(await find([], { has: ['poll'] })).toEqual(['trip vote'])
    expect(await find(['trip'], { senderNames: ['grace'] })).toEqual(['trip plan'])
    expect(await find(['trip'], { senderNames: ['hop gra'] })).toEqual(['trip plan'])
    expect(await find(['trip'], { senderNames: ['lovelace', 'grace'] })).toEqual(['trip vote', 'trip place · Hut', 'trip plan', 'trip photos'])
    expect(await find(['trip'], { senderIds: ['43'] })).toEqual(['trip plan'])
    expect(await find(['trip'], { conversationIds: [FAMILY] })).toEqual(['trip vote'])
    expect(await find(['trip'], { conversationIds: [HIKERS, FAMILY] })).toHaveLength(4)
    expect(await find(['trip'], { since: BASE_TIME + DAY, until: BASE_TIME + 3 * DAY })).toEqual(['trip place · Hut', 'trip plan'])
    expect(await find([], { senderNames: ['grace'] })).toEqual(['trip plan'])
  })

  it('finds a tombstone by nothing, and an edited message by its new text only', async () => {
    const secret = message('the password is swordfish')
    const typo = message('see you at the caffee')
    await store.keepMessages([secret, typo])
    await store.changeMessage(HIKERS, secret.id, { kind: 'deleted' })
    await store.keepMessages([{ ...typo, text: 'see you at the station', editedAt: BASE_TIME + 5 }])
    expect(await find(['swordfish'])).toEqual([])
    expect(await find(['password'])).toEqual([])
    expect(await find(['caffee'])).toEqual([])
    expect(await find(['station'])).toEqual(['see you at the station'])
    // A deletion the service sends as the whole message does the same.
    await store.keepMessages([{ ...typo, text: '', deleted: true }])
    expect(await find(['station'])).toEqual([])
  })

  it('answers newest first, a page at a time, through many matches', async () => {
    // Kept oldest last (as a history download keeps them), an hour apart: more matches than are
    // sorted at once, in all and in a month, so they are read a day at a time.
    const all = Array.from({ length: 900 }, (_, index) => message(`walk number ${index}`, { createdAt: BASE_TIME + index * 3600 }))
    for (let from = all.length; from > 0; from -= 100) await store.keepMessages(all.slice(Math.max(0, from - 100), from))
    const seen: string[] = []
    let after: string | null = null
    do {
      const page = await store.search(search({ words: ['walk'], limit: 50, after }))
      seen.push(...page.hits.map((hit) => hit.messageId))
      after = page.next
    } while (after !== null)
    expect(seen).toEqual(all.map((m) => m.id).reverse())
    const rare = await store.search(search({ words: ['walk', '899'] }))
    expect(rare.hits.map((hit) => hit.messageId)).toEqual([all[899]?.id])
    const firstWeek = await store.search(search({ words: ['walk'], until: BASE_TIME + 7 * DAY, limit: 100 }))
    expect(firstWeek.hits.map((hit) => hit.messageId)).toEqual(all.slice(68, 168).map((m) => m.id).reverse())
  })

  it('keeps hostile text as text, and never lets what was typed reach the query syntax', async () => {
    const hostile = '<img src=x onerror=alert(1)> "quoted" OR NEAR(a b) body:x * ^'
    await store.keepMessages([message(hostile)])
    for (const word of ['"', '*', 'OR', 'NEAR(', 'body:', '^', '-', '(', ')', ':', '""""', 'AND', 'NOT x']) {
      await expect(store.search(search({ words: [word], phrases: [word], senderNames: [word] }))).resolves.toBeDefined()
    }
    const [hit] = (await store.search(search({ words: ['onerror'] }))).hits
    expect(hit?.snippet.text).toBe(hostile)
    expect((await store.search(search({ words: ['NEAR'] }))).hits).toHaveLength(1)
  })

  it('says how much it searched, and forgets the index with the history', async () => {
    await store.keepMessages([message('old one', { createdAt: BASE_TIME - DAY }), message('new one')])
    expect(await store.searchScope()).toEqual({ messages: 2, oldestAt: BASE_TIME - DAY })
    await store.clearHistory()
    expect(await store.searchScope()).toEqual({ messages: 0, oldestAt: null })
    expect(await find(['one'])).toEqual([])
  })

  it('keeps no searched word readable on disk', async () => {
    await store.keepMessages([message('zanzibarquokka sings')])
    expect(await find(['zanzibar'])).toHaveLength(1)
    await store.close()
    for (const file of readdirSync(directory, { withFileTypes: true })) {
      if (!file.isFile() || file.name.endsWith('.key')) continue
      const bytes = readFileSync(join(directory, file.name))
      expect(bytes.includes(Buffer.from('zanzibar'))).toBe(false)
    }
    store = (await new FileLocalStores({ directory, sealing: PLAIN_FILE, log }).open('42')).store
    expect(await find(['zanzibar'])).toHaveLength(1)
  })
})
