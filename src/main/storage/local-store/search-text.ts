// What the search index is given, and how a search becomes an FTS5 MATCH expression. Pure: the SQL
// is sqlite-store.ts's.
//
// SQLite's unicode61 tokenizer (with `remove_diacritics 2`, so `cafe` finds `café`) splits text at
// everything that is not a letter, number or mark, which leaves scripts written without spaces as
// one long token. So words are found here first, the same way for the index and for a query, and
// handed to the tokenizer with spaces between them:
// - Thai, Lao, Khmer and Myanmar by `Intl.Segmenter`, whose dictionaries know their words;
// - Chinese and Japanese (Han, Hiragana, Katakana) a character apiece, and a query in them becomes
//   the phrase of its characters. Dictionary segmentation depends on the context (东京 in 我住在东京都
//   segments as 东|京都, so a word index would never find 东京 there); characters find every word
//   of a sentence, 爬山 in 我们明天去爬山 among them.
// Text is NFKC-normalised first, so full-width letters and ligatures read as their plain forms.
import type { Message } from '@shared/messages'
import type { Poll } from '@shared/polls'
import type { SearchSnippet } from '@shared/search'
import type { StoreSearch } from '../../core/ports'

const SEGMENTED_SCRIPTS = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}]/u
const CHARACTER_SCRIPTS = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u
const SPECIAL_SCRIPTS = /[\p{Script=Thai}\p{Script=Lao}\p{Script=Khmer}\p{Script=Myanmar}\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]/u
/** What unicode61 keeps in a token (as configured in the migration): letters, numbers, marks, private use. */
const TOKEN_RUN = /[\p{L}\p{N}\p{M}\p{Co}]+/gu
const CHARACTER = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]\p{M}*|[^\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}]+/gu

const words = new Intl.Segmenter('und', { granularity: 'word' })

/** A token of a text: where it is in it (UTF-16 offsets), and the text itself. */
interface Token {
  start: number
  end: number
  text: string
}

/**
 * The tokens of `text` as the index sees them, with their offsets in `text`. Only text in one of
 * the special scripts is split further than unicode61 would split it.
 */
function tokensOf(text: string): Token[] {
  const tokens: Token[] = []
  for (const run of text.matchAll(TOKEN_RUN)) {
    const start = run.index
    const value = run[0]
    if (!SPECIAL_SCRIPTS.test(value)) {
      tokens.push({ start, end: start + value.length, text: value })
      continue
    }
    for (const piece of value.matchAll(CHARACTER)) {
      const at = start + piece.index
      if (CHARACTER_SCRIPTS.test(piece[0]) || !SEGMENTED_SCRIPTS.test(piece[0])) {
        tokens.push({ start: at, end: at + piece[0].length, text: piece[0] })
        continue
      }
      for (const word of words.segment(piece[0])) {
        tokens.push({ start: at + word.index, end: at + word.index + word.segment.length, text: word.segment })
      }
    }
  }
  return tokens
}

function normalised(text: string): string {
  // ASCII needs nothing, and most messages are ASCII: NFKC is left to the rest.
  return /[^\p{ASCII}]/u.test(text) ? text.normalize('NFKC') : text
}

/** `text` as the index is given it: unchanged, but for scripts without spaces, whose words are set apart. */
export function indexText(text: string): string {
  const plain = normalised(text)
  if (!SPECIAL_SCRIPTS.test(plain)) return plain
  return tokensOf(plain)
    .map((token) => token.text)
    .join(' ')
}

/** The parts of a message that search finds it by: its text, location names, its poll's question and options. Nothing of a tombstone. */
export function searchableParts(message: Message, poll: Poll | null): string[] {
  if (message.deleted) return []
  const parts = message.text.trim() === '' ? [] : [message.text]
  for (const attachment of message.attachments) if (attachment.type === 'location' && attachment.name.trim() !== '') parts.push(attachment.name)
  const subject = poll?.subject ?? (message.event?.kind === 'pollCreated' ? message.event.subject : null)
  if (subject !== null && subject.trim() !== '' && !message.text.includes(subject)) parts.push(subject)
  for (const option of poll?.options ?? []) parts.push(option.title)
  return parts
}

