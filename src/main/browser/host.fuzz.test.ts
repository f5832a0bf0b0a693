import fc from 'fast-check'
import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { WebSocket } from 'ws'
import { decodeBinaryInvoke, encodeBinaryInvoke, MAX_BINARY_FRAME_BYTES, MAX_TEXT_FRAME_BYTES } from '@shared/bridge-protocol'
import { INVOKE_CHANNELS, type InvokeChannel } from '@shared/window-api'
import { EventQueue } from '../window-api/event-queue'
import { requestSchemas } from '../window-api/request-schemas'
import { HANDLED, recordingHandlers, type HandlerCall } from '../window-api/testing/recording-handlers'
import { startBrowserHost, type BrowserHost } from './host'

/**
 * Malformed frames over browser mode's WebSocket bridge, against a real host on a real socket with
 * the secret and the host's own Origin: what a page sends is either a frame, answered through the
 * dispatch; an invoke that carries a usable id but is no valid frame, refused with VALIDATION; or
 * unreadable, and the page is dropped (1008 "Malformed frame", or the socket's own 1007 and 1009
 * for text that is not UTF-8 and messages over its size limit). The handlers only record what
 * reaches them: nothing the request schemas refuse may. The host must never throw, and a page
 * that connects again after any of it must work.
 *
 * The expected outcome of each message is worked out here from the protocol
 * (src/shared/bridge-protocol.ts), independently of the host's own parsing. fast-check prints the
 * seed and the shrunk message of any failure; re-run with that seed.
 */

/** `FUZZ_SCALE=10 npx vitest run --project unit src/main/browser/host.fuzz.test.ts` for a deeper local run. */
const SCALE = Number(process.env['FUZZ_SCALE'] ?? 1)
/** Over 10,000 messages in all at scale 1, as many as the IPC fuzz sends through the dispatch. */
const RUNS = {
  notJson: 700 * SCALE,
  anyJson: 1000 * SCALE,
  frameLike: 3800 * SCALE,
  invalidPayload: 1300 * SCALE,
  binaryGarbage: 800 * SCALE,
  truncatedBinary: 800 * SCALE,
  binaryInvalidPayload: 500 * SCALE,
  notUtf8: 500 * SCALE,
  interleaved: 400 * SCALE,
  huge: 3
}

const CLIENT_ID = '0b8f6f3e-6a38-4a51-9f0e-3d1c1e3f6a11'

/** A valid request for a few channels of each shape: none, flat, nested and lists. */
const VALID = {
  'session:get': {},
  'conversations:open': { conversationId: 'g42' },
  'messages:send': { conversationId: 'g42', text: 'Hello', clientId: CLIENT_ID },
  'polls:vote': { conversationId: 'g42', pollId: '7', optionIds: ['1', '2'] },
  'settings:update': { changes: { sound: false, theme: 'dark' } },
  'members:add': { groupId: '42', candidates: [{ nickname: 'Bo', userId: '9' }] }
} satisfies Partial<Record<InvokeChannel, unknown>>
type ValidChannel = keyof typeof VALID
const VALID_CHANNELS = Object.keys(VALID) as ValidChannel[]

const REFUSED = { ok: false, error: { code: 'VALIDATION', message: expect.any(String) } }

/** What reached a handler, in order. */
const calls: HandlerCall[] = []
const handlers = recordingHandlers(calls)

/** Whatever the host process throws or leaves unhandled while the fuzz runs. */
const crashes: unknown[] = []
const noteCrash = (error: unknown): void => void crashes.push(error)

let workDir: string
let host: BrowserHost
let page: Page

beforeAll(async () => {
  process.on('uncaughtException', noteCrash)
  process.on('unhandledRejection', noteCrash)
  workDir = await mkdtemp(join(tmpdir(), 'parley-bridge-fuzz-'))
  await writeFile(join(workDir, 'index.html'), '<!doctype html><title>Parley</title>')
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined }
  host = await startBrowserHost({ handlers, events: new EventQueue(), rendererDir: workDir, port: 0, log: quiet })
  page = await Page.open(host)
})

