import { describe, expect, it } from 'vitest'
import { isAppUrl } from './app-url'

const built = { rendererFile: '/opt/Parley/resources/app.asar/out/renderer/index.html' }
const builtUrl = 'file:///opt/Parley/resources/app.asar/out/renderer/index.html'
const dev = { rendererFile: built.rendererFile, devServerUrl: 'http://localhost:5173/' }

describe('isAppUrl', () => {
  it('accepts the built index.html, with or without a fragment or query', () => {
    expect(isAppUrl(builtUrl, built)).toBe(true)
    expect(isAppUrl(`${builtUrl}#/conversations/7`, built)).toBe(true)
    expect(isAppUrl(`${builtUrl}?x=1`, built)).toBe(true)
  })

  it('refuses other files, other schemes and nonsense', () => {
    expect(isAppUrl('file:///tmp/index.html', built)).toBe(false)
    expect(isAppUrl('file:///opt/Parley/resources/app.asar/out/renderer/other.html', built)).toBe(false)
    expect(isAppUrl('https://example.com/index.html', built)).toBe(false)
    expect(isAppUrl('about:blank', built)).toBe(false)
    expect(isAppUrl('not a url', built)).toBe(false)
  })

  it('handles Windows paths and characters that need escaping', () => {
    const windows = { rendererFile: 'C:\\Program Files\\Parley\\out\\renderer\\index.html' }
    expect(isAppUrl('file:///C:/Program%20Files/Parley/out/renderer/index.html', windows)).toBe(true)
  })

  it('in development, accepts the dev server origin only', () => {
    expect(isAppUrl('http://localhost:5173/index.html', dev)).toBe(true)
    expect(isAppUrl('http://localhost:5174/', dev)).toBe(false)
    expect(isAppUrl(builtUrl, dev)).toBe(false)
  })
})
