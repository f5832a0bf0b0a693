import { describe, expect, it } from 'vitest'
import { isIssuedBy, issuerOf, type TokenIssuer } from './token-issuer'

const issuer: TokenIssuer = {
  baseUrl: 'https://api.chat.example/v3',
  v2Url: 'https://api.chat.example/v2',
  v4Url: 'https://api.chat.example/v4',
  imageServiceUrl: 'https://image.chat.example',
  pushUrl: 'https://push.chat.example/faye',
  pushWsUrl: 'wss://push.chat.example/faye',
  appId: 'parley-desktop'
}

describe('isIssuedBy', () => {
  it('holds for the same addresses', () => {
    expect(isIssuedBy(issuer, issuer)).toBe(true)
  })

  it('holds when the deployment only moved its paths', () => {
    expect(isIssuedBy(issuer, { ...issuer, baseUrl: 'https://api.chat.example/api/v3', pushWsUrl: 'wss://push.chat.example/bayeux' })).toBe(true)
  })

  it.each([
    ['baseUrl', 'https://evil.example/v3'],
    ['v2Url', 'http://api.chat.example/v2'],
    ['v4Url', 'https://api.chat.example:8443/v4'],
    ['imageServiceUrl', 'https://images.elsewhere.example'],
    ['pushUrl', 'https://127.0.0.1:9999/faye'],
    ['pushWsUrl', 'ws://push.chat.example/faye']
  ] as const)('fails when %s moves to another origin', (name, address) => {
    expect(isIssuedBy(issuer, { ...issuer, [name]: address })).toBe(false)
  })

  it('fails for another app id', () => {
    expect(isIssuedBy(issuer, { ...issuer, appId: 'someone-else' })).toBe(false)
  })

  it('fails for an address that does not parse, even against itself', () => {
    const broken = { ...issuer, v2Url: 'not an address' }
    expect(isIssuedBy(broken, broken)).toBe(false)
  })
})

describe('issuerOf', () => {
  it('keeps the addresses and the app id, and nothing else', () => {
    expect(issuerOf({ ...issuer, verifyToken: 'secret' } as TokenIssuer)).toEqual(issuer)
  })
})