afterEach(() => {
  expect(crashes).toEqual([])
  // Whatever reached a handler passed its channel's request schema.
  for (const { channel, request } of calls) expect(requestSchemas[channel].safeParse(request).success, channel).toBe(true)
  calls.length = 0
})

afterAll(async () => {
  page.socket.terminate()
  await host.close()
  await rm(workDir, { recursive: true, force: true })
  process.off('uncaughtException', noteCrash)
  process.off('unhandledRejection', noteCrash)
})

/** A page of our own on the bridge: it sends what it is given and keeps every frame the host sends back. */
class Page {
  readonly results = new Map<number, unknown>()
  closedWith: { code: number; reason: string } | null = null
  readonly #waiters = new Set<() => void>()
  #nextProbeId = 2 ** 40

  private constructor(readonly socket: WebSocket) {
    socket.on('message', (data) => {
      const frame = JSON.parse(String(data)) as { type: string; id?: number; result?: unknown }
      if (frame.type === 'result' && frame.id !== undefined) this.results.set(frame.id, frame.result)
      this.#wake()
    })
    // A page that is dropped while it still writes (a message over the limit) sees its writes fail.
    socket.on('error', () => undefined)
    socket.on('close', (code, reason) => {
      this.closedWith = { code, reason: String(reason) }
      this.#wake()
    })
  }

  static open(target: BrowserHost): Promise<Page> {
    const socket = new WebSocket(`${target.origin.replace('http', 'ws')}/bridge?secret=${encodeURIComponent(target.secret)}`, { origin: target.origin })
    return new Promise((resolve, reject) => {
      socket.once('open', () => resolve(new Page(socket)))
      socket.once('error', reject)
    })
  }

  send(message: Message): void {
    this.socket.send(message.data, { binary: message.binary })
  }

  /** A valid call after whatever was sent: once it is answered, the host has dealt with all before it. */
  probe(): number {
    const id = this.#nextProbeId++
    this.socket.send(JSON.stringify({ type: 'invoke', id, channel: 'session:get', payload: {} }))
    return id
  }

  /** Resolves once `done` holds or the socket closed; rejects after a while, so a host that says nothing fails the property. */
  async until(done: () => boolean): Promise<void> {
    const deadline = Date.now() + 15_000
    while (!done() && this.closedWith === null) {
      if (Date.now() > deadline) throw new Error('the host neither answered nor closed the socket')
      await new Promise<void>((resolve) => {
        this.#waiters.add(resolve)
        setTimeout(resolve, 100)
      })
    }
  }

  #wake(): void {
    for (const wake of this.#waiters) wake()
    this.#waiters.clear()
  }
}

interface Message {
  data: string | Uint8Array
  binary: boolean
}

/** What the protocol says becomes of a message. */
type Expected =
  | { kind: 'frame'; id: number; channel: string; payload: unknown }
  | { kind: 'focus' }
  | { kind: 'refused'; id: number }
  | { kind: 'dropped'; code: number }

const INVOKE_KEYS = ['channel', 'id', 'payload', 'type']

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
}

function isUsableId(id: unknown): id is number {
  return typeof id === 'number' && Number.isSafeInteger(id) && id >= 0
}

function expectedFor({ data, binary }: Message): Expected {
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : Buffer.from(data)
  if (bytes.length > MAX_BINARY_FRAME_BYTES) return { kind: 'dropped', code: 1009 }
  if (!binary && !isUtf8(bytes)) return { kind: 'dropped', code: 1007 }
  if (!binary && bytes.length > MAX_TEXT_FRAME_BYTES) return { kind: 'dropped', code: 1008 }
  let frame: unknown
  try {
    frame = binary ? decodeBinaryInvoke(bytes) : JSON.parse(bytes.toString('utf8'))
  } catch {
    return { kind: 'dropped', code: 1008 }
  }
  if (!isRecord(frame)) return { kind: 'dropped', code: 1008 }
  const keys = Object.keys(frame).sort()
  if (frame['type'] === 'focus' && keys.join() === 'focused,type' && typeof frame['focused'] === 'boolean') return { kind: 'focus' }
  if (frame['type'] !== 'invoke' || !isUsableId(frame['id'])) return { kind: 'dropped', code: 1008 }
  // -0 goes back as 0.
  const id = frame['id'] + 0
  const channel = frame['channel']
  if (keys.join() === INVOKE_KEYS.join() && typeof channel === 'string' && channel.length <= 100) {
    return { kind: 'frame', id, channel, payload: frame['payload'] }
  }
  return { kind: 'refused', id }
}

