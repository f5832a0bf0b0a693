import { describe, expect, it } from 'vitest'
import { cutToCodePoints } from './cut-text'

describe('cutToCodePoints', () => {
  it('leaves text within the limit as it is', () => {
    expect(cutToCodePoints('Grace', 50)).toBe('Grace')
    expect(cutToCodePoints('', 50)).toBe('')
  })

  it('counts code points, not UTF-16 units: 50 emoji of two units each fit in 50', () => {
    const emoji = '🍜'.repeat(60)
    expect([...cutToCodePoints(emoji, 50)]).toHaveLength(50)
    expect(cutToCodePoints(emoji, 50)).toBe('🍜'.repeat(50))
  })

  it('never splits an emoji made of several code points: it is left out whole', () => {
    const family = '👩‍👩‍👧' // five code points
    expect(cutToCodePoints(`${'a'.repeat(47)}${family}`, 50)).toBe('a'.repeat(47))
    expect(cutToCodePoints(`${'a'.repeat(45)}${family}b`, 50)).toBe(`${'a'.repeat(45)}${family}`)
  })
})
