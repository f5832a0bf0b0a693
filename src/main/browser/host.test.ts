import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises'
import { request } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { WebSocket } from 'ws'
import type { InvokeChannel, InvokeHandlers, InvokeRequest, InvokeResponse } from '@shared/window-api'
import { EventQueue } from '../window-api/event-queue'
import { encodeBinaryInvoke, MAX_BINARY_FRAME_BYTES, MAX_TEXT_FRAME_BYTES } from '@shared/bridge-protocol'
import type { KeptPicture } from '../core/ports'
import { pathPictureAddress, type ServePicture } from '../hosting/kept-pictures'
import { startBrowserHost, type BrowserHost } from './host'

let workDir: string
let rendererDir: string
const hosts: BrowserHost[] = []
const quietLog = { info: () => undefined, warn: () => undefined, error: () => undefined }

beforeAll(async () => {
  workDir = await mkdtemp(join(tmpdir(), 'parley-host-'))
  rendererDir = join(workDir, 'renderer')
  await mkdir(join(rendererDir, 'assets'), { recursive: true })
  await writeFile(join(rendererDir, 'index.html'), '<!doctype html><title>Parley</title>')
  await writeFile(join(rendererDir, 'assets', 'index-abc.js'), 'console.log(1)')
  await writeFile(join(rendererDir, 'assets', 'index-abc.css'), 'body{}')
  await writeFile(join(workDir, 'secret.txt'), 'outside the renderer')
  await symlink(join(workDir, 'secret.txt'), join(rendererDir, 'assets', 'link.txt'))
})

afterEach(async () => {
  await Promise.all(hosts.splice(0).map((host) => host.close()))
})

afterAll(async () => {
  await rm(workDir, { recursive: true, force: true })
})

function handlers(overrides: Partial<InvokeHandlers> = {}): InvokeHandlers {
  const none = async () => null
  const all = Object.fromEntries(
    (['app:ready', 'session:get', 'session:signIn', 'conversations:list'] satisfies InvokeChannel[]).map((channel) => [channel, none])
  )
  return new Proxy({ ...all, ...overrides } as InvokeHandlers, {
    get: (target, channel: string) => (target as Record<string, unknown>)[channel] ?? none
  })
}

async function start(
  options: { handlers?: InvokeHandlers; events?: EventQueue; pictureOrigins?: () => readonly string[]; keptPictures?: { key: string; serve: ServePicture } } = {}
): Promise<BrowserHost & { events: EventQueue }> {
  const events = options.events ?? new EventQueue()
  const host = await startBrowserHost({
    handlers: options.handlers ?? handlers(),
    events,
    rendererDir,
    port: 0,
    log: quietLog,
    ...(options.pictureOrigins === undefined ? {} : { pictureOrigins: options.pictureOrigins }),
    ...(options.keptPictures === undefined ? {} : { keptPictures: options.keptPictures })
  })
  hosts.push(host)
  return { ...host, events }
}

/** A raw request, so paths like `/../x` reach the server exactly as written. */
function get(origin: string, path: string, headers: Record<string, string> = {}) {
  const { hostname, port } = new URL(origin)
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request({ hostname, port, path, headers }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (chunk: string) => (body += chunk))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }))
    })
    req.on('error', reject)
    req.end()
  })
}

