// An address book exported as CSV, read into the cards an import sends (R3). Spreadsheets write
// CSV in several dialects: a header row or none, `,` or `;` between fields (the latter where the
// comma is the decimal separator), fields in double quotes with `""` inside. Every row that cannot
// become a card is reported by its line, so the user sees what was left out and why.
import type { ContactCard } from '@shared/people'
import { MAX_IMPORTED_CARDS } from '@shared/limits'

export interface UnreadRow {
  /** The row's first line in the file, counted from 1. */
  line: number
  /** The row as it was written, for the user to find it. */
  text: string
  reason: string
}

export interface ContactCsv {
  cards: ContactCard[]
  unread: UnreadRow[]
}

/** R3's rule for a phone number, once the punctuation people write around the digits is gone (as main checks it). */
const PHONE = /^\+?[0-9]{7,15}$/
const PHONE_PUNCTUATION = /[\s\-.()[\]]/g
/** The longest name main accepts on a card. */
const MAX_NAME = 200

const NAME_HEADER = /\bname\b/i
const PHONE_HEADER = /\b(phone|mobile|tel|telephone|number|cell)\b/i

interface Row {
  line: number
  text: string
  fields: string[]
}

export function readContactCsv(source: string): ContactCsv {
  const text = source.replace(/^\uFEFF/, '')
  const rows = splitRows(text, delimiterOf(text)).filter((row) => row.fields.some((field) => field.trim() !== ''))
  const first = rows[0]
  let nameColumn = 0
  let phoneColumn = 1
  let body = rows
  if (first !== undefined && isHeader(first)) {
    body = rows.slice(1)
    const named = first.fields.findIndex((field) => NAME_HEADER.test(field))
    const phoned = first.fields.findIndex((field) => PHONE_HEADER.test(field))
    if (named !== -1 && phoned !== -1 && named !== phoned) {
      nameColumn = named
      phoneColumn = phoned
    }
  }

  const cards: ContactCard[] = []
  const unread: UnreadRow[] = []
  for (const row of body) {
    const name = (row.fields[nameColumn] ?? '').trim()
    const phone = (row.fields[phoneColumn] ?? '').trim()
    const reason = problemOf(name, phone)
    if (reason !== null) unread.push({ line: row.line, text: row.text, reason })
    else if (cards.length >= MAX_IMPORTED_CARDS) unread.push({ line: row.line, text: row.text, reason: `only the first ${MAX_IMPORTED_CARDS.toLocaleString('en')} contacts are imported` })
    else cards.push({ name, phone: phone.replace(PHONE_PUNCTUATION, '') })
  }
  return { cards, unread }
}

function problemOf(name: string, phone: string): string | null {
  if (name === '' && phone === '') return 'it has neither a name nor a phone number'
  if (name === '') return 'it has no name'
  if (name.length > MAX_NAME) return `the name is longer than ${MAX_NAME} characters`
  if (phone === '') return 'it has no phone number'
  if (!PHONE.test(phone.replace(PHONE_PUNCTUATION, ''))) return `“${phone}” is not a phone number`
  return null
}

/** A first row whose phone column holds no digits at all names the columns rather than a person. */
function isHeader(row: Row): boolean {
  const phone = row.fields[1] ?? ''
  return !/[0-9]/.test(phone) || row.fields.some((field) => NAME_HEADER.test(field) && row.fields.some((other) => PHONE_HEADER.test(other)))
}

/** `;` when the first line has more of them outside quotes than commas, else `,`. */
function delimiterOf(text: string): ';' | ',' {
  let semicolons = 0
  let commas = 0
  let quoted = false
  for (const char of text) {
    if (char === '"') quoted = !quoted
    else if (!quoted && (char === '\n' || char === '\r')) break
    else if (!quoted && char === ';') semicolons++
    else if (!quoted && char === ',') commas++
  }
  return semicolons > commas ? ';' : ','
}

/** RFC 4180 with its common liberties: any line ending, quotes only where a field starts with one. */
function splitRows(text: string, delimiter: ';' | ','): Row[] {
  const rows: Row[] = []
  let fields: string[] = []
  let field = ''
  let quoted = false
  let line = 1
  let rowLine = 1
  let rowStart = 0

  const endRow = (end: number): void => {
    fields.push(field)
    rows.push({ line: rowLine, text: text.slice(rowStart, end), fields })
    fields = []
    field = ''
  }

  for (let at = 0; at < text.length; at++) {
    const char = text[at]
    if (quoted) {
      if (char === '"' && text[at + 1] === '"') {
        field += '"'
        at++
      } else if (char === '"') quoted = false
      else {
        if (char === '\n') line++
        field += char
      }
    } else if (char === '"' && field.trim() === '') {
      field = ''
      quoted = true
    } else if (char === delimiter) {
      fields.push(field)
      field = ''
    } else if (char === '\n' || char === '\r') {
      endRow(at)
      if (char === '\r' && text[at + 1] === '\n') at++
      line++
      rowLine = line
      rowStart = at + 1
    } else field += char
  }
  if (field !== '' || fields.length > 0) endRow(text.length)
  return rows
}
