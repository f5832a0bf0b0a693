// What the person typed into the search box, read into words, phrases and filters. Pure, and it never
// fails: whatever is typed has a reading, and where it was read leniently a note says how, in words.
//
//   hiking trip          words, each matched by prefix (`hik` finds `hiking`), all of them
//   "blue whale"         a phrase, matched whole
//   from:ada             from someone whose name has a word beginning `ada`; `from:me`: from you;
//                        `from:"Ada Lovelace"` for a name of several words
//   in:hikers            in a conversation whose name contains `hikers` (quoted for several words)
//   has:image            with a picture (also `has:picture`, `has:photo`); has:poll; has:location
//                        (also `has:place`)
//   before:2024-05-31    sent before that day began; after:2024-05-01: sent on or after that day
//                        (days as the computer's clock reads them)
//
// Several from: (or in:) match any of them; several has: all of them; of several before: (after:)
// the earliest (latest) counts. Filter names are read in any case.
//
// Lenient readings: a quote not closed yet reads what follows it as words (so results keep coming
// while a phrase is typed); a date that is not a real YYYY-MM-DD, a has: of another kind and a
// filter with nothing after its colon are left out; a name before a colon that is not a filter
// (`re:`, `note:`) is read as words. Each says so in a note.
import type { SearchNote } from '@shared/search'

export type HasKind = 'image' | 'poll' | 'location'

export interface SearchQuery {
  words: string[]
  phrases: string[]
  from: string[]
  in: string[]
  has: HasKind[]
  /** YYYY-MM-DD: sent before this day. */
  before: string | null
  /** YYYY-MM-DD: sent on or after this day. */
  after: string | null
  notes: SearchNote[]
}

const FILTERS = ['from', 'in', 'has', 'before', 'after'] as const
type Filter = (typeof FILTERS)[number]

const HAS: Record<string, HasKind> = { image: 'image', picture: 'image', photo: 'image', poll: 'poll', location: 'location', place: 'location' }

/** A piece of the query: a bare run of text, or a quoted one (closed or not). */
interface Piece {
  text: string
  quoted: boolean
  closed: boolean
}

const WHITESPACE = /\s/u

/** Splits at whitespace outside quotes; `key:"a b"` stays one piece, its value quoted. */
function pieces(input: string): { key: string | null; value: Piece }[] {
  const out: { key: string | null; value: Piece }[] = []
  let at = 0
  while (at < input.length) {
    while (at < input.length && WHITESPACE.test(input[at] as string)) at += 1
    if (at >= input.length) break
    let key: string | null = null
    const filter = /^([\p{L}\p{N}_-]+):/u.exec(input.slice(at, at + 64))
    if (filter !== null) {
      key = filter[1] as string
      at += filter[0].length
    }
    if (input[at] === '"') {
      const end = input.indexOf('"', at + 1)
      const closed = end !== -1
      out.push({ key, value: { text: input.slice(at + 1, closed ? end : input.length), quoted: true, closed } })
      at = closed ? end + 1 : input.length
      continue
    }
    let end = at
    while (end < input.length && !WHITESPACE.test(input[end] as string)) end += 1
    out.push({ key, value: { text: input.slice(at, end), quoted: false, closed: true } })
    at = end
  }
  return out
}

function isFilter(key: string): key is Filter {
  return (FILTERS as readonly string[]).includes(key)
}

/** The words of a bare run of text. */
function wordsOf(text: string): string[] {
  return text.split(/\s+/u).filter((word) => word !== '')
}

function realDate(text: string): boolean {
  const parts = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text)
  if (parts === null) return false
  const [year, month, day] = [Number(parts[1]), Number(parts[2]), Number(parts[3])]
  const date = new Date(Date.UTC(year, month - 1, day))
  return year >= 1970 && date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day
}

export function parseSearchQuery(input: string): SearchQuery {
  const query: SearchQuery = { words: [], phrases: [], from: [], in: [], has: [], before: null, after: null, notes: [] }
  const note = (kind: SearchNote['kind'], text: string): void => {
    if (!query.notes.some((existing) => existing.text === text)) query.notes.push({ kind, text })
  }
  const addText = (value: Piece): void => {
    if (!value.quoted) query.words.push(...wordsOf(value.text))
    else if (value.closed) {
      if (value.text.trim() !== '') query.phrases.push(value.text.trim())
    } else {
      query.words.push(...wordsOf(value.text))
      if (value.text.trim() !== '') note('unclosedQuote', `No closing quote yet: “${value.text.trim()}” is searched as words, not as a phrase.`)
    }
  }
  for (const { key, value } of pieces(input)) {
    if (key === null) {
      addText(value)
      continue
    }
    const name = key.toLowerCase()
    if (!isFilter(name)) {
      // `re:`, a time such as 10:30, an address: words, as typed.
      const raw = value.quoted ? `${key}: ${value.text}` : `${key}:${value.text}`
      query.words.push(...wordsOf(raw))
      if (/^\p{L}+$/u.test(key) && !value.text.startsWith('//')) note('unknownFilter', `“${key}:” is not a filter, so it was searched as a word. Filters are from:, in:, has:, before: and after:.`)
      continue
    }
    const text = value.text.trim()
    if (text === '') {
      note('emptyFilter', `${name}: needs something after it, so it was left out.`)
      continue
    }
    switch (name) {
      case 'from':
        query.from.push(text)
        break
      case 'in':
        query.in.push(text)
        break
      case 'has': {
        const kind = HAS[text.toLowerCase()]
        if (kind === undefined) note('unknownFilter', `has: takes image, poll or location, so “has:${text}” was left out.`)
        else if (!query.has.includes(kind)) query.has.push(kind)
        break
      }
      case 'before':
      case 'after': {
        if (!realDate(text)) {
          note('badDate', `${name}: takes a date such as 2024-05-31, so “${name}:${text}” was left out.`)
          break
        }
        if (name === 'before') query.before = query.before === null || text < query.before ? text : query.before
        else query.after = query.after === null || text > query.after ? text : query.after
        break
      }
    }
  }
  return query
}

/** Whether the query asks for anything: words, a phrase or a filter. */
export function asksForAnything(query: SearchQuery): boolean {
  return query.words.length + query.phrases.length + query.from.length + query.in.length + query.has.length > 0 || query.before !== null || query.after !== null
}
