import { describe, expect, it } from 'vitest'
import { foldForSearch, nameMatches } from './search-text'

describe('search text', () => {
  it('folds accents and case away', () => {
    expect(foldForSearch('René Ñúñez')).toBe('rene nunez')
  })

  it('finds a name by any part of it, whatever the accents and case of either side', () => {
    expect(nameMatches('René Descartes', 'rene')).toBe(true)
    expect(nameMatches('Rene Descartes', 'RENÉ')).toBe(true)
    expect(nameMatches('René Descartes', ' cart ')).toBe(true)
    expect(nameMatches('René Descartes', 'Pascal')).toBe(false)
  })

  it('finds a name as it is seen, whatever invisible marks it holds', () => {
    expect(nameMatches('Crew \u200fשלום\u200e 2', 'crew שלום')).toBe(true)
    expect(nameMatches('Zero\u200bwidth', 'zerowidth')).toBe(true)
  })

  it('matches everything with an empty query', () => {
    expect(nameMatches('Anyone', '  ')).toBe(true)
  })
})
