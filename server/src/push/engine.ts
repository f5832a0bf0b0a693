import { randomBytes, randomInt } from 'node:crypto'
import type { Engine, EngineHost, Message } from 'faye'
import { parseChannel, type PushAuthority } from './channels.js'

/**
 * The gateway's faye engine (faye's pluggable `engine.type`, the interface faye-redis implements).
 * faye's stock memory engine copies the publisher's message — `ext` and access token included — to
 * every subscriber, the publisher too. This one builds each delivery afresh per receiver:
 * `{channel, data, id, authenticated: true}` plus the receiver's `clientId` (added by the outgoing
 * extension, since faye's connection strips `clientId` on the way out), and decides who receives:
 *
 * - service events go to every subscriber whose subscription is still authorized (the token is
 *   live and the channel still allowed, §14.2);
 * - a client's `typing` goes to every *other* subscriber; a client's `ping` is echoed to it alone
 *   (§14.3, §18.14); anything else a client publishes is dropped;
 * - held long-polling connects are answered after the idle time with `{ping: true}` per subscribed
 *   channel (§14.1), WebSocket clients get `{type: "ping"}` per channel every 30 s (§14.3).
 */

/** Where the outgoing extension finds a delivery's receiver. Symbols never reach the JSON. */
export const RECEIVER = Symbol('receiver')
/** The authenticated publisher of a client publish, set by the incoming extension. */
export const PUBLISHER = Symbol('publisher')

export interface Delivery extends Message {
  [RECEIVER]?: string
}

export interface Publisher {
  clientId: string
  userId: number
}

export type PublishedMessage = Message & { [PUBLISHER]?: Publisher }

interface Grant {
  userId: number
  tokenId: number
}

interface ClientState {
  channels: Set<string>
  grants: Map<string, Grant>
  connectionType: string | null
  discard: NodeJS.Timeout | null
  idle: NodeJS.Timeout | null
  serverPing: NodeJS.Timeout | null
}

export interface EngineSettings {
  authority: PushAuthority
  /** Hold time of a long-polling connect before the `{ping: true}` answer. */
  idlePingMs: number
  /** Interval of server pings to WebSocket clients. */
  serverPingMs: number
  /** A client with no connect for this long is discarded (§14.1: 60 s). */
  discardMs: number
}

const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz'

/** 31 base-36 characters, like faye's own client ids. */
function newClientId(): string {
  let id = ''
  for (let i = 0; i < 31; i++) id += BASE36[randomInt(36)]
  return id
}

export class GatewayEngine implements Engine {
  readonly #host: EngineHost
  readonly #settings: EngineSettings
  readonly #clients = new Map<string, ClientState>()
  readonly #subscribers = new Map<string, Set<string>>()
  readonly #queues = new Map<string, Delivery[]>()
  #closed = false

  constructor(host: EngineHost, settings: EngineSettings) {
    this.#host = host
    this.#settings = settings
  }

  // ── faye's engine interface ──────────────────────────────────────────────────────────────────

