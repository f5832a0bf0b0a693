import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, originOf } from './content-security-policy'

describe('contentSecurityPolicy', () => {
  it('allows scripts from the app only and nothing by default', () => {
    const policy = contentSecurityPolicy()
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("script-src 'self';")
    expect(policy).not.toMatch(/script-src[^;]*unsafe/)
    expect(policy).toContain("frame-ancestors 'none'")
  })

  it('adds the image service and the bridge socket', () => {
    const policy = contentSecurityPolicy({ imageOrigins: ['http://127.0.0.1:8080'], connectSources: ['ws://127.0.0.1:4000'] })
    expect(policy).toMatch(/img-src [^;]*http:\/\/127\.0\.0\.1:8080/)
    expect(policy).toContain("connect-src 'self' ws://127.0.0.1:4000")
  })
})

describe('originOf', () => {
  it('keeps http(s) origins only', () => {
    expect(originOf('https://img.example.com/v1/images')).toEqual(['https://img.example.com'])
    expect(originOf('ftp://x')).toEqual([])
    expect(originOf('nonsense')).toEqual([])
  })
})
