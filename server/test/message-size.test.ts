import { describe, expect, it } from 'vitest'
import { MessageSizeWatch } from '../src/push/message-size.js'

/** The frame-header reading behind the WebSocket batch limit (§18.30), on frames built by hand (RFC 6455, section 5.2). */

const LIMIT = 1000

/** A masked client frame: FIN bit, opcode, payload of `length` bytes (zeros). */
function frame(opcode: number, length: number, final = true): Buffer {
  const lengthField =
    length < 126 ? Buffer.from([0x80 | length]) : length < 65536 ? Buffer.from([0x80 | 126, length >> 8, length & 0xff]) : longLength(length)
  return Buffer.concat([Buffer.from([(final ? 0x80 : 0) | opcode]), lengthField, Buffer.from([1, 2, 3, 4]), Buffer.alloc(length)])
}

function longLength(length: number): Buffer {
  const field = Buffer.alloc(9)
  field[0] = 0x80 | 127
  field.writeBigUInt64BE(BigInt(length), 1)
  return field
}

/** Feeds `bytes` in pieces of `piece` bytes; returns whether the watch tripped, and after how many bytes. */
function feed(bytes: Buffer, piece: number): number | null {
  let trippedAt: number | null = null
  let fed = 0
  const watch = new MessageSizeWatch(LIMIT, () => (trippedAt = fed))
  for (let offset = 0; offset < bytes.length && trippedAt === null; offset += piece) {
    const chunk = bytes.subarray(offset, offset + piece)
    fed = offset + chunk.length
    watch.take(chunk)
  }
  return trippedAt
}

describe('MessageSizeWatch', () => {
  for (const piece of [1, 3, 7, 64, 100_000]) {
    describe(`read ${piece} byte${piece === 1 ? '' : 's'} at a time`, () => {
      it('lets messages up to the limit through, however many there are', () => {
        const stream = Buffer.concat([frame(1, LIMIT), frame(1, 10), frame(2, 500), frame(1, LIMIT), frame(1, 125), frame(1, 126)])
        expect(feed(stream, piece)).toBeNull()
      })

      it('trips on a frame that announces more, as soon as its header is in, with 7-, 16- and 64-bit lengths', () => {
        const lead = frame(1, 20)
        for (const length of [LIMIT + 1, 70_000]) {
          const trippedAt = feed(Buffer.concat([lead, frame(2, length)]), piece)
          expect(trippedAt).not.toBeNull()
          // Before any of the payload had to be read: within the piece that completed the header.
          expect(trippedAt).toBeLessThan(lead.length + 14 + piece)
        }
        let trippedTiny = false
        const tiny = new MessageSizeWatch(100, () => (trippedTiny = true))
        tiny.take(frame(1, 100))
        expect(trippedTiny).toBe(false)
        tiny.take(frame(1, 101))
        expect(trippedTiny).toBe(true)
      })

      it('adds up the fragments of one message, and not control frames between them', () => {
        const fits = Buffer.concat([frame(1, 400, false), frame(9, 125), frame(0, 400, false), frame(10, 125), frame(0, 200), frame(1, 900)])
        expect(feed(fits, piece)).toBeNull()
        const over = Buffer.concat([frame(1, 400, false), frame(9, 125), frame(0, 400, false), frame(0, 201)])
        expect(feed(over, piece)).not.toBeNull()
      })

      it('trips on a 64-bit length beyond any number', () => {
        const header = Buffer.concat([Buffer.from([0x82, 0x80 | 127]), Buffer.from([0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff]), Buffer.from([1, 2, 3, 4])])
        expect(feed(header, piece)).not.toBeNull()
      })
    })
  }
})
