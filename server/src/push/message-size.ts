import type { Duplex } from 'node:stream'

/**
 * The size limit of a Bayeux batch on a WebSocket (§18.30). faye's adapter gives the WebSockets it
 * accepts no limit of their own (websocket-driver's default is 64 MiB), so the gateway reads the
 * frame headers the client sends (RFC 6455, section 5.2), adds up each message's payload, and
 * closes the socket with 1009 as soon as a header announces more than the limit, before that
 * payload has even arrived. The gateway offers no WebSocket extension (no compression), so the
 * payload bytes of a message are the bytes of its batch.
 */

/** A close frame (server frames are unmasked) with status 1009, "message too big". */
const CLOSE_MESSAGE_TOO_BIG = Buffer.from([0x88, 0x02, 0x03, 0xf1])
/** How long a refused client has to read the close frame before its socket is destroyed. */
const CLOSE_GRACE_MS = 1_000
const CONTINUATION = 0x0
const FIRST_CONTROL_OPCODE = 0x8

export class MessageSizeWatch {
  readonly #limit: number
  readonly #onTooLarge: () => void
  /** Header bytes of the next frame received so far (a header is 2 to 14 bytes). */
  #header = Buffer.alloc(0)
  /** Payload bytes of the current frame still to pass over. */
  #payloadLeft = 0
  /** Payload bytes of the data message in progress, over all its frames. */
  #messageBytes = 0
  #tripped = false

  constructor(limit: number, onTooLarge: () => void) {
    this.#limit = limit
    this.#onTooLarge = onTooLarge
  }

  /** The client's bytes, in the order they arrived. */
  take(chunk: Buffer): void {
    let offset = 0
    while (!this.#tripped && offset < chunk.length) {
      if (this.#payloadLeft > 0) {
        const skipped = Math.min(this.#payloadLeft, chunk.length - offset)
        this.#payloadLeft -= skipped
        offset += skipped
        continue
      }
      const known = this.#header.length
      const header = Buffer.concat([this.#header, chunk.subarray(offset, offset + 14)])
      const frame = readFrameHeader(header)
      if (frame === null) {
        this.#header = header
        return
      }
      this.#header = Buffer.alloc(0)
      offset += frame.headerLength - known
      this.#payloadLeft = frame.payloadLength
      if (frame.opcode >= FIRST_CONTROL_OPCODE) continue
      this.#messageBytes = (frame.opcode === CONTINUATION ? this.#messageBytes : 0) + frame.payloadLength
      if (this.#messageBytes > this.#limit) {
        this.#tripped = true
        this.#onTooLarge()
        return
      }
      if (frame.final) this.#messageBytes = 0
    }
  }
}

interface FrameHeader {
  final: boolean
  opcode: number
  headerLength: number
  /** Capped at MAX_SAFE_INTEGER, which passes any limit anyway. */
  payloadLength: number
}

/** The header at the start of `bytes`, or null while it is incomplete. */
function readFrameHeader(bytes: Buffer): FrameHeader | null {
  if (bytes.length < 2) return null
  const first = bytes[0] ?? 0
  const second = bytes[1] ?? 0
  const short = second & 0x7f
  const lengthBytes = short === 126 ? 2 : short === 127 ? 8 : 0
  const headerLength = 2 + lengthBytes + (second & 0x80 ? 4 : 0)
  if (bytes.length < headerLength) return null
  let payloadLength = short
  if (lengthBytes === 2) payloadLength = bytes.readUInt16BE(2)
  if (lengthBytes === 8) {
    const long = bytes.readBigUInt64BE(2)
    payloadLength = long > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(long)
  }
  return { final: (first & 0x80) !== 0, opcode: first & 0x0f, headerLength, payloadLength }
}

/**
 * Watches a WebSocket that faye has just accepted, bytes left over from the upgrade request
 * (`head`) included. A client that sends an oversized message gets a 1009 close frame, and faye's
 * parser gets nothing more of its socket.
 */
export function limitMessageSize(socket: Duplex, head: Buffer, limit: number): void {
  const watch = new MessageSizeWatch(limit, () => {
    // After faye has written its 101 answer (on the next tick after the upgrade), never before.
    setImmediate(() => {
      socket.removeListener('data', take)
      socket.unpipe()
      // Whatever else arrives is read and dropped, so the client can finish its send and read the close.
      socket.resume()
      socket.end(CLOSE_MESSAGE_TOO_BIG)
      setTimeout(() => socket.destroy(), CLOSE_GRACE_MS).unref()
    })
  })
  const take = (chunk: Buffer): void => watch.take(chunk)
  watch.take(head)
  socket.on('data', take)
}
