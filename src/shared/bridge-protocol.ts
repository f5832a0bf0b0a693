// The frames that carry the contract over browser mode's WebSocket, declared once for both ends:
// the page (src/renderer/src/lib/browser-bridge.ts) and the host (src/main/browser/host.ts), which
// also parses every page frame with a zod schema held to these types.
import type { EventName, IpcResult } from './window-api'

/** Where the page opens the socket, on the host that served it. */
export const BRIDGE_PATH = '/bridge'

/** Page → host: a call of the contract, or whether the page is being looked at. */
export type PageFrame =
  | { type: 'invoke'; id: number; channel: string; payload: unknown }
  /** The page became visible and focused, or stopped being so. */
  | { type: 'focus'; focused: boolean }

/** Host → page: the answer to a call, or one of main's events. */
export type HostFrame =
  | { type: 'result'; id: number; result: IpcResult<unknown> }
  | { type: 'event'; event: EventName; payload: unknown }

// Bytes over the bridge. JSON has no bytes, and base64 would grow a 10 MiB picture by a third and
// cost the page a copy as a string; so an invoke whose payload holds a `Uint8Array` (a picture to
// upload) travels as one binary message instead, and arrives at the host as the same payload:
//   [header length: 4 bytes, big-endian][header: the invoke frame as UTF-8 JSON, each byte field
//   of its payload replaced by {"$bytes": <length>}][each field's bytes, in the header's order]
// Only the payload's own fields may be bytes: that is all any channel of the contract needs.

/** A text frame's limit: every call but an upload is small. */
export const MAX_TEXT_FRAME_BYTES = 1024 * 1024

/** A binary frame's limit: the largest picture the image service takes (10 MiB), and room for its header. */
export const MAX_BINARY_FRAME_BYTES = 10 * 1024 * 1024 + 64 * 1024

const HEADER_LENGTH_BYTES = 4

type InvokeFrame = Extract<PageFrame, { type: 'invoke' }>

/** The frame as one binary message, or null when its payload holds no bytes (and it goes as JSON). */
export function encodeBinaryInvoke(frame: InvokeFrame): Uint8Array<ArrayBuffer> | null {
  const payload = frame.payload
  if (typeof payload !== 'object' || payload === null) return null
  const parts: Uint8Array[] = []
  const fields = Object.entries(payload).map(([key, value]): [string, unknown] => {
    if (!(value instanceof Uint8Array)) return [key, value]
    parts.push(value)
    return [key, { $bytes: value.length }]
  })
  if (parts.length === 0) return null
  const header = new TextEncoder().encode(JSON.stringify({ ...frame, payload: Object.fromEntries(fields) }))
  const message = new Uint8Array(HEADER_LENGTH_BYTES + header.length + parts.reduce((sum, part) => sum + part.length, 0))
  new DataView(message.buffer).setUint32(0, header.length)
  message.set(header, HEADER_LENGTH_BYTES)
  let offset = HEADER_LENGTH_BYTES + header.length
  for (const part of parts) {
    message.set(part, offset)
    offset += part.length
  }
  return message
}

/** The frame a binary message carries, its byte fields restored, or undefined when the message is not one. */
export function decodeBinaryInvoke(message: Uint8Array): unknown {
  if (message.length < HEADER_LENGTH_BYTES) return undefined
  const headerLength = new DataView(message.buffer, message.byteOffset, message.byteLength).getUint32(0)
  let offset = HEADER_LENGTH_BYTES + headerLength
  if (offset > message.length) return undefined
  const frame: unknown = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(message.subarray(HEADER_LENGTH_BYTES, offset)))
  if (typeof frame !== 'object' || frame === null || !('payload' in frame)) return undefined
  const payload = frame.payload
  if (typeof payload !== 'object' || payload === null) return undefined
  const fields: [string, unknown][] = []
  for (const [key, value] of Object.entries(payload)) {
    const length = bytesLength(value)
    if (length === null) {
      fields.push([key, value])
      continue
    }
    if (offset + length > message.length) return undefined
    // A plain copy (not a Node Buffer, which slice would give), so the field does not keep the
    // whole message alive nor share its buffer.
    fields.push([key, new Uint8Array(message.subarray(offset, offset + length))])
    offset += length
  }
  if (offset !== message.length) return undefined
  return { ...frame, payload: Object.fromEntries(fields) }
}

function bytesLength(value: unknown): number | null {
  if (typeof value !== 'object' || value === null || !('$bytes' in value)) return null
  const length = value.$bytes
  return typeof length === 'number' && Number.isSafeInteger(length) && length >= 0 ? length : null
}
