import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import WebSocket from 'ws'
import { MAX_BATCH_BYTES } from '../src/push/gateway.js'
import { RawBayeux, startTestService, type Json, type TestService } from './support.js'

/**
 * §18.30: a Bayeux batch larger than 1 MiB is refused: over HTTP with 413 and the failure body,
 * over a WebSocket by closing it with 1009. The limit is per batch (one POST body, one WebSocket
 * message however it is fragmented), so a batch of exactly 1 MiB is still answered.
 */

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})

afterAll(async () => {
  await service.close()
})

const MIB = 1024 * 1024

/** A handshake batch of exactly `bytes` bytes, padded with an `ext` the service ignores. */
function handshakeOfSize(bytes: number, id = '1'): string {
  const bare = (padding: string): string =>
    JSON.stringify([{ channel: '/meta/handshake', version: '1.0', supportedConnectionTypes: ['long-polling', 'websocket'], id, ext: { padding } }])
  const text = bare('x'.repeat(bytes - bare('').length))
  expect(Buffer.byteLength(text)).toBe(bytes)
  return text
}

async function openSocket(): Promise<{ socket: WebSocket; replies: Json[]; closed: Promise<number> }> {
  const socket = new WebSocket(`${service.boundOrigin.replace(/^http/, 'ws')}/faye`)
  const replies: Json[] = []
  socket.on('message', (raw) => replies.push(...(JSON.parse(raw.toString()) as Json[])))
  // A client still sending when the service closes may see its socket reset: the close code is what counts.
  socket.on('error', () => undefined)
  const closed = new Promise<number>((resolve) => socket.once('close', (code) => resolve(code)))
  await new Promise((resolve, reject) => {
    socket.once('open', resolve)
    socket.once('error', reject)
  })
  return { socket, replies, closed }
}

async function replyTo(socket: WebSocket, replies: Json[], id: string): Promise<Json> {
  const deadline = Date.now() + 10_000
  for (;;) {
    const reply = replies.find((message) => message.id === id)
    if (reply !== undefined) return reply
    if (Date.now() > deadline || socket.readyState !== WebSocket.OPEN) throw new Error(`no reply to ${id}`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}

describe('over HTTP (§18.30)', () => {
  it('answers a batch of 1 MiB, and refuses one byte more with 413 and the failure body', async () => {
    expect(MAX_BATCH_BYTES).toBe(MIB)
    const raw = new RawBayeux(service)
    const fits = await raw.post(handshakeOfSize(MIB))
    expect(fits.status).toBe(200)
    expect(fits.body[0]).toMatchObject({ channel: '/meta/handshake', successful: true })

    for (const size of [MIB + 1, 40 * MIB]) {
      const refused = await service.call('POST', '/faye', { body: handshakeOfSize(size) })
      expect(refused.status).toBe(413)
      expect(refused.body).toEqual({ response: null, meta: { code: 413, errors: [expect.any(String)] } })
      expect(refused.headers.get('access-control-allow-origin')).toBe('*')
    }
    expect((await raw.handshake()).successful).toBe(true)
  })
})

describe('over a WebSocket (§18.30)', () => {
  it('answers a message of 1 MiB and keeps the socket open', async () => {
    const { socket, replies } = await openSocket()
    try {
      socket.send(handshakeOfSize(MIB, 'big'))
      expect(await replyTo(socket, replies, 'big')).toMatchObject({ successful: true })
      // Many messages add up to more than the limit: the limit is per message.
      for (let i = 0; i < 3; i++) socket.send(handshakeOfSize(MIB / 2, `half-${i}`))
      for (let i = 0; i < 3; i++) expect(await replyTo(socket, replies, `half-${i}`)).toMatchObject({ successful: true })
      expect(socket.readyState).toBe(WebSocket.OPEN)
    } finally {
      socket.terminate()
    }
  })

  it('answers a binary message, which is no batch, with an empty one', async () => {
    const { socket } = await openSocket()
    const frames: string[] = []
    socket.on('message', (raw) => frames.push(raw.toString()))
    try {
      socket.send(Buffer.from(handshakeOfSize(200, 'binary')))
      socket.send(handshakeOfSize(200, 'text'))
      await expect.poll(() => frames.length).toBe(2)
      expect(frames[0]).toBe('[]')
      expect(JSON.parse(frames[1] ?? '')).toEqual([expect.objectContaining({ id: 'text', successful: true })])
    } finally {
      socket.terminate()
    }
  })

  it('closes with 1009 on a message one byte over, on a 40 MiB one, and on one fragmented past the limit', async () => {
    const sends: ((socket: WebSocket) => void)[] = [
      (socket) => socket.send(handshakeOfSize(MIB + 1)),
      (socket) => socket.send(Buffer.alloc(40 * MIB, 0x20)),
      (socket) => {
        const text = handshakeOfSize(MIB + 1000)
        const third = Math.ceil(text.length / 3)
        socket.send(text.slice(0, third), { fin: false })
        socket.send(text.slice(third, 2 * third), { fin: false })
        socket.send(text.slice(2 * third), { fin: true })
      }
    ]
    for (const send of sends) {
      const { socket, replies, closed } = await openSocket()
      send(socket)
      expect(await closed).toBe(1009)
      expect(replies).toEqual([])
    }
    // The gateway itself is unharmed.
    const { socket, replies } = await openSocket()
    try {
      socket.send(handshakeOfSize(1000, 'after'))
      expect(await replyTo(socket, replies, 'after')).toMatchObject({ successful: true })
    } finally {
      socket.terminate()
    }
  })
})
