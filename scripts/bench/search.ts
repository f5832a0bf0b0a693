// Search over a million kept messages: a store on disk, encrypted and opened as the app opens it,
// filled with seeded messages directly through the store code (no service, no HTTP), then
// - `store_index_build_1m_s`: the search index emptied and built again from every message, as the
//   migration that brought it builds it on a store that predates it;
// - `search_1m_p50_ms` / `_p95_ms`: a fixed set of 200 queries (common and rare words, prefixes,
//   phrases, several words, filters) read as core reads them, each timed around the store's
//   search, as main calls it. One untimed pass first, so the figures are of a store in use, not of
//   the first read of each page from the disk; that pass is printed too.
// Seeded and repeatable: the same messages and queries every run.
import Sqlite from 'better-sqlite3-multiple-ciphers'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Attachment, Message } from '@shared/messages'
import type { LocalStore, StoreSearch } from '../../src/main/core/ports'
import { parseSearchQuery } from '../../src/main/core/search-query'
import { FileLocalStores } from '../../src/main/storage/local-store/local-stores'
import { keyed } from '../../src/main/storage/local-store/sqlcipher-key'
import { buildSearchIndex } from '../../src/main/storage/local-store/migrations'
import { PLAIN_FILE, StoreKeys } from '../../src/main/storage/local-store/store-keys'
import { distribution, percentile, type PartResult } from './figures'
import { seededRandom } from '../../server/src/seed/prng'

export interface SearchOptions {
  messages: number
}

const ACCOUNT = 'bench'
const CONVERSATIONS = 200
/** Five years of history, ending a day before the run's fixed "now". */
const END = Date.UTC(2026, 0, 1) / 1000
const SPAN = 5 * 365 * 86_400
const PAGE = 1_000
const QUERIES = 200

const COMMON =
  'the to and a i you it is that of in for on we this be have are at with so not just like do get was going what can my me your if all but up out about no yes ok will know time good think see one how when there now new would back then go really got come want today tomorrow night day work home'.split(
    ' '
  )
const SYLLABLES = ['ka', 'lo', 'mi', 'ne', 'su', 'ta', 'ri', 'po', 'an', 'el', 'or', 'us', 'in', 'be', 'da', 'fe', 'go', 'hu', 'ja', 've', 'wi', 'yo', 'ze', 'qu', 'sh', 'th', 'ch', 'é', 'ü']
const CJK = ['我们明天去爬山', '今天天气很好我们去公园散步吧', '这个周末你有空吗一起去看电影', '東京都に住んでいます', '私は昨日新しいカメラを買いました', 'ภูเขาสวยมากครับ', 'ร้านกาแฟนี้อร่อยมาก']
const PEOPLE = ['Ada Lovelace', 'Grace Hopper', 'Zoë Martín', 'José Núñez', 'Alan Turing', 'Katherine Johnson', 'Linus Berg', 'Mei Chen', 'Somchai Dee', 'Yuki Tanaka']
const PLACES = ['Central Park', 'Café de Flore', 'Ben Nevis car park', 'Königssee', 'Shibuya crossing']

interface Seeded {
  vocabulary: string[]
  /** A word of the vocabulary, most often the first ones (Zipf's law). */
  word: () => string
  random: () => number
  samples: string[]
}

function vocabulary(): Seeded {
  const random = seededRandom(2026)
  const words = new Set<string>(COMMON)
  while (words.size < 30_000) {
    let word = ''
    const syllables = 2 + Math.floor(random() * 3)
    for (let i = 0; i < syllables; i++) word += SYLLABLES[Math.floor(random() * SYLLABLES.length)]
    words.add(word)
  }
  const list = [...words]
  // Zipf: rank r with weight 1/r, drawn by inverting the cumulative weights.
  const cumulative: number[] = []
  let total = 0
  for (let rank = 1; rank <= list.length; rank++) cumulative.push((total += 1 / rank))
  const word = (): string => {
    const target = random() * total
    let low = 0
    let high = cumulative.length - 1
    while (low < high) {
      const middle = (low + high) >> 1
      if ((cumulative[middle] as number) < target) low = middle + 1
      else high = middle
    }
    return list[low] as string
  }
  return { vocabulary: list, word, random, samples: [] }
}

function conversationId(index: number): string {
  return String(5_000_000 + index)
}

function conversationName(index: number): string {
  return `Group ${String(index + 1).padStart(3, '0')}`
}