interface Client {
  socket: WebSocket
  frames: unknown[]
  next(predicate?: (frame: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>
  invoke<C extends InvokeChannel>(channel: C, payload: InvokeRequest<C>): Promise<unknown>
}

let nextId = 1

function connect(host: BrowserHost, options: { secret?: string | null; origin?: string } = {}): Promise<Client> {
  const secret = options.secret === undefined ? host.secret : options.secret
  const query = secret === null ? '' : `?secret=${encodeURIComponent(secret)}`
  const socket = new WebSocket(`${host.origin.replace('http', 'ws')}/bridge${query}`, { origin: options.origin ?? host.origin })
  const frames: Record<string, unknown>[] = []
  const waiters: (() => void)[] = []
  socket.on('message', (data) => {
    frames.push(JSON.parse(String(data)) as Record<string, unknown>)
    for (const wake of waiters.splice(0)) wake()
  })
  const client: Client = {
    socket,
    frames,
    async next(predicate = () => true) {
      for (;;) {
        const index = frames.findIndex(predicate)
        if (index >= 0) return frames.splice(index, 1)[0] as Record<string, unknown>
        await new Promise<void>((resolve) => waiters.push(resolve))
      }
    },
    async invoke(channel, payload) {
      const id = nextId++
      socket.send(JSON.stringify({ type: 'invoke', id, channel, payload }))
      const frame = await client.next((candidate) => candidate.type === 'result' && candidate.id === id)
      return frame.result
    }
  }
  return new Promise((resolve, reject) => {
    socket.once('open', () => resolve(client))
    socket.once('unexpected-response', (_request, response) => reject(new Error(`refused with ${response.statusCode}`)))
    socket.once('error', reject)
  })
}

function closed(socket: WebSocket): Promise<{ code: number; reason: string }> {
  return new Promise((resolve) => socket.once('close', (code, reason) => resolve({ code, reason: String(reason) })))
}

describe('static files', () => {
  it('serves index.html for / with security headers', async () => {
    const host = await start()
    const response = await get(host.origin, '/')
    expect(response.status).toBe(200)
    expect(response.body).toContain('<title>Parley</title>')
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.headers['content-security-policy']).toMatch(/script-src 'self'/)
    // The bridge socket is same-origin, which 'self' covers.
    expect(response.headers['content-security-policy']).toContain("connect-src 'self';")
    expect(response.headers['content-security-policy']).toContain("frame-ancestors 'none'")
    expect(response.headers['x-content-type-options']).toBe('nosniff')
    expect(response.headers['x-frame-options']).toBe('DENY')
  })

  it('lets pictures load from the picture origins in force when each page is served, and from nowhere else', async () => {
    let origins = ['http://127.0.0.1:8080']
    const host = await start({ pictureOrigins: () => origins })
    const imageSources = async (): Promise<string | undefined> => {
      const policy = String((await get(host.origin, '/')).headers['content-security-policy'])
      return policy.split('; ').find((directive) => directive.startsWith('img-src '))
    }
    expect(await imageSources()).toBe("img-src 'self' data: blob: parley-picture: http://127.0.0.1:8080")
    origins = ['http://127.0.0.1:8080', 'https://pictures.example.com']
    expect(await imageSources()).toBe("img-src 'self' data: blob: parley-picture: http://127.0.0.1:8080 https://pictures.example.com")
  })

  it('serves assets with their types', async () => {
    const host = await start()
    expect((await get(host.origin, '/assets/index-abc.js')).headers['content-type']).toBe('text/javascript; charset=utf-8')
    expect((await get(host.origin, '/assets/index-abc.css')).headers['content-type']).toBe('text/css; charset=utf-8')
  })

  it('answers 404 for what is not there, and an empty /favicon.ico', async () => {
    const host = await start()
    expect((await get(host.origin, '/nope.js')).status).toBe(404)
    expect((await get(host.origin, '/assets')).status).toBe(404)
    expect((await get(host.origin, '/favicon.ico')).status).toBe(204)
  })

  it.each(['/../secret.txt', '/assets/../../secret.txt', '/%2e%2e/secret.txt', '/assets/..%2f..%2fsecret.txt', '/..%5csecret.txt', '/assets/link.txt', '/%00'])(
    'never serves anything outside the renderer: %s',
    async (path) => {
      const host = await start()
      const response = await get(host.origin, path)
      expect([400, 404]).toContain(response.status)
      expect(response.body).not.toContain('outside the renderer')
    }
  )

  it('answers nothing to a request for another host name', async () => {
    const host = await start()
    const { port } = new URL(host.origin)
    expect((await get(host.origin, '/', { Host: `rebound.example:${port}` })).status).toBe(421)
  })
})

describe('kept pictures', () => {
  const KEY = 'k'.repeat(43)
  const UPSTREAM = 'https://i.example.test/ridge.png'
  const PNG: KeptPicture = { contentType: 'image/png', bytes: new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 7, 7, 7]) }

  function keptOnly(kept: Record<string, KeptPicture>): ServePicture & { asked: string[] } {
    const asked: string[] = []
    return Object.assign(async (url: string) => {
      asked.push(url)
      return kept[url] ?? null
    }, { asked })
  }

