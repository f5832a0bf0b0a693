import { describe, expect, it } from 'vitest'
import { TEST_ISSUER } from '../../../tests/support/memory-platform'
import { decodeKeptToken, encodeKeptToken } from './kept-token'

describe('the kept token', () => {
  const issued = { token: 'secret-token', issuer: TEST_ISSUER }

  it('comes back as it was kept, with its issuer', () => {
    expect(decodeKeptToken(encodeKeptToken(issued))).toEqual(issued)
  })

  it.each([
    ['a bare token, as an older version kept it', 'secret-token'],
    ['no issuer', JSON.stringify({ token: 'secret-token' })],
    ['an issuer missing an address', JSON.stringify({ token: 'secret-token', issuer: { ...issued.issuer, pushWsUrl: undefined } })],
    ['an empty token', JSON.stringify({ ...issued, token: '' })],
    ['nothing', '']
  ])('is nothing for %s', (_case, text) => {
    expect(decodeKeptToken(text)).toBeNull()
  })
})