/** Conversation `index`'s messages, oldest first. */
function conversationHistory(index: number, count: number, words: Seeded): Message[] {
  const { random } = words
  const times = Array.from({ length: count }, () => END - Math.floor(random() * SPAN)).sort((a, b) => a - b)
  const id = conversationId(index)
  return times.map((time, position) => {
    const sender = Math.floor(random() * PEOPLE.length)
    const length = 2 + Math.floor(random() * 20)
    const kind = random()
    const text =
      kind < 0.02 ? (CJK[Math.floor(random() * CJK.length)] as string) : Array.from({ length }, () => words.word()).join(' ')
    if (words.samples.length < 2_000 && random() < 0.01) words.samples.push(text)
    const attachments: Attachment[] = []
    if (kind > 0.9) attachments.push({ type: 'image', url: `https://i.groupme.com/1024x768.jpeg.${index}x${position}` })
    if (kind > 0.89 && kind <= 0.9) attachments.push({ type: 'location', lat: '51.5', lng: '-0.1', name: PLACES[position % PLACES.length] as string })
    if (kind > 0.885 && kind <= 0.89) attachments.push({ type: 'poll', pollId: `${index}${position}` })
    // Ids grow with time across conversations, as the service's do; distinct within a second.
    const messageId = (180_000_000_000_000_000n + BigInt(time) * 1_000_000n + BigInt(index) * 1_000n + BigInt(position % 1_000)).toString()
    return {
      id: messageId,
      conversationId: id,
      sourceGuid: `bench-${index}-${position}`,
      senderId: String(100 + sender),
      senderName: PEOPLE[sender] as string,
      senderAvatarUrl: null,
      text,
      attachments,
      createdAt: time,
      system: false,
      aboutUserIds: [],
      deleted: false
    }
  })
}

/** The 200 queries, as typed, the same every run. */
function queries(words: Seeded): string[] {
  const random = seededRandom(7)
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T
  const ranked = (from: number, to: number): string => words.vocabulary[from + Math.floor(random() * (to - from))] as string
  const sampleWords = (): string[] => pick(words.samples).split(' ')
  const out: string[] = []
  for (let i = 0; i < 30; i++) out.push(ranked(0, 60))
  for (let i = 0; i < 30; i++) out.push(ranked(5_000, 30_000))
  for (let i = 0; i < 20; i++) out.push(ranked(100, 2_000))
  for (let i = 0; i < 30; i++) {
    const word = ranked(0, 5_000)
    out.push(word.slice(0, 1 + (i % 4)))
  }
  for (let i = 0; i < 20; i++) {
    const sample = sampleWords()
    const at = Math.floor(random() * Math.max(1, sample.length - 2))
    out.push(`"${sample.slice(at, at + 2).join(' ')}"`)
  }
  for (let i = 0; i < 20; i++) out.push(`${ranked(0, 200)} ${ranked(200, 5_000)}${i % 2 === 0 ? ` ${ranked(0, 60)}` : ''}`)
  const filters = [
    () => `${ranked(0, 2_000)} in:"${conversationName(Math.floor(random() * CONVERSATIONS))}"`,
    () => `${ranked(0, 2_000)} from:"${pick(PEOPLE).split(' ')[0] as string}"`,
    () => `${ranked(0, 500)} has:image`,
    () => 'has:poll',
    () => `has:location ${pick(PLACES).split(' ')[0] as string}`,
    () => `${ranked(0, 2_000)} before:2023-06-01`,
    () => `${ranked(0, 2_000)} after:2025-06-01`,
    () => `${ranked(0, 200)} after:2022-01-01 before:2022-02-01`,
    () => `in:"${conversationName(Math.floor(random() * CONVERSATIONS))}"`,
    () => pick(['爬山', '東京', 'カメラ', 'ภูเขา', 'cafe'])
  ]
  while (out.length < QUERIES) out.push((filters[out.length % filters.length] as () => string)())
  return out
}

/** A query as core hands it to the store (message-search.ts), days at midnight UTC. */
function storeSearch(typed: string): StoreSearch {
  const query = parseSearchQuery(typed)
  const day = (date: string): number => utcDayStart(date)
  const named = query.in.flatMap((name) => Array.from({ length: CONVERSATIONS }, (_, index) => index).filter((index) => conversationName(index).toLowerCase().includes(name.toLowerCase())))
  return {
    words: query.words,
    phrases: query.phrases,
    senderNames: query.from,
    senderIds: [],
    conversationIds: named.map(conversationId),
    has: query.has,
    since: query.after === null ? null : day(query.after),
    until: query.before === null ? null : day(query.before),
    after: null,
    limit: 30
  }
}

