import faye, { type Engine, type EngineHost, type NodeAdapter } from 'faye'
import type { IncomingMessage, ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { Readable } from 'node:stream'
import type { Clock } from '../clock.js'
import { parseJsonText, UnusableBody } from '../http/body.js'
import { failureBody, JSON_CONTENT_TYPE } from '../http/replies.js'
import type { PushAuthority } from './channels.js'
import { GatewayEngine } from './engine.js'
import { createExtensions } from './extensions.js'
import { limitMessageSize } from './message-size.js'

/**
 * The push gateway (§14): faye's NodeAdapter on `/faye`, with the gateway engine and extensions.
 * It serves `POST /faye` (long-polling) and WebSocket upgrades on `/faye`; everything else on that
 * path (OPTIONS, GET/JSON-P, faye's client script) is left to the REST app, which answers per §2.
 */

export const PUSH_PATH = '/faye'
/** The largest Bayeux batch either transport takes (§18.30): a POST body, or one WebSocket message. */
export const MAX_BATCH_BYTES = 1024 * 1024
const ADVICE_TIMEOUT_SECONDS = 30

export interface GatewaySettings {
  clock: Clock
  authority: PushAuthority
  idlePingMs: number
  serverPingMs: number
}

export class PushGateway {
  readonly #adapter: NodeAdapter
  #engine: GatewayEngine | null = null
  readonly #sockets = new Set<Duplex>()

  constructor(settings: GatewaySettings) {
    const engineOptions = {
      authority: settings.authority,
      idlePingMs: settings.idlePingMs,
      serverPingMs: settings.serverPingMs,
      discardMs: 2 * ADVICE_TIMEOUT_SECONDS * 1000
    }
    const engineClass = {
      create: (host: EngineHost): Engine => {
        this.#engine = new GatewayEngine(host, engineOptions)
        return this.#engine
      }
    }
    this.#adapter = new faye.NodeAdapter({
      mount: PUSH_PATH,
      timeout: ADVICE_TIMEOUT_SECONDS,
      engine: { type: engineClass }
    })
    // faye parses each WebSocket frame itself and, on junk (not JSON, a scalar, a `null` in the
    // batch), prints the stack with console.log and answers nothing (node_adapter.js,
    // handleUpgrade). Such a frame is read as an empty batch instead, answered `[]`, like the
    // HTTP path refuses junk before faye sees it.
    const parsing = this.#adapter as unknown as { _parseJSON(data: unknown): unknown }
    parsing._parseJSON = parseBatch
    this.#adapter.addExtension(
      createExtensions({
        engine: () => this.#requireEngine(),
        authority: settings.authority,
        clock: settings.clock,
        longPollHoldMs: settings.idlePingMs + 15_000,
        websocketHoldMs: ADVICE_TIMEOUT_SECONDS * 1000
      })
    )
  }

  /** A service event on a channel (see PushPublisher). */
  deliverToChannel(channel: string, data: unknown): void {
    this.#requireEngine().deliverToChannel(channel, data)
  }

  #requireEngine(): GatewayEngine {
    if (this.#engine === null) throw new Error('faye did not create the gateway engine')
    return this.#engine
  }

  /** Whether an HTTP request belongs to the gateway rather than the REST app. */
  static handles(request: IncomingMessage): boolean {
    return request.method === 'POST' && pathOf(request) === PUSH_PATH
  }

  static upgrades(request: IncomingMessage): boolean {
    return pathOf(request) === PUSH_PATH
  }

  /**
   * Long-polling. The body is read and checked here first, so malformed input gets the contract's
   * failure body (faye answers `400 Bad request` in text/plain); faye then reads a replay of the
   * same bytes. The replay drops `Origin`, because faye would answer it with that origin and
   * credentials, and the contract wants `Access-Control-Allow-Origin: *` on every response.
   */
  handleRequest(request: IncomingMessage, response: ServerResponse): void {
    response.setHeader('access-control-allow-origin', '*')
    const chunks: Buffer[] = []
    let size = 0
    let tooLarge = false
    request.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size > MAX_BATCH_BYTES) tooLarge = true
      else chunks.push(chunk)
    })
    request.on('error', () => response.destroy())
    request.on('end', () => {
      if (tooLarge) return fail(response, 413, 'Request body is too large')
      const text = Buffer.concat(chunks).toString('utf8')
      const parsed = parseJsonText(text)
      if (parsed instanceof UnusableBody) return fail(response, 400, parsed.reason)
      if (typeof parsed !== 'object' || parsed === null) return fail(response, 400, 'Expected a Bayeux message or an array of them')
      // faye answers a message without a string channel with a bare-text "Bad request", and
      // stumbles over ids it cannot turn into text: such a batch is malformed.
      if (!(Array.isArray(parsed) ? parsed : [parsed]).every(isWellFormed)) {
        return fail(response, 400, 'Every Bayeux message must be an object with a string channel, and string ids')
      }
      const headers = { ...request.headers, 'content-type': 'application/json' }
      delete headers.origin
      delete headers.referer
      // faye reads only method, url, headers and the body stream of the request.
      const replay = Object.assign(Readable.from([Buffer.from(text, 'utf8')]), {
        method: 'POST',
        url: request.url,
        headers,
        socket: request.socket
      })
      this.#adapter.handle(replay as unknown as IncomingMessage, response)
    })
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    this.#sockets.add(socket)
    socket.once('close', () => this.#sockets.delete(socket))
    this.#adapter.handleUpgrade(request, socket, head)
    limitMessageSize(socket, head, MAX_BATCH_BYTES)
  }

  /** Answers held connects, closes WebSockets and stops every timer. */
  close(): void {
    this.#adapter.close()
    for (const socket of this.#sockets) socket.destroy()
    this.#sockets.clear()
  }
}

/**
 * A WebSocket message as faye's batch: its well-formed messages. A frame is answered, never refused,
 * and anything else (a scalar, a null, a message without a channel or with an object for an id)
 * would stall faye's processing of the socket. A binary message is no batch at all; nor is one over
 * the size limit, which can reach faye in the same read as its header before `limitMessageSize`
 * closes the socket: it is answered `[]`, then the socket is closed with 1009.
 */
export function parseBatch(data: unknown): object[] {
  if (typeof data !== 'string' || Buffer.byteLength(data, 'utf8') > MAX_BATCH_BYTES) return []
  const parsed = parseJsonText(data)
  if (parsed instanceof UnusableBody || typeof parsed !== 'object' || parsed === null) return []
  return (Array.isArray(parsed) ? parsed : [parsed]).filter(isWellFormed)
}

/** A message faye can process: a string channel, and an `id` and `clientId` that are text if present. */
function isWellFormed(message: unknown): message is object {
  if (typeof message !== 'object' || message === null) return false
  const { channel, id, clientId } = message as { channel?: unknown; id?: unknown; clientId?: unknown }
  const textOrAbsent = (value: unknown): boolean => value === undefined || typeof value === 'string' || typeof value === 'number'
  return typeof channel === 'string' && textOrAbsent(id) && textOrAbsent(clientId)
}

function pathOf(request: IncomingMessage): string {
  const url = request.url ?? '/'
  const query = url.indexOf('?')
  return query === -1 ? url : url.slice(0, query)
}

function fail(response: ServerResponse, status: number, error: string): void {
  const body = JSON.stringify(failureBody(status, [error]))
  response.writeHead(status, { 'content-type': JSON_CONTENT_TYPE, 'content-length': Buffer.byteLength(body) })
  response.end(body)
}
