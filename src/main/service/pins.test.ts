import { describe, expect, it } from 'vitest'
import { wireMessage } from '../api/decoders'
import { pinnedMessageId } from './pins'

const system = { id: '9', text: 'Ada pinned a message', created_at: 1_700_000_000, system: true, sender_type: 'system' }

describe('which message a pin is about', () => {
  it('reads the id from a message.pinned system message, as a string or a number', () => {
    expect(pinnedMessageId(wireMessage.parse({ ...system, event: { type: 'message.pinned', data: { message_id: '42', pinned: true } } }))).toBe('42')
    expect(pinnedMessageId(wireMessage.parse({ ...system, event: { type: 'message.pinned', data: { message_id: 43, pinned: false } } }))).toBe('43')
  })

  it('is null for other messages and for a pin event that names no message', () => {
    expect(pinnedMessageId(wireMessage.parse({ ...system, event: { type: 'membership.announce.joined', data: { message_id: '42' } } }))).toBeNull()
    expect(pinnedMessageId(wireMessage.parse({ ...system, event: { type: 'message.pinned', data: { message_id: '' } } }))).toBeNull()
    expect(pinnedMessageId(wireMessage.parse({ ...system, event: { type: 'message.pinned', data: 'junk' } }))).toBeNull()
    expect(pinnedMessageId(wireMessage.parse({ id: '1', text: 'hi', created_at: 1_700_000_000 }))).toBeNull()
  })
})