function isUtf8(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    return true
  } catch {
    return false
  }
}

/**
 * Sends one message and checks what became of it against the protocol. `payloadInvalid`: the
 * message was made with a payload its channel must refuse.
 */
async function check(message: Message, payloadInvalid = false): Promise<void> {
  const expected = expectedFor(message)
  if (payloadInvalid) expect(expected.kind).toBe('frame')
  const callsBefore = calls.length
  page.send(message)
  const probe = page.probe()
  const id = expected.kind === 'frame' || expected.kind === 'refused' ? expected.id : undefined
  await page.until(() => page.results.has(probe) && (id === undefined || page.results.has(id)))
  const reached = calls.slice(callsBefore)

  if (expected.kind === 'dropped') {
    expect(page.closedWith?.code).toBe(expected.code)
    if (expected.code === 1008) expect(page.closedWith?.reason).toBe('Malformed frame')
    // The probe, sent behind the message, may have been handled as the socket closed; nothing else was.
    expect(reached.filter((call) => !isProbe(call))).toEqual([])
    await reconnectAndCall()
    return
  }
  expect(page.closedWith).toBeNull()
  expect(page.results.get(probe)).toStrictEqual({ ok: true, value: HANDLED })
  // Handlers run in the order messages came: the probe's call is the last.
  expect(isProbe(reached.pop())).toBe(true)
  if (expected.kind === 'focus') {
    expect(reached).toEqual([])
  } else if (expected.kind === 'refused') {
    expect(page.results.get(expected.id)).toStrictEqual(REFUSED)
    expect(reached).toEqual([])
  } else {
    const answer = page.results.get(expected.id)
    // Exactly what the channel's schema says: a request it refuses is answered VALIDATION and
    // reaches no handler, one it accepts reaches its handler, whatever else the fuzz made of it.
    const known = (INVOKE_CHANNELS as readonly string[]).includes(expected.channel)
    // The dispatch reads a missing payload (null or undefined) as an empty request.
    const valid = known && requestSchemas[expected.channel as InvokeChannel].safeParse(expected.payload ?? {}).success
    if (payloadInvalid) expect(valid).toBe(false)
    if (!valid) {
      expect(answer).toStrictEqual(REFUSED)
      expect(reached).toEqual([])
    } else {
      expect(answer).toStrictEqual({ ok: true, value: HANDLED })
      expect(reached.map((call) => call.channel)).toEqual([expected.channel])
    }
  }
  page.results.clear()
}

function isProbe(call: (typeof calls)[number] | undefined): boolean {
  return call !== undefined && call.channel === 'session:get' && isRecord(call.request) && Object.keys(call.request).length === 0
}

/** After the host dropped the page: a page that connects again with the secret is served as before. */
async function reconnectAndCall(): Promise<void> {
  page = await Page.open(host)
  const channel = VALID_CHANNELS[calls.length % VALID_CHANNELS.length] ?? 'session:get'
  const callsBefore = calls.length
  page.socket.send(JSON.stringify({ type: 'invoke', id: 1, channel, payload: VALID[channel] }))
  await page.until(() => page.results.has(1))
  expect(page.results.get(1)).toStrictEqual({ ok: true, value: HANDLED })
  expect(calls.slice(callsBefore)).toEqual([{ channel, request: VALID[channel] }])
  page.results.clear()
}

const text = (data: string): Message => ({ data, binary: false })
const binary = (data: Uint8Array): Message => ({ data, binary: true })

