// Browser mode's host: serves the built renderer on a loopback address and carries the contract
// over a WebSocket that only the page we opened can join. The page proves that with the
// per-launch secret it was handed in the URL fragment (which browsers never send to servers or
// put in Referer headers), and its Origin must be this host's own, so another site open in the
// same browser can neither connect nor read anything. Pictures kept on this device are served on
// the same origin at a path carrying a per-launch key of their own (hosting/kept-pictures.ts).
// Each call is one instance: run two for two
// users in one process.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto'
import { channel as diagnosticsChannel } from 'node:diagnostics_channel'
import { createServer, STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { WebSocketServer, type RawData, type WebSocket } from 'ws'
import type { Log } from '../log/log'
import { createDispatch, NOT_UNDERSTOOD } from '../window-api/dispatch'
import type { EventQueue } from '../window-api/event-queue'
import { contentSecurityPolicy } from '../hosting/content-security-policy'
import { answerPicture, keptPicturesPath, type ServePicture } from '../hosting/kept-pictures'
import {
  BRIDGE_PATH,
  decodeBinaryInvoke,
  MAX_BINARY_FRAME_BYTES,
  MAX_TEXT_FRAME_BYTES,
  type HostFrame,
  type PageFrame
} from '@shared/bridge-protocol'
import type { InvokeHandlers } from '@shared/window-api'
import { answerableInvokeSchema, pageFrameSchema } from './bridge-protocol'
import { PageWindow } from './page-window'
import { staticFiles } from './static-files'

export interface BrowserHostOptions {
  handlers: InvokeHandlers
  /** Settles once the core has started: the page's calls wait for it (the page may load first). */
  started?: Promise<unknown>
  events: EventQueue
  /** The built renderer: `out/renderer`. */
  rendererDir: string
  /** Loopback only, unless you know why: the page is the user's whole account. */
  host?: string
  /** 0 picks a free port. */
  port?: number
  /** Told whether the page is visible and focused; one is created if not given. */
  window?: PageWindow
  /**
   * Where pictures may load from, for the CSP: asked for each response, since Settings ▸ Service
   * can change them while the app runs (a page reloaded after a Save gets the new policy). None by default.
   */
  pictureOrigins?: () => readonly string[]
  /** Pictures kept on this device: the launch's key their path carries, and what answers for them. None by default. */
  keptPictures?: { key: string; serve: ServePicture }
  log: Log
}

export interface BrowserHost {
  /** Open this: it carries the secret in its fragment. */
  url: string
  origin: string
  secret: string
  window: PageWindow
  close(): Promise<void>
}

/**
 * `{event, payload}` of every event frame as it is sent to the page (just before: a process
 * descheduled right after a send would otherwise date the send late), on a
 * `node:diagnostics_channel` of this name: `npm run bench` times each hop of a push with it.
 * Nothing is published without a subscriber.
 */
export const BRIDGE_EVENT_SENT_CHANNEL = 'parley:browser:bridge-event-sent'
const eventsSent = diagnosticsChannel(BRIDGE_EVENT_SENT_CHANNEL)

export async function startBrowserHost(options: BrowserHostOptions): Promise<BrowserHost> {
  const { events, log } = options
  const host = options.host ?? '127.0.0.1'
  const window = options.window ?? new PageWindow()
  const dispatch = createDispatch(options.handlers, log, options.started)
  const files = await staticFiles(options.rendererDir)
  const secret = randomBytes(32).toString('base64url')
  const secretDigest = digest(secret)

  const server = createServer()
  // The socket's own limit lets a picture to upload through (a binary frame); text frames are held
  // to the smaller limit as they are read.
  const sockets = new WebSocketServer({ noServer: true, maxPayload: MAX_BINARY_FRAME_BYTES })
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(options.port ?? 0, host, () => {
      server.off('error', reject)
      resolve()
    })
  })
  const { port } = server.address() as AddressInfo
  const authority = `${host.includes(':') ? `[${host}]` : host}:${port}`
  const origin = `http://${authority}`
  const pictureOrigins = options.pictureOrigins ?? (() => [])
  const { keptPictures } = options

  server.on('request', (request, response) => {
    const headers = securityHeaders(contentSecurityPolicy({ pictureOrigins: pictureOrigins() }))
    // A page on another name that resolves here (DNS rebinding) gets nothing.
    if (request.headers.host !== authority) {
      response.writeHead(421, headers).end()
      return
    }
    if (keptPictures !== undefined && isPictureRequest(request, keptPictures.key)) {
      servePicture(request, response, headers, keptPictures.serve).catch((error: unknown) => {
        log.warn('could not serve a kept picture', error)
        if (!response.headersSent) response.writeHead(500, headers)
        response.end()
      })
      return
    }
    files.serve(request, response, headers).catch((error: unknown) => {
      log.warn('could not serve a file', error)
      if (!response.headersSent) response.writeHead(500, headers)
      response.end()
    })
  })

  server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const url = new URL(request.url ?? '/', origin)
    if (request.headers.host !== authority || url.pathname !== BRIDGE_PATH) return refuse(socket, 404)
    const offered = url.searchParams.get('secret')
    if (offered === null || !timingSafeEqual(digest(offered), secretDigest)) {
      log.warn('refused a bridge connection without the right secret')
      return refuse(socket, 401)
    }
    if (request.headers.origin !== origin) {
      log.warn('refused a bridge connection from another origin', { origin: request.headers.origin })
      return refuse(socket, 403)
    }
    sockets.handleUpgrade(request, socket, head, (connection) => connect(connection))
  })

  let current: WebSocket | null = null

  function connect(socket: WebSocket): void {
    // One page at a time: the newest tab takes over, the older one is told why it was dropped.
    if (current !== null) {
      events.detach()
      current.close(4000, 'The app was opened in another tab.')
    }
    current = socket
    window.setFocused(false)
    socket.on('message', (data, isBinary) => void receive(socket, data, isBinary))
    // A message the socket itself cannot take (text that is not UTF-8, more than the size limit, a
    // broken frame) closes it with the matching code (1007, 1009, 1002) and is reported here;
    // without a listener, that report would be thrown and end the whole app.
    socket.on('error', (error) => log.warn('closed a bridge connection that broke the WebSocket protocol', error))
    socket.on('close', () => {
      if (current !== socket) return
      current = null
      events.detach()
      window.setFocused(false)
    })
  }

  async function receive(socket: WebSocket, data: RawData, isBinary: boolean): Promise<void> {
    // A page being dropped (it sent something unreadable) is done: what it sent after is not acted on.
    if (socket !== current || socket.readyState !== socket.OPEN) return
    const reading = readFrame(bytesOf(data), isBinary)
    if (reading.kind === 'unreadable') {
      log.warn('closed a bridge connection that sent a malformed frame')
      socket.close(1008, 'Malformed frame')
      return
    }
    if (reading.kind === 'refused') {
      log.warn('refused a malformed bridge call', { id: reading.id })
      send(socket, { type: 'result', id: reading.id, result: NOT_UNDERSTOOD })
      return
    }
    const { frame } = reading
    if (frame.type === 'focus') {
      window.setFocused(frame.focused)
      return
    }
    const result = await dispatch(frame.channel, frame.payload)
    send(socket, { type: 'result', id: frame.id, result })
    if (frame.channel === 'app:ready' && result.ok && socket === current) {
      events.attach((event, payload) => {
        if (eventsSent.hasSubscribers) eventsSent.publish({ event, payload })
        send(socket, { type: 'event', event, payload })
      })
    }
  }

  return {
    url: `${origin}/#secret=${secret}`,
    origin,
    secret,
    window,
    async close() {
      events.detach()
      window.setFocused(false)
      for (const client of sockets.clients) client.terminate()
      sockets.close()
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeAllConnections()
      })
    }
  }
}

