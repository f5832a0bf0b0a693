import { describe, expect, it } from 'vitest'
import { MAX_MESSAGE_LENGTH } from '../../shared/limits'
import { requestSchemas } from './request-schemas'

describe('request schemas', () => {
  const send = (text: string): boolean =>
    requestSchemas['messages:send'].safeParse({ conversationId: 'g1', text, clientId: '0b8f6f3e-6a38-4a51-9f0e-3d1c1e3f6a11' }).success

  it('takes message text up to the limit the composer shows, and no longer', () => {
    expect(send('x'.repeat(MAX_MESSAGE_LENGTH))).toBe(true)
    expect(send('x'.repeat(MAX_MESSAGE_LENGTH + 1))).toBe(false)
  })

  it('opens http(s) links only', () => {
    const open = (url: string): boolean => requestSchemas['shell:openExternal'].safeParse({ url }).success
    expect(open('https://example.com/page')).toBe(true)
    expect(open('http://127.0.0.1:8080/x')).toBe(true)
    expect(open('file:///etc/passwd')).toBe(false)
    expect(open('javascript:alert(1)')).toBe(false)
    expect(open('not a url')).toBe(false)
  })
})