const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined }

export async function measureSearch(options: SearchOptions): Promise<PartResult> {
  const root = mkdtempSync(join(tmpdir(), 'parley-bench-search-'))
  const directory = join(root, 'store')
  const stores = new FileLocalStores({ directory, sealing: PLAIN_FILE, log: quiet })
  const words = vocabulary()
  try {
    console.log(`search: filling a store with ${options.messages.toLocaleString('en')} seeded messages through the store code…`)
    let store: LocalStore = (await stores.open(ACCOUNT)).store
    const fillStart = performance.now()
    const perConversation = Math.ceil(options.messages / CONVERSATIONS)
    let kept = 0
    for (let index = 0; index < CONVERSATIONS && kept < options.messages; index++) {
      const history = conversationHistory(index, Math.min(perConversation, options.messages - kept), words)
      // Newest first, a stretch at a time, as the history download keeps them.
      for (let end = history.length; end > 0; end -= PAGE) {
        const page = history.slice(Math.max(0, end - PAGE), end)
        await store.keepRun(conversationId(index), page, { after: null, before: history[end]?.id ?? null, reachesStart: end <= PAGE })
      }
      kept += history.length
    }
    const fillS = (performance.now() - fillStart) / 1000
    console.log(`search: kept ${kept.toLocaleString('en')} in ${fillS.toFixed(1)} s, indexed as they were kept (${Math.round(kept / fillS)} messages/s)`)
    await store.close()

    // The index from nothing: emptied, then built as the migration builds it, in one transaction.
    const file = join(directory, `${ACCOUNT}.db`)
    const key = new StoreKeys(directory, PLAIN_FILE).read(ACCOUNT)
    if (key === undefined) throw new Error('the bench store has no key')
    const db = new Sqlite(file)
    keyed(db, key)
    db.pragma('journal_mode = WAL')
    db.pragma('synchronous = NORMAL')
    db.exec("INSERT INTO message_search (message_search) VALUES ('delete-all')")
    db.exec('VACUUM')
    const buildStart = performance.now()
    db.transaction(() => buildSearchIndex(db))()
    const buildS = (performance.now() - buildStart) / 1000
    db.pragma('wal_checkpoint(TRUNCATE)')
    db.close()
    const bytes = statSync(file).size
    console.log(`search: index built from nothing in ${buildS.toFixed(1)} s; the database is ${(bytes / 1e6).toFixed(0)} MB (${Math.round(bytes / kept)} B a message, index included)`)

    store = (await stores.open(ACCOUNT)).store
    const typed = queries(words)
    const timed = async (): Promise<{ ms: number[]; hits: number[] }> => {
      const ms: number[] = []
      const hits: number[] = []
      for (const query of typed) {
        const search = storeSearch(query)
        const start = performance.now()
        const page = await store.search(search)
        ms.push(performance.now() - start)
        hits.push(page.hits.length)
      }
      return { ms, hits }
    }
    const first = await timed()
    const { ms, hits } = await timed()
    await store.close()
    const slowest = ms
      .map((value, index) => ({ value, query: typed[index] as string, hits: hits[index] as number }))
      .sort((a, b) => b.value - a.value)
      .slice(0, 5)
    console.log(`search: first pass  ${distribution(first.ms)}`)
    console.log(`search: timed pass  ${distribution(ms)}`)
    console.log(`search: queries with no result: ${hits.filter((count) => count === 0).length} of ${hits.length}`)
    console.log(`search: slowest: ${slowest.map((entry) => `${entry.query} (${entry.value.toFixed(1)} ms, ${entry.hits} results)`).join('; ')}`)
    return {
      figures: { search_1m_p50_ms: percentile(ms, 50), search_1m_p95_ms: percentile(ms, 95), store_index_build_1m_s: buildS },
      baselines: {
        search_1m_p95_ms: `first pass p95 ${percentile(first.ms, 95).toFixed(1)} ms`,
        store_index_build_1m_s: `fill with the index kept ${fillS.toFixed(0)} s`
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true })
  }
}

/** Unix seconds at midnight UTC of a YYYY-MM-DD. */
function utcDayStart(date: string): number {
  const [year = 1970, month = 1, day = 1] = date.split('-').map(Number)
  return Date.UTC(year, month - 1, day) / 1000
}