  /** A raw GET whose body stays bytes. */
  function getBytes(origin: string, path: string, headers: Record<string, string> = {}) {
    const { hostname, port } = new URL(origin)
    return new Promise<{ status: number; headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const req = request({ hostname, port, path, headers }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (chunk: Buffer) => chunks.push(chunk))
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }))
      })
      req.on('error', reject)
      req.end()
    })
  }

  it('serves a kept picture on the page\'s own origin at the launch\'s path, stored by no browser cache', async () => {
    const serve = keptOnly({ [UPSTREAM]: PNG })
    const host = await start({ keptPictures: { key: KEY, serve } })

    const answer = await getBytes(host.origin, pathPictureAddress(KEY, UPSTREAM), { 'sec-fetch-site': 'same-origin' })

    expect(answer.status).toBe(200)
    expect(new Uint8Array(answer.body)).toEqual(PNG.bytes)
    expect(answer.headers).toMatchObject({
      'content-type': 'image/png',
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'same-origin'
    })
    expect(serve.asked).toEqual([UPSTREAM])
  })

  it('answers 404 for a picture neither kept nor fetched, as for one that is no picture the page may show', async () => {
    const serve = keptOnly({ 'https://i.example.test/page.svg': { contentType: 'image/svg+xml', bytes: new TextEncoder().encode('<svg/>') } })
    const host = await start({ keptPictures: { key: KEY, serve } })
    expect((await getBytes(host.origin, pathPictureAddress(KEY, UPSTREAM))).status).toBe(404)
    expect((await getBytes(host.origin, pathPictureAddress(KEY, 'https://i.example.test/page.svg'))).status).toBe(404)
    expect((await getBytes(host.origin, `/kept-pictures/${KEY}`)).status).toBe(404)
  })

  it('asks nothing for a request without the launch\'s key, from another site, on another host name, or not a GET', async () => {
    const serve = keptOnly({ [UPSTREAM]: PNG })
    const host = await start({ keptPictures: { key: KEY, serve } })
    const path = pathPictureAddress(KEY, UPSTREAM)

    expect((await getBytes(host.origin, pathPictureAddress('x'.repeat(43), UPSTREAM))).status).toBe(404)
    expect((await getBytes(host.origin, pathPictureAddress(`${KEY}x`, UPSTREAM))).status).toBe(404)
    expect((await getBytes(host.origin, path, { 'sec-fetch-site': 'cross-site' })).status).toBe(404)
    expect((await getBytes(host.origin, path, { 'sec-fetch-site': 'same-site' })).status).toBe(404)
    expect((await getBytes(host.origin, path, { host: 'rebound.example.test' })).status).toBe(421)
    const { hostname, port } = new URL(host.origin)
    const posted = await new Promise<number>((resolve, reject) => {
      const req = request({ hostname, port, path, method: 'POST' }, (res) => {
        res.resume()
        resolve(res.statusCode ?? 0)
      })
      req.on('error', reject)
      req.end()
    })
    expect(posted).not.toBe(200)
    expect(serve.asked).toEqual([])
  })

  it('serves no kept pictures when none were given it', async () => {
    const host = await start()
    expect((await getBytes(host.origin, pathPictureAddress(KEY, UPSTREAM))).status).toBe(404)
  })
})

