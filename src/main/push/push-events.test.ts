import { describe, expect, it } from 'vitest'
import { decodePushData } from './push-events'

describe('push data', () => {
  it('reads the idle long-polling ping and unknown types without failing', () => {
    expect(decodePushData({ ping: true })).toEqual({ ok: true, event: { type: 'ping' } })
    expect(decodePushData({ type: 'read_receipt.create', subject: {} })).toEqual({ ok: true, event: { type: 'unknown', rawType: 'read_receipt.create' } })
  })

  it('reports a known type whose payload is unusable', () => {
    expect(decodePushData({ type: 'line.create', subject: { text: 'no id' } }).ok).toBe(false)
    expect(decodePushData({ type: 'typing', started: 1 }).ok).toBe(false)
    expect(decodePushData({ type: 'favorite', subject: { reactions: [] } }).ok).toBe(false)
    expect(decodePushData('garbage').ok).toBe(false)
  })
})
