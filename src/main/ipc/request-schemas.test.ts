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
})