const validChannel = fc.constantFrom(...VALID_CHANNELS)
const anyJson = fc.jsonValue()
/** Ids of every kind, mostly usable ones. */
const anyId = fc.oneof(
  { weight: 4, arbitrary: fc.nat() },
  { weight: 1, arbitrary: fc.constantFrom(-1, 1.5, 2 ** 53, Number.MAX_VALUE, '1', '', null, true, [], {}) },
  { weight: 1, arbitrary: anyJson }
)
const anyChannel = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom<string>(...INVOKE_CHANNELS) },
  { weight: 1, arbitrary: fc.constantFrom('fs:readFile', 'session:GET', '__proto__', 'constructor', ' session:get', '') },
  { weight: 1, arbitrary: fc.string() },
  { weight: 1, arbitrary: fc.string({ minLength: 101, maxLength: 300 }) },
  { weight: 1, arbitrary: anyJson }
)
const anyType = fc.oneof(
  { weight: 4, arbitrary: fc.constant('invoke') },
  { weight: 1, arbitrary: fc.constantFrom('focus', 'result', 'event', 'Invoke', 'invoke ', '') },
  { weight: 1, arbitrary: anyJson }
)
/** Keys no frame has. */
const extraKey = fc.oneof(fc.constantFrom('extra', 'ID', 'channel ', '__proto__', 'constructor', 'result'), fc.string())

/** A valid call: it must reach its handler. */
const validFrame = fc.tuple(validChannel, fc.nat()).map(([channel, id]): Record<string, unknown> => ({ type: 'invoke', id, channel, payload: VALID[channel] }))

/** Something shaped like a frame: an invoke or a focus, with any value in any key. */
const frameShaped = fc.oneof(
  { weight: 1, arbitrary: validFrame },
  {
    weight: 4,
    arbitrary: fc.record({
      type: anyType,
      id: anyId,
      channel: anyChannel,
      payload: fc.oneof(validChannel.map((channel) => VALID[channel] as unknown), anyJson)
    })
  },
  { weight: 1, arbitrary: fc.record({ type: fc.oneof(fc.constant('focus'), anyType), focused: fc.oneof(fc.boolean(), anyJson) }) }
)

/** The value one time in four, null otherwise. */
function nowAndThen<T>(arbitrary: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: 3, arbitrary: fc.constant(null) }, { weight: 1, arbitrary })
}

/** A frame-shaped message, now and then with a key left out or one no frame has. */
const frameLike = fc
  .tuple(frameShaped, nowAndThen(fc.nat()), nowAndThen(fc.tuple(extraKey, anyJson)))
  .map(([frame, dropAt, extra]) => {
    const shaped: Record<string, unknown> = { ...frame }
    const keys = Object.keys(shaped)
    if (dropAt !== null) Reflect.deleteProperty(shaped, keys[dropAt % keys.length] ?? '')
    if (extra !== null) Object.defineProperty(shaped, extra[0], { value: extra[1], enumerable: true })
    return JSON.stringify(shaped)
  })

/** A valid frame whose payload its channel must refuse: not an object, or with a key no schema declares. */
const invalidPayloadFrame = fc
  .tuple(
    validChannel,
    fc.nat(),
    fc.oneof(
      fc.oneof(fc.integer(), fc.string(), fc.boolean(), fc.array(anyJson)),
      fc.constant('extra key' as const)
    )
  )
  .map(([channel, id, payload]) => ({
    type: 'invoke' as const,
    id,
    channel,
    payload: payload === 'extra key' ? { ...VALID[channel], extra: 1 } : payload
  }))

/** An upload as the page sends it: one binary message, its bytes after the header. */
function uploadMessage(id: number, bytes: Uint8Array, payload: Record<string, unknown> = {}): Uint8Array {
  const encoded = encodeBinaryInvoke({ type: 'invoke', id, channel: 'uploads:start', payload: { uploadId: CLIENT_ID, contentType: 'image/png', bytes, ...payload } })
  if (encoded === null) throw new Error('a payload with bytes goes as a binary message')
  return encoded
}