/** The poll a message carries or announces the creation of. */
export function pollIdOf(message: Message): string | null {
  for (const attachment of message.attachments) if (attachment.type === 'poll') return attachment.pollId
  return message.event?.kind === 'pollCreated' ? message.event.pollId : null
}

export type HasKind = 'image' | 'poll' | 'location'

export function kindsOf(message: Message): HasKind[] {
  if (message.deleted) return []
  const kinds = new Set<HasKind>()
  for (const attachment of message.attachments) {
    if (attachment.type === 'image' || attachment.type === 'imageLink') kinds.add('image')
    if (attachment.type === 'location') kinds.add('location')
  }
  if (pollIdOf(message) !== null) kinds.add('poll')
  return [...kinds]
}

// Facets: tokens of a column of their own that filters match, never words of a message. Ids are
// written in hex (letters and digits only, so each is one token whatever it holds); the month and
// the day (UTC) of a message let a search read the newest matches first without sorting them all.

function hex(id: string): string {
  return Buffer.from(id, 'utf8').toString('hex')
}

export const facet = {
  conversation: (id: string): string => `c${hex(id)}`,
  sender: (id: string): string => `u${hex(id)}`,
  poll: (id: string): string => `p${hex(id)}`,
  has: (kind: HasKind): string => `h${kind}`,
  month: (unixSeconds: number): string => `m${utcDate(unixSeconds).slice(0, 6)}`,
  day: (unixSeconds: number): string => `d${utcDate(unixSeconds)}`
}

function utcDate(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000)
  const two = (value: number): string => String(value).padStart(2, '0')
  return `${date.getUTCFullYear()}${two(date.getUTCMonth() + 1)}${two(date.getUTCDate())}`
}

/** The three columns of a message's row in the index; null when nothing of it is to be found (a tombstone). */
export function indexRow(message: Message, poll: Poll | null): { body: string; sender: string; facets: string } | null {
  if (message.deleted) return null
  const pollId = pollIdOf(message)
  const facets = [
    facet.conversation(message.conversationId),
    facet.sender(message.senderId),
    facet.month(message.createdAt),
    facet.day(message.createdAt),
    ...kindsOf(message).map(facet.has),
    ...(pollId === null ? [] : [facet.poll(pollId)])
  ]
  return { body: indexText(searchableParts(message, poll).join('\n')), sender: indexText(message.senderName), facets: facets.join(' ') }
}

// Queries. Every token put into a MATCH expression is a run of letters, numbers and marks found by
// tokensOf, quoted; a double quote could not be in one, but is doubled anyway, as FTS5 escapes it.

function quoted(tokens: readonly string[]): string {
  return `"${tokens.join(' ').replaceAll('"', '""')}"`
}

/** The tokens of a word or phrase as typed: none when it holds no letter or digit. */
export function queryTokens(text: string): string[] {
  return tokensOf(normalised(text)).map((token) => token.text)
}

/**
 * A term of a search as an FTS5 phrase: a word matches by prefix, its last token as typed so far;
 * text in a script written a character apiece is the phrase of its characters.
 */
function termExpression(text: string, prefix: boolean): string | null {
  const tokens = queryTokens(text)
  if (tokens.length === 0) return null
  return `${quoted(tokens)}${prefix ? '*' : ''}`
}

/** What MATCH is given for a search, without its period; null when it asks for nothing at all. */
export function matchExpression(search: Pick<StoreSearch, 'words' | 'phrases' | 'senderNames' | 'senderIds' | 'conversationIds' | 'has'>): string | null {
  const clauses: string[] = []
  const body = [...search.words.map((word) => termExpression(word, true)), ...search.phrases.map((phrase) => termExpression(phrase, false))].filter(
    (term): term is string => term !== null
  )
  if (body.length > 0) clauses.push(`body : (${body.join(' AND ')})`)
  // A name matches when each of its words begins a word of the sender's name.
  const names = search.senderNames.map((name) => queryTokens(name)).filter((tokens) => tokens.length > 0)
  const senders = [
    ...(names.length > 0 ? [`sender : (${names.map((tokens) => `(${tokens.map((token) => `${quoted([token])}*`).join(' AND ')})`).join(' OR ')})`] : []),
    ...search.senderIds.map((id) => `facets : ${quoted([facet.sender(id)])}`)
  ]
  if (senders.length > 0) clauses.push(`(${senders.join(' OR ')})`)
  if (search.conversationIds.length > 0) clauses.push(`facets : (${search.conversationIds.map((id) => quoted([facet.conversation(id)])).join(' OR ')})`)
  for (const kind of new Set(search.has)) clauses.push(`facets : ${quoted([facet.has(kind)])}`)
  return clauses.length === 0 ? null : clauses.join(' AND ')
}

