import { describe, expect, it } from 'vitest'
import { splitLinks } from './links'

describe('splitLinks', () => {
  it('finds http and https links between plain text', () => {
    expect(splitLinks('see https://example.org/a?b=1 and http://x.io')).toEqual([
      { kind: 'text', text: 'see ' },
      { kind: 'link', text: 'https://example.org/a?b=1', url: 'https://example.org/a?b=1' },
      { kind: 'text', text: ' and ' },
      { kind: 'link', text: 'http://x.io', url: 'http://x.io' }
    ])
  })

  it('leaves sentence punctuation and enclosing parentheses out of the link', () => {
    expect(splitLinks('(https://example.org/a).').map((p) => p.text)).toEqual(['(', 'https://example.org/a', ').'])
  })

  it('keeps a parenthesis that belongs to the address', () => {
    const url = 'https://en.wikipedia.org/wiki/Parley_(film)'
    expect(splitLinks(`${url}!`)[0]).toEqual({ kind: 'link', text: url, url })
  })

  it('ignores other schemes', () => {
    expect(splitLinks('javascript:alert(1) file:///etc/passwd')).toEqual([
      { kind: 'text', text: 'javascript:alert(1) file:///etc/passwd' }
    ])
  })
})