/**
 * Whether this is a request for a kept picture with the launch's key, from the page itself: a
 * browser says where a request comes from (Sec-Fetch-Site), and another site's is refused before
 * anything is read or fetched for it.
 */
function isPictureRequest(request: IncomingMessage, key: string): boolean {
  const path = new URL(request.url ?? '/', 'http://host').pathname
  const prefix = keptPicturesPath('')
  if (!path.startsWith(prefix) || request.method !== 'GET') return false
  const site = request.headers['sec-fetch-site']
  if (site !== undefined && site !== 'same-origin') return false
  return timingSafeEqual(digest(path.slice(prefix.length)), digest(key))
}

async function servePicture(request: IncomingMessage, response: ServerResponse, headers: Record<string, string>, serve: ServePicture): Promise<void> {
  const answer = await answerPicture(new URL(request.url ?? '/', 'http://host'), serve)
  response.writeHead(answer.status, { ...headers, ...answer.headers })
  response.end(answer.body ?? undefined)
}

function bytesOf(data: RawData): Buffer {
  return Array.isArray(data) ? Buffer.concat(data) : Buffer.isBuffer(data) ? data : Buffer.from(data)
}

/**
 * What a page's message amounts to: a frame; an invoke that is not a valid frame (a wrong channel,
 * an extra key) but says which call it is, so the page's call is answered with a refusal and the
 * page goes on; or nothing readable (not JSON, over the limit, a binary message that does not
 * decode, no usable id), for which the page is dropped: no call of it can be answered.
 */
type Reading = { kind: 'frame'; frame: PageFrame } | { kind: 'refused'; id: number } | { kind: 'unreadable' }

/** A text frame is JSON; a binary one is an invoke carrying bytes (shared/bridge-protocol.ts). */
function readFrame(data: Buffer, isBinary: boolean): Reading {
  let frame: unknown
  try {
    if (!isBinary && data.length > MAX_TEXT_FRAME_BYTES) return { kind: 'unreadable' }
    frame = isBinary ? decodeBinaryInvoke(data) : (JSON.parse(data.toString('utf8')) as unknown)
  } catch {
    return { kind: 'unreadable' }
  }
  const parsed = pageFrameSchema.safeParse(frame)
  if (parsed.success) return { kind: 'frame', frame: parsed.data }
  const invoke = answerableInvokeSchema.safeParse(frame)
  return invoke.success ? { kind: 'refused', id: invoke.data.id } : { kind: 'unreadable' }
}

function send(socket: WebSocket, frame: HostFrame): void {
  if (socket.readyState === socket.OPEN) socket.send(JSON.stringify(frame))
}

function refuse(socket: Duplex, status: number): void {
  socket.once('finish', () => socket.destroy())
  socket.end(`HTTP/1.1 ${status} ${STATUS_CODES[status] ?? ''}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`)
}

// Comparing digests keeps the comparison constant-time whatever length was offered.
function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest()
}

function securityHeaders(policy: string): Record<string, string> {
  return {
    'Content-Security-Policy': policy,
    'X-Content-Type-Options': 'nosniff',
    'X-Frame-Options': 'DENY',
    'Referrer-Policy': 'no-referrer',
    'Cross-Origin-Opener-Policy': 'same-origin',
    'Cross-Origin-Resource-Policy': 'same-origin',
    // The app's own page may ask for the device's position (Share location ▸ Use my position), and
    // the browser asks the person; no frame or other origin may, and nothing may use the rest.
    'Permissions-Policy': 'camera=(), microphone=(), geolocation=(self), payment=(), usb=()',
    'Cache-Control': 'no-store'
  }
}
