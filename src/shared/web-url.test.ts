import { describe, expect, it } from 'vitest'
import { isWebUrl } from './web-url'

describe('isWebUrl', () => {
  it('accepts http and https links', () => {
    expect(isWebUrl('https://example.com/a?b#c')).toBe(true)
    expect(isWebUrl('HTTP://EXAMPLE.COM')).toBe(true)
  })

  it('refuses other schemes and text that is not a URL', () => {
    for (const url of ['file:///etc/passwd', 'javascript:alert(1)', 'data:text/html,x', 'ms-settings:', 'mailto:a@b.c', 'example.com', '']) {
      expect(isWebUrl(url), url).toBe(false)
    }
  })
})
