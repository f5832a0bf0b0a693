import { describe, expect, it } from 'vitest'
import { looksTheSame, visibleText } from './visible-text'

describe('text as a person sees it', () => {
  it('drops the direction marks pasted mixed-direction text carries, and other invisible characters', () => {
    expect(visibleText('Crew \u200fשלום\u200e 2')).toBe('Crew שלום 2')
    expect(visibleText('\u2067Crew\u2069 \u202bשלום\u202c\u061c')).toBe('Crew שלום')
    expect(visibleText('Zero\u200bwidth\u2060 soft\u00adhyphen\ufeff')).toBe('Zerowidth softhyphen')
    expect(visibleText('❤\ufe0f')).toBe('❤')
  })

  it('reads one spelling of each letter, and spaces as one', () => {
    expect(visibleText('Cafe\u0301  club\u00a0 ')).toBe('Café club')
    expect(looksTheSame('Cafe\u200e\u0301', 'Café')).toBe(true)
  })

  it('still tells apart what a person can see to differ', () => {
    expect(looksTheSame('Book club', 'Book clu')).toBe(false)
    expect(looksTheSame('Book club', 'book club')).toBe(false)
    expect(looksTheSame('Cafe', 'Café')).toBe(false)
    expect(looksTheSame('', 'Book club')).toBe(false)
  })
})
