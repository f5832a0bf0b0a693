import { describe, expect, it } from 'vitest'
import { candidateFromText } from './typed-address'

describe('candidateFromText', () => {
  it('reads an e-mail address', () => {
    expect(candidateFromText(' grace@example.org ')).toEqual({ nickname: 'grace@example.org', email: 'grace@example.org' })
  })

  it('reads a phone number with the usual separators', () => {
    expect(candidateFromText('+1 (555) 010-2000')).toEqual({ nickname: '+1 (555) 010-2000', phone: '+1 (555) 010-2000' })
  })

  it('refuses a name, a short number and an address without a domain', () => {
    expect(candidateFromText('Grace Hopper')).toBeNull()
    expect(candidateFromText('1234')).toBeNull()
    expect(candidateFromText('grace@')).toBeNull()
    expect(candidateFromText('')).toBeNull()
  })

  it('keeps the nickname within the 50 characters a nickname may have', () => {
    const address = `${'a'.repeat(60)}@example.org`
    const candidate = candidateFromText(address)
    expect(candidate).toMatchObject({ email: address })
    expect(candidate?.nickname).toHaveLength(50)
  })
})
