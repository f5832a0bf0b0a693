import { describe, expect, it } from 'vitest'
import { directMessageChannel } from './channels'
import { deliveryEvent } from './delivery-events'

const line = (fields: Record<string, unknown> = {}) => ({
  id: '100000000000000001',
  text: 'hello',
  created_at: 1751412575,
  group_id: '42',
  user_id: '7',
  sender_id: '7',
  name: 'Ada',
  source_guid: 'g-1',
  attachments: [],
  ...fields
})

describe('deliveryEvent', () => {
  it('turns a new line into lineCreated, in the app shape and with its alert, keeping the wire message beside it', () => {
    const delivered = deliveryEvent('/user/7', { type: 'line.create', alert: 'Ada: hello', received_at: 1751412575000, subject: line() })
    expect(delivered).toMatchObject({
      event: 'lineCreated',
      payload: { channel: '/user/7', alert: 'Ada: hello', message: { id: '100000000000000001', conversationId: '42', text: 'hello', senderName: 'Ada' } }
    })
    expect(delivered.event === 'lineCreated' && delivered.payload.wire.source_guid).toBe('g-1')
  })

  it('gives DM events their chat id from the channel when the message names none', () => {
    const channel = directMessageChannel('7+12')
    expect(channel).toBe('/direct_message/7_12')
    const delivered = deliveryEvent(channel, { type: 'message.update', alert: '', subject: { id: '5', text: 'edited', created_at: 1, user_id: '12' } })
    expect(delivered).toMatchObject({ event: 'messageUpdated', payload: { message: { conversationId: '7+12', text: 'edited' } } })
  })

  it("gives a direct message on the user's own channel its chat id from its two parties", () => {
    const subject = { id: '6', text: 'hi', created_at: 1, sender_id: '12', user_id: '12', recipient_id: '7', name: 'Grace' }
    const delivered = deliveryEvent('/user/7', { type: 'direct_message.create', alert: 'Grace: hi', subject })
    expect(delivered).toMatchObject({ event: 'directMessageCreated', payload: { alert: 'Grace: hi', message: { conversationId: '7+12' } } })
  })

  it('skips a message that names no conversation, with a warning', () => {
    const delivered = deliveryEvent('/user/7', { type: 'message.deleted', subject: line({ group_id: null, user_id: 'system', sender_id: 'system' }) })
    expect(delivered).toEqual({ event: null, note: { level: 'warn', text: 'push: skipped a message.deleted on /user/7 that names no conversation' } })
  })

  it('turns a reaction into favorite, with the reactions and who reacted', () => {
    const subject = { line: line(), reactions: [{ type: 'unicode', code: '❤️', user_ids: ['8'] }], user_id: '8' }
    const delivered = deliveryEvent('/user/7', { type: 'favorite', alert: '', subject })
    expect(delivered).toMatchObject({ event: 'favorite', payload: { actorId: '8', reactions: [{ code: '❤️', user_ids: ['8'] }], message: { conversationId: '42' } } })
  })

  it('turns being added to a group into membershipCreated', () => {
    const delivered = deliveryEvent('/user/7', { type: 'membership.create', alert: 'You were added', subject: { id: '42', name: 'Hikers' } })
    expect(delivered).toMatchObject({ event: 'membershipCreated', payload: { channel: '/user/7', alert: 'You were added', group: { id: '42', name: 'Hikers' } } })
  })

  it('names the conversation of typing by its channel, and none on a channel of no conversation', () => {
    expect(deliveryEvent('/group/42', { type: 'typing', user_id: '8', started: 1751404765673 })).toEqual({
      event: 'typing',
      payload: { channel: '/group/42', conversationId: '42', userId: '8', startedAt: 1751404765673 }
    })
    expect(deliveryEvent('/user/7', { type: 'typing', user_id: '8', started: 1 })).toMatchObject({ event: 'typing', payload: { conversationId: null } })
  })

  it('says nothing of a keep-alive, notes an unknown type, and warns of an unreadable payload with why', () => {
    expect(deliveryEvent('/user/7', { ping: true })).toEqual({ event: null, note: null })
    expect(deliveryEvent('/user/7', { type: 'ping' })).toEqual({ event: null, note: null })
    expect(deliveryEvent('/user/7', { type: 'read_receipt.create', subject: {} })).toEqual({
      event: null,
      note: { level: 'info', text: 'push: ignored a read_receipt.create delivery on /user/7' }
    })
    const unreadable = deliveryEvent('/group/42', { type: 'line.create', subject: { text: 'no id' } })
    expect(unreadable).toMatchObject({ event: null, note: { level: 'warn', text: 'push: skipped an unreadable delivery on /group/42' } })
    expect(unreadable.event === null && unreadable.note?.details).toBeInstanceOf(Error)
  })
})
