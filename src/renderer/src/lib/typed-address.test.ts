import { describe, expect, it } from 'vitest'
import { addressFromText, typedCandidate } from './typed-address'

describe('addressFromText', () => {
  it('reads an e-mail address', () => {
    expect(addressFromText(' grace@example.org ')).toEqual({ email: 'grace@example.org' })
  })

  it('reads a phone number with the usual separators', () => {
    expect(addressFromText('+1 (555) 010-2000')).toEqual({ phone: '+1 (555) 010-2000' })
  })

  it('refuses a name, a short number and an address without a domain', () => {
    expect(addressFromText('Grace Hopper')).toBeNull()
    expect(addressFromText('1234')).toBeNull()
    expect(addressFromText('grace@')).toBeNull()
    expect(addressFromText('')).toBeNull()
  })
})

describe('typedCandidate', () => {
  it('names the person by the name given, never by the address', () => {
    expect(typedCandidate({ phone: '+1 555 010 2000' }, ' Mary Jackson ')).toEqual({ nickname: 'Mary Jackson', phone: '+1 555 010 2000' })
  })

  it('keeps the name within the 50 code points a nickname may have, never splitting an emoji', () => {
    expect(typedCandidate({ email: 'm@x.test' }, 'a'.repeat(60)).nickname).toBe('a'.repeat(50))
    expect(typedCandidate({ email: 'm@x.test' }, `${'🍜'.repeat(49)}👩‍👩‍👧`).nickname).toBe('🍜'.repeat(49))
  })
})
