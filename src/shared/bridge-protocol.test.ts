import { describe, expect, it } from 'vitest'
import { decodeBinaryInvoke, encodeBinaryInvoke } from './bridge-protocol'

describe('an invoke carrying bytes', () => {
  it('travels as one binary message and comes back as the same frame', () => {
    const bytes = Uint8Array.from({ length: 300_000 }, (_, index) => index % 251)
    const frame = { type: 'invoke' as const, id: 7, channel: 'uploads:start', payload: { uploadId: 'u-123456', contentType: 'image/png', bytes } }

    const message = encodeBinaryInvoke(frame)

    expect(message).toBeInstanceOf(Uint8Array)
    expect(message?.length).toBeLessThan(bytes.length + 200)
    expect(decodeBinaryInvoke(message ?? new Uint8Array())).toEqual(frame)
  })

  it('keeps several byte fields apart, in order', () => {
    const frame = { type: 'invoke' as const, id: 1, channel: 'x', payload: { a: Uint8Array.of(1, 2), note: 'between', b: Uint8Array.of(3) } }
    expect(decodeBinaryInvoke(encodeBinaryInvoke(frame) ?? new Uint8Array())).toEqual(frame)
  })

  it('is not used for a payload without bytes, which goes as JSON', () => {
    expect(encodeBinaryInvoke({ type: 'invoke', id: 1, channel: 'session:get', payload: {} })).toBeNull()
    expect(encodeBinaryInvoke({ type: 'invoke', id: 1, channel: 'x', payload: null })).toBeNull()
  })

  it('refuses a message whose lengths do not add up', () => {
    const message = encodeBinaryInvoke({ type: 'invoke', id: 1, channel: 'x', payload: { bytes: Uint8Array.of(1, 2, 3) } }) ?? new Uint8Array()
    expect(decodeBinaryInvoke(message.subarray(0, message.length - 1))).toBeUndefined()
    expect(decodeBinaryInvoke(Uint8Array.of(...message, 9))).toBeUndefined()
    expect(decodeBinaryInvoke(Uint8Array.of(0, 0, 0xff, 0xff, 1))).toBeUndefined()
    expect(decodeBinaryInvoke(Uint8Array.of(0, 0))).toBeUndefined()
  })
})