/** `expression` narrowed to one month or day of facets. */
export function inPeriod(expression: string, period: string): string {
  return `(${expression}) AND facets : ${quoted([period])}`
}

// Snippets: a stretch of the text around the first match, with every token the search matched
// marked by its offsets. Matching here mirrors the index's loosely (lower case, Latin-like accents
// dropped); it only decides what is highlighted, never what is found.

const SNIPPET_LENGTH = 160
const SNIPPET_LEAD = 40

function folded(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/(?<=[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu, '')
    .toLowerCase()
}

/** The snippet of `parts` (joined with ` · `) for a search of these words and phrases. */
export function snippetOf(parts: readonly string[], terms: { words: readonly string[]; phrases: readonly string[] }): SearchSnippet {
  const text = parts
    .map((part) => part.replace(/\s+/g, ' ').trim())
    .filter((part) => part !== '')
    .join(' · ')
  const tokens = tokensOf(text).map((token) => ({ ...token, folded: folded(normalised(token.text)) }))
  const sequences = [...terms.words.map((word) => ({ text: word, prefix: true })), ...terms.phrases.map((phrase) => ({ text: phrase, prefix: false }))]
    .map(({ text: term, prefix }) => ({ tokens: queryTokens(term).map(folded), prefix }))
    .filter((sequence) => sequence.tokens.length > 0)
  const marks: [number, number][] = []
  for (let at = 0; at < tokens.length; at++) {
    for (const sequence of sequences) {
      const length = sequence.tokens.length
      const matches = sequence.tokens.every((want, offset) => {
        const have = tokens[at + offset]?.folded
        if (have === undefined) return false
        return sequence.prefix && offset === length - 1 ? have.startsWith(want) : have === want
      })
      if (!matches) continue
      const first = tokens[at] as Token
      const final = tokens[at + length - 1] as Token
      marks.push([first.start, final.end])
    }
  }
  return cut(text, merged(marks))
}

function merged(marks: [number, number][]): [number, number][] {
  const sorted = [...marks].sort((a, b) => a[0] - b[0])
  const out: [number, number][] = []
  for (const [start, end] of sorted) {
    const last = out[out.length - 1]
    if (last !== undefined && start <= last[1]) last[1] = Math.max(last[1], end)
    else out.push([start, end])
  }
  return out
}

/** At most SNIPPET_LENGTH characters of `text`, starting a little before its first mark, on word boundaries where it can. */
function cut(text: string, marks: [number, number][]): SearchSnippet {
  if (text.length <= SNIPPET_LENGTH) return { text, marks: marks.map(([start, end]) => ({ start, end })) }
  const first = marks[0]?.[0] ?? 0
  let from = Math.max(0, first - SNIPPET_LEAD)
  if (from > 0) {
    const space = text.indexOf(' ', from)
    if (space !== -1 && space < first) from = space + 1
  }
  // Never in the middle of a surrogate pair.
  if (from > 0 && /[\uDC00-\uDFFF]/.test(text[from] ?? '')) from -= 1
  let to = Math.min(text.length, from + SNIPPET_LENGTH)
  if (to < text.length && /[\uD800-\uDBFF]/.test(text[to - 1] ?? '')) to -= 1
  const lead = from > 0 ? '…' : ''
  const tail = to < text.length ? '…' : ''
  const shift = lead.length - from
  return {
    text: `${lead}${text.slice(from, to)}${tail}`,
    marks: marks.filter(([start, end]) => start >= from && end <= to).map(([start, end]) => ({ start: start + shift, end: end + shift }))
  }
}
