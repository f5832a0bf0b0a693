import { describe, expect, it } from 'vitest'
import { MAX_MESSAGE_LENGTH } from '@shared/limits'
import { requestSchemas } from './request-schemas'

describe('request schemas', () => {
  const send = (text: string): boolean =>
    requestSchemas['messages:send'].safeParse({ conversationId: 'g1', text, clientId: '0b8f6f3e-6a38-4a51-9f0e-3d1c1e3f6a11' }).success

  it('takes message text up to the limit the composer shows, and no longer', () => {
    expect(send('x'.repeat(MAX_MESSAGE_LENGTH))).toBe(true)
    expect(send('x'.repeat(MAX_MESSAGE_LENGTH + 1))).toBe(false)
  })

  it('changes Keep full history only through Settings ▸ Storage, which starts and stops the download with it', () => {
    const update = (changes: unknown): boolean => requestSchemas['settings:update'].safeParse({ changes }).success
    expect(update({ sound: false })).toBe(true)
    expect(update({ keepFullHistory: false })).toBe(false)
    expect(requestSchemas['storage:keepFullHistory'].safeParse({ on: false }).success).toBe(true)
    expect(requestSchemas['storage:keepFullHistory'].safeParse({ on: 'no' }).success).toBe(false)
  })

  it('opens http(s) links only', () => {
    const open = (url: string): boolean => requestSchemas['shell:openExternal'].safeParse({ url }).success
    expect(open('https://example.com/page')).toBe(true)
    expect(open('http://127.0.0.1:8080/x')).toBe(true)
    expect(open('file:///etc/passwd')).toBe(false)
    expect(open('javascript:alert(1)')).toBe(false)
    expect(open('not a url')).toBe(false)
  })

  it('sends a place only when it is on Earth, as the Share location dialog checks it', () => {
    const withAttachments = (attachments: unknown): boolean =>
      requestSchemas['messages:send'].safeParse({ conversationId: 'g1', text: '', clientId: '0b8f6f3e-6a38-4a51-9f0e-3d1c1e3f6a11', attachments })
        .success
    const place = { type: 'location', lat: '48.8584', lng: '2.2945', name: 'Eiffel Tower' }
    expect(withAttachments([place])).toBe(true)
    expect(withAttachments([{ ...place, name: '' }])).toBe(true)
    expect(withAttachments([{ ...place, lat: '90.5' }])).toBe(false)
    expect(withAttachments([{ ...place, lng: '-181' }])).toBe(false)
    expect(withAttachments([{ ...place, lat: 'NaN' }])).toBe(false)
    expect(withAttachments([{ ...place, name: 'a'.repeat(201) }])).toBe(false)
    expect(withAttachments([{ ...place, extra: 1 }])).toBe(false)
    expect(withAttachments([{ type: 'location', lat: 1, lng: 2, name: 'x' }])).toBe(false)
  })

  it('sends up to ten pictures at http(s) addresses, and nothing else as an attachment', () => {
    const withAttachments = (attachments: unknown): boolean =>
      requestSchemas['messages:send'].safeParse({ conversationId: 'g1', text: '', clientId: '0b8f6f3e-6a38-4a51-9f0e-3d1c1e3f6a11', attachments })
        .success
    const picture = { type: 'image', url: 'http://127.0.0.1:8080/image/i/0123456789abcdef0123456789abcdef' }
    expect(withAttachments([picture])).toBe(true)
    expect(withAttachments(Array.from({ length: 10 }, () => picture))).toBe(true)
    expect(withAttachments(Array.from({ length: 11 }, () => picture))).toBe(false)
    expect(withAttachments([{ type: 'image', url: 'javascript:alert(1)' }])).toBe(false)
    expect(withAttachments([{ type: 'poll', pollId: '1' }])).toBe(false)
  })

  it('uploads bytes of 1 B to 10 MiB, of the three picture types', () => {
    const upload = (contentType: string, bytes: unknown): boolean =>
      requestSchemas['uploads:start'].safeParse({ uploadId: '0b8f6f3e-6a38-4a51', contentType, bytes }).success
    expect(upload('image/png', new Uint8Array(10 * 1024 * 1024))).toBe(true)
    expect(upload('image/png', new Uint8Array(10 * 1024 * 1024 + 1))).toBe(false)
    expect(upload('image/png', new Uint8Array(0))).toBe(false)
    expect(upload('image/webp', new Uint8Array(8))).toBe(false)
    expect(upload('image/png', [1, 2, 3])).toBe(false)
  })

  it('lets a verification code through only when V3 could take it, so a typo never spends an attempt', () => {
    const confirm = (code: string): boolean => requestSchemas['session:confirmCode'].safeParse({ code }).success
    expect(confirm('123456')).toBe(true)
    expect(confirm(' 123456 ')).toBe(true)
    expect(confirm('abcd1234efgh5678')).toBe(true)
    expect(confirm('12345a')).toBe(false)
    expect(confirm('12345')).toBe(false)
    expect(confirm('')).toBe(false)
    const turnOn = (code: string): boolean => requestSchemas['security:confirmTwoStep'].safeParse({ code }).success
    expect(turnOn('123456')).toBe(true)
    expect(turnOn('12345a')).toBe(false)
    expect(turnOn('abcd1234efgh5678')).toBe(false)
  })

  it('searches with a query of up to 1,000 characters, and goes on only from a cursor the store wrote', () => {
    const search = (request: unknown): boolean => requestSchemas['search:messages'].safeParse(request).success
    expect(search({ query: 'x'.repeat(1000) })).toBe(true)
    expect(search({ query: 'x'.repeat(1001) })).toBe(false)
    expect(search({ query: 'hik', conversationId: 'g1', after: '1700000000.180000000000000001.42' })).toBe(true)
    expect(search({ query: 'hik', after: "1' OR 1=1" })).toBe(false)
    expect(search({ query: 'hik', after: '1.2' })).toBe(false)
  })
})
