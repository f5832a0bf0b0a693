import { describe, expect, it } from 'vitest'
import { checkedCards } from './contact-cards'

describe('checkedCards', () => {
  it('trims names and strips spaces, dashes, dots and brackets from phone numbers', () => {
    expect(
      checkedCards([
        { name: '  Grace Hopper ', phone: '+1 (555) 010-0199' },
        { name: 'Alan', phone: '[44] 20.7946.0018' },
        { name: 'Ada', phone: '5550100' }
      ])
    ).toEqual([
      { name: 'Grace Hopper', phone: '+15550100199' },
      { name: 'Alan', phone: '442079460018' },
      { name: 'Ada', phone: '5550100' }
    ])
  })

  it('names every bad row, counted from 1, and refuses the whole list', () => {
    const attempt = (): unknown =>
      checkedCards([
        { name: 'Fine', phone: '+15550100199' },
        { name: ' ', phone: '+15550100198' },
        { name: 'Short', phone: '12345' },
        { name: 'Letters', phone: '555-CALL-NOW' },
        { name: '', phone: '' },
        { name: 'Too long', phone: '+1234567890123456' },
        { name: 'Plus inside', phone: '1+5550100199' }
      ])
    expect(attempt).toThrowError(
      expect.objectContaining({
        code: 'VALIDATION',
        message:
          'Nothing was imported. Fix these rows and try again: row 2 has no name; row 3: “12345” is not a phone number; ' +
          'row 4: “555-CALL-NOW” is not a phone number; row 5 has no name; row 5 has no phone number; ' +
          'row 6: “+1234567890123456” is not a phone number; row 7: “1+5550100199” is not a phone number.'
      })
    )
  })

  it('names the first ten bad rows and counts the rest', () => {
    const cards = Array.from({ length: 13 }, (_, index) => ({ name: `Person ${index}`, phone: 'none' }))
    expect(() => checkedCards(cards)).toThrowError(/row 10: “none” is not a phone number; and 3 more\.$/)
  })

  it('refuses an empty list', () => {
    expect(() => checkedCards([])).toThrowError(expect.objectContaining({ code: 'VALIDATION', message: 'There is nobody to import: the list is empty.' }))
  })
})
