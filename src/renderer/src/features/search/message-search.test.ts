import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { MessageSearchRequest, MessageSearchResult, SearchHit } from '@shared/search'
import { FakeApi } from '../../testing/fake-api'
import { filterWords, MessageSearchModel, NO_FILTERS, SEARCH_DELAY_MS } from './message-search.svelte'

const scope = { messages: 10, oldestAt: 1_700_000_000, history: 'complete', conversationsPartial: 0 } as const

function hit(messageId: string, text = `text of ${messageId}`): SearchHit {
  return { conversationId: 'g1', messageId, senderId: 'u2', senderName: 'Grace', createdAt: 1_700_000_000, snippet: { text, marks: [] } }
}

function found(hits: SearchHit[], next: string | null = null): MessageSearchResult {
  return { hits, next, notes: [], searched: true, scope }
}

beforeEach(() => {
  vi.useFakeTimers()
})

afterEach(() => {
  vi.useRealTimers()
})

/** Lets the delay pass and every answer come back. */
async function settle(): Promise<void> {
  await vi.advanceTimersByTimeAsync(SEARCH_DELAY_MS + 1)
}

describe('MessageSearchModel', () => {
  it('searches once the typing pauses, with the words typed and the filters set', async () => {
    const fake = new FakeApi().returns('search:messages', found([hit('m1')])).install()
    const search = new MessageSearchModel()
    search.query = 'caf'
    search.changed()
    search.query = 'cafe'
    search.changed()
    expect(search.status).toBe('searching')
    search.setFilters({ from: 'Grace Hopper', has: 'image' })
    await settle()
    expect(fake.callsTo('search:messages')).toEqual([{ query: 'cafe from:"Grace Hopper" has:image' }])
    expect(search.status).toBe('ready')
    expect(search.hits.map((h) => h.messageId)).toEqual(['m1'])
  })

  it('never shows an older query’s answer that comes back after a newer one', async () => {
    const fake = new FakeApi()
    const answers: ((result: MessageSearchResult) => void)[] = []
    fake.handle('search:messages', () => new Promise((resolve) => answers.push((value) => resolve({ ok: true, value })))).install()
    const search = new MessageSearchModel()
    search.query = 'hi'
    search.changed()
    await settle()
    search.query = 'hik'
    search.changed()
    await settle()
    answers[1]?.(found([hit('new')]))
    await settle()
    answers[0]?.(found([hit('old')]))
    await settle()
    expect(search.hits.map((h) => h.messageId)).toEqual(['new'])
  })

  it('searches in one conversation while one is set, and everywhere once it is removed', async () => {
    const fake = new FakeApi().returns('search:messages', found([])).install()
    const search = new MessageSearchModel()
    search.searchIn({ id: 'g7', name: 'Launch Team' })
    expect(search.active).toBe(true)
    await settle()
    search.query = 'x'
    search.searchIn(null)
    await settle()
    expect(fake.callsTo('search:messages')).toEqual<MessageSearchRequest[]>([{ query: '', conversationId: 'g7' }, { query: 'x' }])
  })

  it('says what went wrong when the search fails, and tries again when asked', async () => {
    const fake = new FakeApi().fails('search:messages', 'INTERNAL', 'The search could not run. Try again, or restart the app.').install()
    const search = new MessageSearchModel()
    search.query = 'cafe'
    search.changed()
    await settle()
    expect(search.status).toBe('error')
    expect(search.error).toBe('The search could not run. Try again, or restart the app.')
    expect(search.query).toBe('cafe')
    fake.returns('search:messages', found([hit('m1')]))
    search.changed()
    await settle()
    expect(search.status).toBe('ready')
    expect(search.error).toBeNull()
  })

  it('adds the next page to the results, from where the last one ended', async () => {
    const fake = new FakeApi().returns('search:messages', found([hit('m3'), hit('m2')], 'cursor-1')).install()
    const search = new MessageSearchModel()
    search.query = 'word'
    search.changed()
    await settle()
    fake.returns('search:messages', found([hit('m1')]))
    await search.more()
    expect(fake.callsTo('search:messages')[1]).toEqual({ query: 'word', after: 'cursor-1' })
    expect(search.hits.map((h) => h.messageId)).toEqual(['m3', 'm2', 'm1'])
    expect(search.result?.next).toBeNull()
  })

  it('keeps the results it has when a further page fails, and says why', async () => {
    const fake = new FakeApi().returns('search:messages', found([hit('m2')], 'cursor-1')).install()
    const search = new MessageSearchModel()
    search.query = 'word'
    search.changed()
    await settle()
    fake.fails('search:messages', 'INTERNAL', 'The search could not run. Try again, or restart the app.')
    await search.more()
    expect(search.hits.map((h) => h.messageId)).toEqual(['m2'])
    expect(search.error).toBe('The search could not run. Try again, or restart the app.')
    expect(search.loadingMore).toBe(false)
  })

  it('clears the box, the filters and the results, asking nothing more', async () => {
    const fake = new FakeApi().returns('search:messages', found([hit('m1')])).install()
    const search = new MessageSearchModel()
    search.query = 'word'
    search.setFilters({ has: 'poll' })
    search.searchIn({ id: 'g1', name: 'Book club' })
    search.clear()
    await settle()
    expect(fake.callsTo('search:messages')).toEqual([])
    expect(search.active).toBe(false)
    expect(search.status).toBe('idle')
    expect(search.filters).toEqual(NO_FILTERS)
  })
})

describe('filterWords', () => {
  it('writes each filter set as the query reader reads it', () => {
    expect(filterWords({ from: ' me ', has: 'location', after: '2024-01-01', before: '2024-02-01' })).toBe('from:me has:location after:2024-01-01 before:2024-02-01')
  })

  it('quotes a name of several words, dropping quotes typed in it', () => {
    expect(filterWords({ ...NO_FILTERS, from: 'Ada "the" Lovelace' })).toBe('from:"Ada the Lovelace"')
  })

  it('is empty when nothing is set', () => {
    expect(filterWords(NO_FILTERS)).toBe('')
  })
})
