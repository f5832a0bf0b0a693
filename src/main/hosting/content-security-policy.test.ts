import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { contentSecurityPolicy, PAGE_IMAGE_SOURCES, pageContentSecurityPolicy } from './content-security-policy'

/** The policy in the renderer's index.html, whitespace as the browser reads it. */
function metaPolicy(): string {
  const html = readFileSync(new URL('../../renderer/index.html', import.meta.url), 'utf8')
  const content = /<meta\s+http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html)?.[1]
  if (content === undefined) throw new Error('src/renderer/index.html has no Content-Security-Policy <meta>')
  return content.trim().replace(/\s+/g, ' ')
}

function parse(policy: string): Map<string, string[]> {
  return new Map(
    policy
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts): parts is [string, ...string[]] => parts[0] !== undefined && parts[0] !== '')
      .map(([name, ...sources]) => [name, sources])
  )
}

describe('contentSecurityPolicy', () => {
  it('allows scripts from the app only and nothing by default', () => {
    const policy = contentSecurityPolicy()
    expect(policy).toContain("default-src 'none'")
    expect(policy).toContain("script-src 'self';")
    expect(policy).not.toMatch(/script-src[^;]*unsafe/)
    expect(policy).toContain("frame-ancestors 'none'")
  })

  it('loads fonts from the app only: the emoji font it ships, never one from elsewhere or from data:', () => {
    const policy = parse(contentSecurityPolicy({ pictureOrigins: ['https://pictures.example.com'] }))
    expect(policy.get('font-src')).toEqual(["'self'"])
  })

  it('lets the composer preview a picture from an object URL, and nothing else from blob:', () => {
    const policy = parse(contentSecurityPolicy())
    expect(policy.get('img-src')).toContain('blob:')
    for (const [name, sources] of policy) if (name !== 'img-src') expect(sources, name).not.toContain('blob:')
  })

  it('admits pictures from exactly the picture origins given and what the page makes itself, and connects only to its own origin', () => {
    const policy = contentSecurityPolicy({ pictureOrigins: ['http://127.0.0.1:8080', 'https://pictures.example.com'] })
    expect(parse(policy).get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'parley-picture:', 'http://127.0.0.1:8080', 'https://pictures.example.com'])
    expect(policy).toContain("connect-src 'self';")
  })

  it('admits Electron\'s scheme for pictures kept on this device, and nothing else of it', () => {
    const policy = parse(contentSecurityPolicy())
    for (const [name, sources] of policy) if (name !== 'img-src') expect(sources, name).not.toContain('parley-picture:')
    expect(parse(pageContentSecurityPolicy()).get('img-src')).toContain('parley-picture:')
  })

  it('admits no https: origin, nor any loopback port, that was not given', () => {
    const images = parse(contentSecurityPolicy({ pictureOrigins: ['https://image.example.com'] })).get('img-src') ?? []
    for (const wide of ['https:', 'http:', '*', ...PAGE_IMAGE_SOURCES]) expect(images).not.toContain(wide)
    expect(parse(contentSecurityPolicy()).get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'parley-picture:'])
  })
})

describe('the page policy in index.html', () => {
  it('is the one this module writes', () => {
    expect(metaPolicy()).toBe(pageContentSecurityPolicy())
  })

  it('agrees with the header, but for the picture origins it cannot know and what a <meta> cannot carry', () => {
    const header = parse(contentSecurityPolicy({ pictureOrigins: ['http://127.0.0.1:8080'] }))
    const meta = parse(metaPolicy())

    expect([...meta.keys()].toSorted()).toEqual([...header.keys()].filter((name) => name !== 'frame-ancestors').toSorted())
    for (const [name, sources] of meta) {
      if (name === 'img-src') continue
      expect(sources, name).toEqual(header.get(name))
    }
    // Every origin a picture origin may have, for the header to narrow (both apply where it is sent).
    expect(meta.get('img-src')).toEqual(["'self'", 'data:', 'blob:', 'parley-picture:', ...PAGE_IMAGE_SOURCES])
  })

  it('lets no page load scripts, frames or connections from anywhere else', () => {
    const meta = parse(metaPolicy())
    expect(meta.get('default-src')).toEqual(["'none'"])
    expect(meta.get('script-src')).toEqual(["'self'"])
    expect(meta.get('connect-src')).toEqual(["'self'"])
    expect(meta.get('object-src')).toEqual(["'none'"])
    expect(meta.get('img-src')).not.toContain('http:')
  })
})