  createClient(callback: (clientId: string) => void, context?: unknown): void {
    let clientId = newClientId()
    while (this.#clients.has(clientId)) clientId = newClientId()
    this.#clients.set(clientId, {
      channels: new Set(),
      grants: new Map(),
      connectionType: null,
      discard: null,
      idle: null,
      serverPing: null
    })
    this.ping(clientId)
    this.#host.trigger('handshake', clientId)
    callback.call(context, clientId)
  }

  clientExists(clientId: string, callback: (exists: boolean) => void, context?: unknown): void {
    callback.call(context, this.hasClient(clientId))
  }

  destroyClient(clientId: string, callback?: () => void, context?: unknown): void {
    const state = this.#clients.get(clientId)
    if (state === undefined) return
    for (const channel of [...state.channels]) this.unsubscribe(clientId, channel)
    clearTimers(state)
    this.#clients.delete(clientId)
    this.#queues.delete(clientId)
    this.#host.trigger('disconnect', clientId)
    this.#host.trigger('close', clientId)
    callback?.call(context)
  }

  /** Called by faye on handshake and on every connect. */
  ping(clientId: string): void {
    const state = this.#clients.get(clientId)
    if (state === undefined || this.#closed) return
    if (state.discard !== null) clearTimeout(state.discard)
    state.discard = timer(this.#settings.discardMs, () => this.destroyClient(clientId))
    if (state.connectionType === 'long-polling') this.#armIdle(clientId, state)
  }

  subscribe(clientId: string, channel: string, callback?: (ok: boolean) => void, context?: unknown): void {
    const state = this.#clients.get(clientId)
    if (state !== undefined) {
      const added = !state.channels.has(channel)
      state.channels.add(channel)
      let set = this.#subscribers.get(channel)
      if (set === undefined) this.#subscribers.set(channel, (set = new Set()))
      set.add(clientId)
      if (added) this.#host.trigger('subscribe', clientId, channel)
    }
    callback?.call(context, true)
  }

  unsubscribe(clientId: string, channel: string, callback?: (ok: boolean) => void, context?: unknown): void {
    const state = this.#clients.get(clientId)
    const removed = state?.channels.delete(channel) ?? false
    state?.grants.delete(channel)
    const set = this.#subscribers.get(channel)
    set?.delete(clientId)
    if (set?.size === 0) this.#subscribers.delete(channel)
    if (removed) this.#host.trigger('unsubscribe', clientId, channel)
    callback?.call(context, true)
  }

  /** A client's publish, already authorized by the incoming extension. */
  publish(message: PublishedMessage, _channels: string[]): void {
    const publisher = message[PUBLISHER]
    const data = message.data
    if (publisher === undefined || typeof data !== 'object' || data === null || Array.isArray(data)) return
    const type = (data as Record<string, unknown>)['type']
    const channel = message.channel
    const form = parseChannel(channel)
    if (form === null) return

    if (type === 'typing') {
      if (form.kind === 'user' || (data as Record<string, unknown>)['user_id'] !== String(publisher.userId)) return
      for (const receiver of this.#authorizedSubscribers(channel)) {
        if (receiver !== publisher.clientId) this.#enqueue(receiver, channel, data)
      }
    } else if (type === 'ping') {
      const state = this.#clients.get(publisher.clientId)
      if (state === undefined || !state.channels.has(channel)) return
      this.#enqueue(publisher.clientId, channel, { type: 'ping' })
      if (state.connectionType === 'websocket') this.#armServerPing(publisher.clientId, state)
    }
  }

  emptyQueue(clientId: string): void {
    if (!this.#host.hasConnection(clientId)) return
    const queue = this.#queues.get(clientId)
    if (queue === undefined || queue.length === 0) return
    this.#queues.delete(clientId)
    this.#host.deliver(clientId, queue)
  }

  disconnect(): void {
    this.#closed = true
    for (const state of this.#clients.values()) clearTimers(state)
    this.#clients.clear()
    this.#subscribers.clear()
    this.#queues.clear()
  }

  // ── used by the gateway's extensions and publisher ───────────────────────────────────────────

  hasClient(clientId: unknown): clientId is string {
    return typeof clientId === 'string' && this.#clients.has(clientId)
  }

  /** Records the token a subscription was made with; it ends when the token does (§14.2). */
  grant(clientId: string, channel: string, grant: Grant): void {
    this.#clients.get(clientId)?.grants.set(channel, grant)
  }

  noteConnectionType(clientId: string, connectionType: string): void {
    const state = this.#clients.get(clientId)
    if (state === undefined) return
    state.connectionType = connectionType
    if (connectionType === 'websocket') {
      if (state.serverPing === null) this.#armServerPing(clientId, state)
    } else if (state.serverPing !== null) {
      clearTimeout(state.serverPing)
      state.serverPing = null
    }
  }

  /** A service event: to every subscriber of the channel whose subscription is still authorized. */
  deliverToChannel(channel: string, data: unknown): void {
    for (const receiver of this.#authorizedSubscribers(channel)) this.#enqueue(receiver, channel, data)
  }

  // ── internals ────────────────────────────────────────────────────────────────────────────────

  /** Subscribers of `channel` whose grant still holds; the others lose the subscription. */
  #authorizedSubscribers(channel: string): string[] {
    const set = this.#subscribers.get(channel)
    if (set === undefined) return []
    const form = parseChannel(channel)
    const authority = this.#settings.authority
    const receivers: string[] = []
    for (const clientId of [...set]) {
      const grant = this.#clients.get(clientId)?.grants.get(channel)
      if (grant !== undefined && form !== null && authority.tokenLive(grant.tokenId) && authority.mayUse(grant.userId, form)) {
        receivers.push(clientId)
      } else {
        this.unsubscribe(clientId, channel)
      }
    }
    return receivers
  }

  #enqueue(clientId: string, channel: string, data: unknown): void {
    const delivery: Delivery = { channel, data, id: randomBytes(10).toString('hex'), authenticated: true }
    delivery[RECEIVER] = clientId
    let queue = this.#queues.get(clientId)
    if (queue === undefined) this.#queues.set(clientId, (queue = []))
    queue.push(delivery)
    this.emptyQueue(clientId)
  }

  #armIdle(clientId: string, state: ClientState): void {
    if (state.idle !== null) clearTimeout(state.idle)
    state.idle = timer(this.#settings.idlePingMs, () => {
      state.idle = null
      if (!this.#host.hasConnection(clientId)) return
      const channels = [...state.channels].filter((channel) => this.#authorizedSubscribers(channel).includes(clientId))
      if (channels.length === 0) {
        this.#host.flushConnection(clientId)
        return
      }
      for (const channel of channels) this.#enqueue(clientId, channel, { ping: true })
    })
  }

  #armServerPing(clientId: string, state: ClientState): void {
    if (state.serverPing !== null) clearTimeout(state.serverPing)
    state.serverPing = timer(this.#settings.serverPingMs, () => {
      state.serverPing = null
      for (const channel of [...state.channels]) {
        if (this.#authorizedSubscribers(channel).includes(clientId)) this.#enqueue(clientId, channel, { type: 'ping' })
      }
      if (this.#clients.get(clientId) === state && state.connectionType === 'websocket') this.#armServerPing(clientId, state)
    })
  }
}

function timer(ms: number, fn: () => void): NodeJS.Timeout {
  const handle = setTimeout(fn, ms)
  handle.unref()
  return handle
}

function clearTimers(state: ClientState): void {
  for (const handle of [state.discard, state.idle, state.serverPing]) if (handle !== null) clearTimeout(handle)
  state.discard = state.idle = state.serverPing = null
}