describe('bridge socket', () => {
  it('hands out a URL whose fragment carries a 32-byte secret', async () => {
    const host = await start()
    expect(host.url).toBe(`${host.origin}/#secret=${host.secret}`)
    expect(Buffer.from(host.secret, 'base64url')).toHaveLength(32)
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
  })

  it('refuses a connection without the secret or with a wrong one (401)', async () => {
    const host = await start()
    await expect(connect(host, { secret: null })).rejects.toThrow('refused with 401')
    await expect(connect(host, { secret: 'guess' })).rejects.toThrow('refused with 401')
    await expect(connect(host, { secret: `${host.secret}x` })).rejects.toThrow('refused with 401')
  })

  it('refuses the right secret from another origin (403)', async () => {
    const host = await start()
    await expect(connect(host, { origin: 'https://evil.example' })).rejects.toThrow('refused with 403')
  })

  it('carries an invoke through the shared dispatch and back', async () => {
    const host = await start({
      handlers: handlers({
        'session:signIn': async ({ username }) => ({ status: 'signedIn', username }) as unknown as InvokeResponse<'session:signIn'>
      })
    })
    const client = await connect(host)
    await expect(client.invoke('session:signIn', { username: 'ada', password: 'pw' })).resolves.toEqual({
      ok: true,
      value: { status: 'signedIn', username: 'ada' }
    })
  })

  it('answers a malformed payload or unknown channel with a failure value', async () => {
    const host = await start()
    const client = await connect(host)
    await expect(client.invoke('session:signIn', { username: 'ada' } as never)).resolves.toMatchObject({
      ok: false,
      error: { code: 'VALIDATION' }
    })
    await expect(client.invoke('fs:readFile' as never, {} as never)).resolves.toMatchObject({ ok: false, error: { code: 'VALIDATION' } })
  })

  it('holds events until app:ready, then delivers them in order', async () => {
    const host = await start()
    host.events.emit('conversations:changed', [])
    host.events.emit('conversations:focus', { conversationId: 'c1' })
    const client = await connect(host)
    await client.invoke('session:get', {})
    expect(client.frames.filter((frame) => (frame as { type: string }).type === 'event')).toEqual([])

    await client.invoke('app:ready', {})
    expect(await client.next((frame) => frame.type === 'event')).toEqual({ type: 'event', event: 'conversations:changed', payload: [] })
    expect(await client.next((frame) => frame.type === 'event')).toEqual({
      type: 'event',
      event: 'conversations:focus',
      payload: { conversationId: 'c1' }
    })
    host.events.emit('conversations:changed', [])
    expect(await client.next((frame) => frame.type === 'event')).toMatchObject({ event: 'conversations:changed' })
  })

  it('holds events again once the page has gone', async () => {
    const host = await start()
    const first = await connect(host)
    await first.invoke('app:ready', {})
    first.socket.send(JSON.stringify({ type: 'focus', focused: true }))
    await vi.waitFor(() => expect(host.window.isFocused()).toBe(true))
    first.socket.close()
    // The host forgets focus and detaches events in the same step, once it has seen the close.
    await vi.waitFor(() => expect(host.window.isFocused()).toBe(false))
    host.events.emit('conversations:focus', { conversationId: 'c2' })

    const second = await connect(host)
    await second.invoke('app:ready', {})
    expect(await second.next((frame) => frame.type === 'event')).toMatchObject({ payload: { conversationId: 'c2' } })
  })

  it('lets a newer page take over from an older one', async () => {
    const host = await start()
    const older = await connect(host)
    await older.invoke('app:ready', {})
    const olderClosed = closed(older.socket)
    const newer = await connect(host)
    expect(await olderClosed).toEqual({ code: 4000, reason: 'The app was opened in another tab.' })
    await newer.invoke('app:ready', {})
    host.events.emit('conversations:changed', [])
    expect(await newer.next((frame) => frame.type === 'event')).toMatchObject({ event: 'conversations:changed' })
  })

  it('reports the page focus to the window the core sees', async () => {
    const host = await start()
    const client = await connect(host)
    expect(host.window.isFocused()).toBe(false)
    client.socket.send(JSON.stringify({ type: 'focus', focused: true }))
    await client.invoke('session:get', {})
    expect(host.window.isFocused()).toBe(true)
    client.socket.close()
    await vi.waitFor(() => expect(host.window.isFocused()).toBe(false))
  })

  it('carries a picture to upload as a binary frame, to the handler as bytes', async () => {
    let received: Uint8Array | null = null
    const host = await start({
      handlers: handlers({
        'uploads:start': async ({ bytes }) => {
          received = bytes
          return { url: 'http://127.0.0.1:1/image/i/0123456789abcdef0123456789abcdef' }
        }
      })
    })
    const client = await connect(host)
    // Larger than a text frame may be: a picture near the image service's own 10 MiB limit.
    const bytes = new Uint8Array(MAX_TEXT_FRAME_BYTES * 4)
    bytes.set([0x89, 0x50, 0x4e, 0x47])
    const message = encodeBinaryInvoke({ type: 'invoke', id: 900, channel: 'uploads:start', payload: { uploadId: 'upload-1234', contentType: 'image/png', bytes } })
    if (message === null) throw new Error('a payload with bytes goes as a binary frame')
    client.socket.send(message)

    const answer = await client.next((frame) => frame.type === 'result' && frame.id === 900)
    expect(answer.result).toEqual({ ok: true, value: { url: 'http://127.0.0.1:1/image/i/0123456789abcdef0123456789abcdef' } })
    expect(received).toBeInstanceOf(Uint8Array)
    // Compared as buffers: a deep equality of four million elements takes half a minute.
    expect(Buffer.from(received ?? new Uint8Array()).equals(Buffer.from(bytes))).toBe(true)
  })

  it('drops a page that sends a text frame larger than a call can be', async () => {
    const host = await start()
    const client = await connect(host)
    client.socket.send(JSON.stringify({ type: 'invoke', id: 1, channel: 'session:get', payload: { padding: 'x'.repeat(MAX_TEXT_FRAME_BYTES) } }))
    expect((await closed(client.socket)).code).toBe(1008)
  })

  it('drops a page that sends a frame it cannot read, or an invoke without an id to answer', async () => {
    for (const frame of ['{"type":"invoke","id":"x"}', '{"type":"invoke"', '[1]', '{"type":"focus","focused":"yes"}', '{"type":"invoke","id":-1,"channel":"session:get"}']) {
      const host = await start()
      const client = await connect(host)
      client.socket.send(frame)
      expect(await closed(client.socket), frame).toEqual({ code: 1008, reason: 'Malformed frame' })
    }
  })

  it('refuses a malformed invoke that carries its id, and the page goes on', async () => {
    const signedIn = { status: 'signedIn' } as unknown as InvokeResponse<'session:signIn'>
    const signIn = vi.fn(async () => signedIn)
    const host = await start({ handlers: handlers({ 'session:signIn': signIn }) })
    const client = await connect(host)
    const refused = { ok: false, error: { code: 'VALIDATION', message: 'That request was not understood.' } }
    for (const [id, frame] of [
      [11, { type: 'invoke', id: 11, channel: 7, payload: {} }],
      [12, { type: 'invoke', id: 12, channel: 'x'.repeat(101), payload: {} }],
      [13, { type: 'invoke', id: 13, channel: 'session:signIn', payload: { username: 'ada', password: 'pw' }, extra: true }]
    ] as const) {
      client.socket.send(JSON.stringify(frame))
      expect((await client.next((answer) => answer.id === id)).result).toEqual(refused)
    }
    expect(signIn).not.toHaveBeenCalled()
    await expect(client.invoke('session:signIn', { username: 'ada', password: 'pw' })).resolves.toEqual({ ok: true, value: signedIn })
  })

  it('survives a message the WebSocket itself refuses, dropping the page with the socket’s own code', async () => {
    const host = await start()
    const notUtf8 = await connect(host)
    notUtf8.socket.send(Buffer.from([0x7b, 0xff, 0xfe, 0x7d]), { binary: false })
    expect((await closed(notUtf8.socket)).code).toBe(1007)
    const tooLarge = await connect(host)
    tooLarge.socket.send(new Uint8Array(MAX_BINARY_FRAME_BYTES + 1))
    expect((await closed(tooLarge.socket)).code).toBe(1009)

    const client = await connect(host)
    await expect(client.invoke('session:get', {})).resolves.toEqual({ ok: true, value: null })
  })

  it('runs two hosts side by side, each accepting only its own secret', async () => {
    const alice = await start()
    const bob = await start()
    expect(alice.origin).not.toBe(bob.origin)
    expect(alice.secret).not.toBe(bob.secret)
    await expect(connect(bob, { secret: alice.secret })).rejects.toThrow('refused with 401')
    const aliceClient = await connect(alice)
    const bobClient = await connect(bob)
    await aliceClient.invoke('app:ready', {})
    await bobClient.invoke('app:ready', {})
    alice.events.emit('conversations:focus', { conversationId: 'for-alice' })
    expect(await aliceClient.next((frame) => frame.type === 'event')).toMatchObject({ payload: { conversationId: 'for-alice' } })
    await bobClient.invoke('session:get', {})
    expect(bobClient.frames).toEqual([])
  })
})
