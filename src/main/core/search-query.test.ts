import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { asksForAnything, parseSearchQuery, type SearchQuery } from './search-query'

const EMPTY: SearchQuery = { words: [], phrases: [], from: [], in: [], has: [], before: null, after: null, notes: [] }
const read = (input: string): SearchQuery => parseSearchQuery(input)

describe('reading a search query', () => {
  it('reads words, phrases and every filter', () => {
    expect(read('hik "blue whale"  from:ada in:"Weekend Hikers" has:image has:poll has:location before:2024-05-31 after:2024-05-01')).toEqual({
      ...EMPTY,
      words: ['hik'],
      phrases: ['blue whale'],
      from: ['ada'],
      in: ['Weekend Hikers'],
      has: ['image', 'poll', 'location'],
      before: '2024-05-31',
      after: '2024-05-01'
    })
    expect(read('FROM:"Ada Lovelace" Has:Photo has:place')).toEqual({ ...EMPTY, from: ['Ada Lovelace'], has: ['image', 'location'] })
    expect(read('café 爬山 ภูเขา')).toEqual({ ...EMPTY, words: ['café', '爬山', 'ภูเขา'] })
  })

  it('keeps the earliest before: and the latest after:, and any of several from: and in:', () => {
    expect(read('before:2024-05-31 before:2023-01-01 after:2020-01-01 after:2021-06-30 from:a from:b in:x in:y')).toEqual({
      ...EMPTY,
      before: '2023-01-01',
      after: '2021-06-30',
      from: ['a', 'b'],
      in: ['x', 'y']
    })
  })

  it('reads a quote not closed yet as words, and says so', () => {
    const query = read('trip "blue wh')
    expect(query.words).toEqual(['trip', 'blue', 'wh'])
    expect(query.phrases).toEqual([])
    expect(query.notes).toEqual([{ kind: 'unclosedQuote', text: 'No closing quote yet: “blue wh” is searched as words, not as a phrase.' }])
    expect(read('"').notes).toEqual([])
  })

  it('leaves out a date that is not a real one, a has: of another kind and an empty filter, saying so', () => {
    const query = read('walk before:2024-02-30 after:yesterday has:video from: in:""')
    expect(query).toEqual({
      ...EMPTY,
      words: ['walk'],
      notes: [
        { kind: 'badDate', text: 'before: takes a date such as 2024-05-31, so “before:2024-02-30” was left out.' },
        { kind: 'badDate', text: 'after: takes a date such as 2024-05-31, so “after:yesterday” was left out.' },
        { kind: 'unknownFilter', text: 'has: takes image, poll or location, so “has:video” was left out.' },
        { kind: 'emptyFilter', text: 'from: needs something after it, so it was left out.' },
        { kind: 'emptyFilter', text: 'in: needs something after it, so it was left out.' }
      ]
    })
    expect(read('before:2024-2-3').before).toBeNull()
    expect(read('before:2024-02-29').before).toBe('2024-02-29')
  })

  it('reads what only looks like a filter as words', () => {
    expect(read('re:lunch at 10:30 https://example.com/x')).toEqual({
      ...EMPTY,
      words: ['re:lunch', 'at', '10:30', 'https://example.com/x'],
      notes: [{ kind: 'unknownFilter', text: '“re:” is not a filter, so it was searched as a word. Filters are from:, in:, has:, before: and after:.' }]
    })
  })

  it('asks for nothing when nothing but blanks and notes was typed', () => {
    expect(asksForAnything(read('   '))).toBe(false)
    expect(asksForAnything(read('before:nope'))).toBe(false)
    expect(asksForAnything(read('has:poll'))).toBe(true)
    expect(asksForAnything(read('x'))).toBe(true)
  })
})

describe('reading any query (property-based)', () => {
  const SCALE = Number(process.env['FUZZ_SCALE'] ?? 1)
  const anyText = fc.oneof(
    fc.string({ unit: 'binary', maxLength: 200 }),
    fc.string({ unit: fc.constantFrom('"', ':', ' ', 'a', 'from', 'in', 'has', 'before', 'after', '2024-05-31', '\t', '爬', 'é', '\u0301', '\n'), maxLength: 40 }).map((s) => s)
  )

  it('never throws, and every word, phrase and filter it reads is a non-empty part of what was typed', () => {
    fc.assert(
      fc.property(anyText, (input) => {
        const query = parseSearchQuery(input)
        for (const word of query.words) {
          expect(word).not.toBe('')
          expect(/\s/u.test(word)).toBe(false)
          expect(input).toContain(word.replace(/^[^:]*: /u, ''))
        }
        for (const value of [...query.phrases, ...query.from, ...query.in]) {
          expect(value.trim()).toBe(value)
          expect(value).not.toBe('')
          expect(input).toContain(value)
        }
        for (const date of [query.before, query.after]) if (date !== null) expect(date).toMatch(/^\d{4}-\d{2}-\d{2}$/)
        expect(new Set(query.has).size).toBe(query.has.length)
      }),
      { numRuns: 2000 * SCALE }
    )
  })

  it('reads back a query written from words, phrases and filters', () => {
    const word = fc.stringMatching(/^[a-zé爬]{1,8}$/u).filter((w) => !['from', 'in', 'has', 'before', 'after'].includes(w))
    const phrase = fc.array(word, { minLength: 1, maxLength: 3 }).map((words) => words.join(' '))
    const date = fc.date({ min: new Date('1970-01-02T00:00:00Z'), max: new Date('2099-12-30T00:00:00Z'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10))
    fc.assert(
      fc.property(
        fc.record({
          words: fc.array(word, { maxLength: 4 }),
          phrases: fc.array(phrase, { maxLength: 2 }),
          from: fc.array(phrase, { maxLength: 2 }),
          in: fc.array(phrase, { maxLength: 2 }),
          has: fc.uniqueArray(fc.constantFrom('image' as const, 'poll' as const, 'location' as const)),
          before: fc.option(date, { nil: null }),
          after: fc.option(date, { nil: null })
        }),
        (parts) => {
          const typed = [
            ...parts.words,
            ...parts.phrases.map((p) => `"${p}"`),
            ...parts.from.map((p) => `from:"${p}"`),
            ...parts.in.map((p) => `in:"${p}"`),
            ...parts.has.map((h) => `has:${h}`),
            ...(parts.before === null ? [] : [`before:${parts.before}`]),
            ...(parts.after === null ? [] : [`after:${parts.after}`])
          ].join(' ')
          expect(parseSearchQuery(typed)).toEqual({ ...parts, notes: [] })
        }
      ),
      { numRuns: 1000 * SCALE }
    )
  })
})