// Seconds each at scale 1 on an idle machine; the bound is for a shared, busy one.
describe('the browser bridge under malformed frames', { timeout: 60_000 * SCALE }, () => {
  it('drops a page that sends what is not JSON, and lets it connect again', async () => {
    const notJson = fc.oneof(
      fc.string().filter((candidate) => !parses(candidate)),
      fc
        .tuple(validChannel, fc.nat(), fc.nat())
        .map(([channel, id, cut]) => {
          const whole = JSON.stringify({ type: 'invoke', id, channel, payload: VALID[channel] })
          return whole.slice(0, cut % whole.length)
        })
        .filter((candidate) => !parses(candidate))
    )
    await fc.assert(
      fc.asyncProperty(notJson, (data) => check(text(data))),
      { numRuns: RUNS.notJson }
    )
  })

  it('answers JSON of any shape as the protocol says', async () => {
    await fc.assert(
      fc.asyncProperty(anyJson, (value) => check(text(JSON.stringify(value)))),
      { numRuns: RUNS.anyJson }
    )
  })

  it('refuses an invoke with a usable id and anything else wrong, drops a page for one without, and lets valid frames through', async () => {
    await fc.assert(
      fc.asyncProperty(frameLike, (data) => check(text(data))),
      { numRuns: RUNS.frameLike }
    )
  })

  it('refuses a valid frame whose payload its channel cannot take, before any handler', async () => {
    await fc.assert(
      fc.asyncProperty(invalidPayloadFrame, (frame) => check(text(JSON.stringify(frame)), true)),
      { numRuns: RUNS.invalidPayload }
    )
  })

  it('drops a page that sends binary garbage', async () => {
    const garbage = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      // A header length that points past the message, or a header that is not JSON.
      fc.tuple(fc.nat(), fc.uint8Array({ maxLength: 64 })).map(([length, rest]) => {
        const message = new Uint8Array(4 + rest.length)
        new DataView(message.buffer).setUint32(0, length)
        message.set(rest, 4)
        return message
      })
    )
    await fc.assert(
      fc.asyncProperty(garbage, (data) => check(binary(data))),
      { numRuns: RUNS.binaryGarbage }
    )
  })

  it('drops a page that sends an upload cut short or with bytes to spare', async () => {
    const broken = fc
      .tuple(fc.nat(), fc.uint8Array({ minLength: 1, maxLength: 64 }), fc.nat(), fc.boolean())
      .map(([id, bytes, cut, longer]) => {
        const whole = uploadMessage(id, bytes)
        if (longer) return Uint8Array.from([...whole, cut % 256])
        return whole.slice(0, cut % whole.length)
      })
    await fc.assert(
      fc.asyncProperty(broken, (data) => {
        expect(expectedFor(binary(data))).toEqual({ kind: 'dropped', code: 1008 })
        return check(binary(data))
      }),
      { numRuns: RUNS.truncatedBinary }
    )
  })

  it('refuses an upload whose bytes sit in the wrong field or whose fields are wrong', async () => {
    const wrongUpload = fc
      .tuple(
        fc.nat(),
        fc.uint8Array({ maxLength: 64 }),
        fc.constantFrom<Record<string, unknown>>({ uploadId: new Uint8Array([1]) }, { contentType: 'text/html' }, { uploadId: 7 }, { extra: new Uint8Array(3) })
      )
      .map(([id, bytes, change]) => uploadMessage(id, bytes, change))
    await fc.assert(
      fc.asyncProperty(wrongUpload, (data) => check(binary(data), true)),
      { numRuns: RUNS.binaryInvalidPayload }
    )
  })

  it('survives text that is not UTF-8: the socket drops the page (1007), and it can connect again', async () => {
    const notUtf8 = fc
      .tuple(fc.uint8Array({ maxLength: 64 }), fc.constantFrom([0xff], [0xc3], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80, 0x80, 0x80]), fc.nat())
      .map(([bytes, bad, at]) => {
        const position = bytes.length === 0 ? 0 : at % bytes.length
        return Uint8Array.from([...bytes.slice(0, position), ...bad, ...bytes.slice(position)])
      })
      .filter((bytes) => !isUtf8(bytes))
    await fc.assert(
      fc.asyncProperty(notUtf8, (data) => check({ data, binary: false })),
      { numRuns: RUNS.notUtf8 }
    )
  })

  it('drops a page for a message over the limits: text over 1 MiB, even with a usable id, and binary over the socket’s own limit', async () => {
    const huge = fc.oneof(
      fc.nat().map((id) => text(JSON.stringify({ type: 'invoke', id, channel: 'session:get', payload: { padding: 'x'.repeat(MAX_TEXT_FRAME_BYTES) } }))),
      fc.nat().map((id) => binary(uploadMessage(id, new Uint8Array(MAX_BINARY_FRAME_BYTES))))
    )
    await fc.assert(
      fc.asyncProperty(huge, (message) => check(message)),
      { numRuns: RUNS.huge }
    )
  })

  it('answers each call of a burst rightly, valid and malformed mixed, handling the valid ones in order', async () => {
    /** A call of the burst, given its id when the burst is sent so that ids are unique in it. */
    interface Call {
      valid: boolean
      channel: ValidChannel
      frame(id: number): Record<string, unknown>
    }
    const call = fc.oneof(
      validChannel.map((channel): Call => ({ valid: true, channel, frame: (id) => ({ type: 'invoke', id, channel, payload: VALID[channel] }) })),
      invalidPayloadFrame.map((invalid): Call => ({ valid: false, channel: invalid.channel, frame: (id) => ({ ...invalid, id }) })),
      validChannel.map((channel): Call => ({ valid: false, channel, frame: (id) => ({ type: 'invoke', id, channel, payload: VALID[channel], extra: true }) }))
    )
    await fc.assert(
      fc.asyncProperty(fc.array(call, { minLength: 1, maxLength: 20 }), async (burst) => {
        const callsBefore = calls.length
        const sent = burst.map((item, index) => ({ ...item, id: index + 1 }))
        for (const item of sent) page.socket.send(JSON.stringify(item.frame(item.id)))
        await page.until(() => sent.every((item) => page.results.has(item.id)))
        expect(page.closedWith).toBeNull()
        for (const item of sent) expect(page.results.get(item.id)).toStrictEqual(item.valid ? { ok: true, value: HANDLED } : REFUSED)
        const valid = sent.filter((item) => item.valid)
        expect(calls.slice(callsBefore).map((reached) => reached.channel)).toEqual(valid.map((item) => item.channel))
        page.results.clear()
      }),
      { numRuns: RUNS.interleaved }
    )
  })

  it('drops a page at an unreadable message in a burst, having handled what came before it and nothing after, and serves it again', async () => {
    const burst = fc.tuple(fc.array(validChannel, { maxLength: 10 }), fc.nat(), fc.constantFrom('{"type":"invoke"', 'null', '{"type":"invoke","id":"1"}', '[]'))
    await fc.assert(
      fc.asyncProperty(burst, async ([channels, at, bad]) => {
        const callsBefore = calls.length
        const position = channels.length === 0 ? 0 : at % (channels.length + 1)
        const frames = channels.map((channel, index) => JSON.stringify({ type: 'invoke', id: index + 1, channel, payload: VALID[channel] }))
        frames.splice(position, 0, bad)
        for (const frame of frames) page.socket.send(frame)
        await page.until(() => false)
        expect(page.closedWith).toEqual({ code: 1008, reason: 'Malformed frame' })
        // What came before the bad message was handled, as sent; nothing after it was.
        const reached = calls.slice(callsBefore)
        expect(reached).toEqual(channels.slice(0, position).map((channel) => ({ channel, request: VALID[channel] })))
        await reconnectAndCall()
      }),
      { numRuns: RUNS.interleaved }
    )
  })
})

function parses(candidate: string): boolean {
  try {
    JSON.parse(candidate)
    return true
  } catch {
    return false
  }
}
