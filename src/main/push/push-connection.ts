// The live connection to the push gateway (docs/protocol.md §14): faye's Bayeux client plus what the
// service adds on top of Bayeux. Subscriptions carry the token and a fresh timestamp; deliveries
// are re-emitted as typed events (delivery-events.ts); retries back off (back-off.ts); and the
// connection's health, the state machine this file keeps, is reported as a PushStatus, with
// `reconnected` once every followed channel is live again after an outage, so the caller can
// catch up over REST on what it may have missed.
//
// An outage is anything that ends being live, whatever its cause: the transport failing (a request
// errs, a WebSocket closes), or the service forgetting this client while every request succeeds
// (`401::Unknown client` after a restart between two long polls, or after its 60 s client
// timeout), which loses every subscription. Each of those only records a fact; `#evaluate` alone
// turns the facts into a status, so every cause gets the same connected → reconnecting →
// connected sequence and exactly one `reconnected` per outage.
//
// faye does most of the recovering itself. It retries failed requests; on `401::Unknown client`
// (the service restarted and forgot us) it handshakes again and re-subscribes every channel it
// knows, and our outgoing extension stamps each of those subscribes with a fresh timestamp. Two
// gaps remain, handled here: a subscribe that *fails* with `Unknown client` is dropped from
// faye's own list, so it is re-made; and a subscribe that sat in faye's retry queue through a long
// outage carries a timestamp the service now refuses, so it is re-made once with a fresh one.
import { channel as diagnosticsChannel } from 'node:diagnostics_channel'
import type { Client, ClientConstructor, Extension, Message as BayeuxMessage, Subscription } from 'faye'
import type { PushStatus } from '@shared/session'
import type { ServiceConfig } from '../api/service-config'
import type { Log } from '../log/log'
import { backOffScheduler } from './back-off'
import { deliveryEvent, type DeliveryEvents } from './delivery-events'
import { TypedEmitter } from '@shared/typed-emitter'

export interface PushEvents extends DeliveryEvents {
  status: PushStatus
  /**
   * The connection is back after an outage and every followed channel is subscribed again: once
   * per outage, whether the transport failed or the service forgot this client. A channel the
   * service refuses while re-subscribing is reported by `subscriptionRefused` first and is no
   * longer followed; the status returns to 'connected' with the channels that did re-subscribe.
   */
  reconnected: undefined
  /** The service refused a subscription (bad token, forbidden channel, …), also when re-made after an outage; it is not retried. */
  subscriptionRefused: { channel: string; error: PushSubscriptionError }
}

/** A subscription the service refused: `code` and `reason` come from its `error`, e.g. `403::Forbidden channel`. */
export class PushSubscriptionError extends Error {
  readonly channel: string
  readonly code: number | null
  readonly reason: string

  constructor(channel: string, code: number | null, reason: string) {
    super(`subscription to ${channel} refused${code === null ? '' : ` (${code})`}: ${reason}`)
    this.name = 'PushSubscriptionError'
    this.channel = channel
    this.code = code
    this.reason = reason
  }
}

export interface PushConnectionDependencies {
  config: ServiceConfig
  getToken: () => string | null
  log: Log
  /** Unix milliseconds; the subscribe timestamp is derived from it. */
  now?: () => number
  /** Seconds before the first retry of a failed request; doubles on each further failure. */
  retrySeconds?: number
  /** Ceiling of the retry backoff, in seconds. */
  maxRetrySeconds?: number
  /** Stays on long polling, for networks whose proxies break WebSockets. */
  longPollingOnly?: boolean
}

type ChannelState = {
  /**
   * `pending`: followed, never confirmed yet. `subscribed`: the service holds it. `lost`: it was
   * subscribed, but the service has since forgotten this client and the subscription with it.
   */
  state: 'pending' | 'subscribed' | 'lost'
  /** Null until faye is loaded and the client made: the channel is subscribed then. */
  subscription: Subscription | null
  waiters: { resolve: () => void; reject: (error: Error) => void }[]
}

/**
 * `{channel, data}` of every delivery as it arrives, on a `node:diagnostics_channel` of this name:
 * `npm run bench` times each hop of a push with it. Nothing is published without a subscriber.
 */
export const PUSH_DELIVERY_CHANNEL = 'parley:app:push-delivery'
const deliveries = diagnosticsChannel(PUSH_DELIVERY_CHANNEL)

/** A subscribe older than this when refused for its timestamp went stale in faye's retry queue. */
const STALE_SUBSCRIBE_MS = 60_000

const BAYEUX_ERROR = /^(\d{3})?:[^:]*:(.*)$/

export class PushConnection {
  readonly #deps: PushConnectionDependencies
  readonly #now: () => number
  readonly #events: TypedEmitter<PushEvents>
  readonly #channels = new Map<string, ChannelState>()
  /** Outgoing subscribe message ids, so each reply (ours or faye's re-subscribes) finds its channel. */
  readonly #subscribesInFlight = new Map<string, { channel: string; sentAt: number }>()
  #client: Client | null = null
  #started = false
  #status: PushStatus = 'offline'
  #closed = false
  #transportUp = false
  /** The service has forgotten this client; nothing counts as live until a new handshake. */
  #needsHandshake = false
  /** In an outage that began after being connected: `reconnected` is owed once live again. */
  #recovering = false

  constructor(deps: PushConnectionDependencies) {
    this.#deps = deps
    this.#now = deps.now ?? Date.now
    this.#events = new TypedEmitter((event, error) => deps.log.error(`push: a ${String(event)} listener failed`, error))
  }

  get status(): PushStatus {
    return this.#status
  }

  on<E extends keyof PushEvents>(event: E, listener: (payload: PushEvents[E]) => void): () => void {
    return this.#events.on(event, listener)
  }

  /**
   * Connects (faye handshakes over long polling, then upgrades to WebSocket). Idempotent. faye is
   * loaded here, not with the app: with what it brings (a cookie jar and its list of public
   * suffixes) it made up 600 of the host's 1,360 KB bundle, and a start has the page to serve first.
   */
  start(): void {
    if (this.#closed || this.#started) return
    this.#started = true
    this.#setStatus('connecting')
    import('faye').then(
      ({ default: faye }) => this.#connect(faye.Client),
      (error: unknown) => this.#deps.log.error('push: could not load the Bayeux client', error)
    )
  }

  #connect(FayeClient: ClientConstructor): void {
    if (this.#closed) return
    const client = new FayeClient(this.#deps.config.pushUrl, {
      // faye builds its WebSocket URL by swapping http→ws in the endpoint it is given, so the
      // separately configured WebSocket address is handed over in http form (§1: never derived).
      endpoints: { websocket: this.#deps.config.pushWsUrl.replace(/^ws(s?):/, 'http$1:') },
      retry: this.#deps.retrySeconds ?? 1,
      scheduler: backOffScheduler({ initialSeconds: this.#deps.retrySeconds ?? 1, maxSeconds: this.#deps.maxRetrySeconds ?? 30 }, () => this.#closed)
    })
    if (this.#deps.longPollingOnly === true) client.disable('websocket')
    client.addExtension(this.#extension)
    client.bind('transport:down', this.#onTransportDown)
    client.bind('transport:up', this.#onTransportUp)
    this.#client = client
    client.connect()
    // What was followed while faye loaded.
    for (const [channel, entry] of this.#channels) if (entry.subscription === null) this.#subscribe(channel, entry.waiters)
  }

  /** Subscribes to `channel` and keeps it subscribed across reconnects until `unfollow`. */
  follow(channel: string): void {
    if (this.#closed || this.#channels.has(channel)) return
    this.start()
    this.#subscribe(channel, [])
  }

  unfollow(channel: string): void {
    const entry = this.#channels.get(channel)
    if (entry === undefined) return
    this.#channels.delete(channel)
    entry.subscription?.cancel()
    for (const waiter of entry.waiters) waiter.reject(new PushSubscriptionError(channel, null, 'unfollowed'))
    this.#evaluate()
  }

  /** The channels being followed, subscribed or not yet. */
  followed(): string[] {
    return [...this.#channels.keys()]
  }

  isSubscribed(channel: string): boolean {
    return this.#channels.get(channel)?.state === 'subscribed'
  }

  /** Resolves once the service has confirmed the subscription; rejects if it refuses it. */
  whenSubscribed(channel: string): Promise<void> {
    const entry = this.#channels.get(channel)
    if (entry === undefined) return Promise.reject(new PushSubscriptionError(channel, null, 'not followed'))
    if (entry.state === 'subscribed') return Promise.resolve()
    return new Promise((resolve, reject) => entry.waiters.push({ resolve, reject }))
  }

  /**
   * Tells the others in a conversation that this user is typing (§14.3); best effort: only while
   * connected, and never tried again. faye would retry a failed publish as it was first sent, with
   * the client id of before an outage: after a restart the service answers each such retry
   * `401::Unknown client` with advice to handshake, and every one of them cost a fresh handshake,
   * subscriptions and all, and a `reconnected` with its catch-up.
   */
  sendTyping(channel: string, userId: string): void {
    if (this.#client === null || this.#closed || this.#status !== 'connected') return
    this.#client
      .publish(channel, { type: 'typing', user_id: userId, started: this.#now() }, { attempts: 1 })
      .then(undefined, (error) => this.#deps.log.warn(`push: typing on ${channel} not sent`, error))
  }

  /** Disconnects and stops every retry. The connection cannot be started again. */
  async close(): Promise<void> {
    if (this.#closed) return
    this.#closed = true
    for (const [channel, entry] of this.#channels) {
      for (const waiter of entry.waiters) waiter.reject(new PushSubscriptionError(channel, null, 'connection closed'))
    }
    this.#channels.clear()
    const client = this.#client
    this.#client = null
    if (client !== null) {
      client.unbind('transport:down', this.#onTransportDown)
      client.unbind('transport:up', this.#onTransportUp)
      const disconnected = client.disconnect()
      // The goodbye is a courtesy: a service that is down cannot answer it.
      if (disconnected !== undefined) {
        await Promise.race([disconnected.then(undefined, () => undefined), new Promise((resolve) => setTimeout(resolve, 2_000).unref())])
      }
    }
    this.#setStatus('offline')
  }

  #subscribe(channel: string, waiters: ChannelState['waiters']): void {
    const client = this.#client
    if (client === null) {
      // faye is still loading: the channel is followed, and subscribed once the client is made.
      this.#channels.set(channel, { state: 'pending', subscription: null, waiters })
      return
    }
    const subscription = client.subscribe(channel, (data) => this.#deliver(channel, data))
    const entry: ChannelState = { state: 'pending', subscription, waiters }
    this.#channels.set(channel, entry)
    // faye rejects only the subscribes it sent on our behalf (not its own re-subscribes after a
    // handshake), and when it does it forgets the channel. Outcomes are tracked by the extension;
    // this only restores a channel that faye dropped because the service had forgotten the client.
    subscription.then(undefined, (error) => {
      if (this.#channels.get(channel) !== entry) return
      if (isUnknownClient(error.code, error.message)) this.#resubscribe(channel)
    })
  }

  #resubscribe(channel: string): void {
    const entry = this.#channels.get(channel)
    if (entry === undefined || this.#closed) return
    entry.subscription?.cancel()
    this.#subscribe(channel, entry.waiters)
  }

  readonly #extension: Extension = {
    outgoing: (message: BayeuxMessage, callback: (message: BayeuxMessage | null) => void) => {
      const token = this.#deps.getToken()
      if (message.channel === '/meta/subscribe') {
        const sentAt = this.#now()
        message.ext = { ...message.ext, access_token: token, timestamp: Math.floor(sentAt / 1000) }
        const channel = typeof message.subscription === 'string' ? message.subscription : null
        if (message.id !== undefined && channel !== null) this.#subscribesInFlight.set(message.id, { channel, sentAt })
        // Over long polling faye sends these in one batch with its /meta/connect, which then asks
        // for `advice: {timeout: 0}`: the service answers such a batch at once (§18.27), so the
        // subscribes are not held back with the connect.
      } else if (!message.channel.startsWith('/meta/')) {
        message.ext = { ...message.ext, access_token: token }
      }
      callback(message)
    },
    incoming: (message: BayeuxMessage, callback: (message: BayeuxMessage | null) => void) => {
      try {
        this.#observe(message)
      } catch (error) {
        this.#deps.log.error('push: could not follow a Bayeux reply', error)
      }
      callback(message)
    }
  }

  /** Reads the replies that tell whether the service still knows us and which subscriptions hold. */
  #observe(message: BayeuxMessage): void {
    this.#observeSession(message)
    this.#observeSubscribe(message)
    this.#evaluate()
  }

  #observeSession(message: BayeuxMessage): void {
    const { code, reason } = parseBayeuxError(message.error)
    // On any reply (connect, subscribe, publish): faye handshakes again on this advice by itself,
    // and a client the service forgot holds no subscription any more.
    if (message.advice?.reconnect === 'handshake' || isUnknownClient(code, reason)) {
      this.#forgetSubscriptions()
      this.#needsHandshake = true
    }
    if (message.channel === '/meta/handshake' && message.successful === true) {
      // A new client id: the service holds no subscription for it until faye re-makes them.
      this.#forgetSubscriptions()
      this.#needsHandshake = false
    }
  }

  #observeSubscribe(message: BayeuxMessage): void {
    if (message.channel !== '/meta/subscribe' || message.id === undefined) return
    const sent = this.#subscribesInFlight.get(message.id)
    this.#subscribesInFlight.delete(message.id)
    const channel = sent?.channel ?? (typeof message.subscription === 'string' ? message.subscription : null)
    if (channel === null) return
    const entry = this.#channels.get(channel)
    if (entry === undefined) return

    if (message.successful === true) {
      entry.state = 'subscribed'
      const waiters = entry.waiters.splice(0)
      for (const waiter of waiters) waiter.resolve()
      return
    }

    const { code, reason } = parseBayeuxError(message.error)
    if (isUnknownClient(code, reason)) return
    if (code === 401 && /timestamp/i.test(reason) && sent !== undefined && this.#now() - sent.sentAt > STALE_SUBSCRIBE_MS) {
      this.#deps.log.info(`push: re-subscribing to ${channel} with a fresh timestamp`)
      setTimeout(() => this.#resubscribe(channel), 0)
      return
    }
    // Refused for good (bad token, forbidden or invalid channel): report it and stop, so a token
    // that no longer works never turns into a hot loop of subscribes. During a recovery this also
    // ends the wait for that channel: the status returns to 'connected' (and `reconnected` fires)
    // once the channels that did re-subscribe are live, this refusal having been reported first.
    const error = new PushSubscriptionError(channel, code, reason)
    this.#deps.log.warn(`push: ${error.message}`)
    this.#channels.delete(channel)
    setTimeout(() => entry.subscription?.cancel(), 0)
    for (const waiter of entry.waiters) waiter.reject(error)
    this.#events.emit('subscriptionRefused', { channel, error })
  }

  #forgetSubscriptions(): void {
    for (const entry of this.#channels.values()) if (entry.state === 'subscribed') entry.state = 'lost'
  }

  readonly #onTransportDown = (): void => {
    this.#transportUp = false
    this.#evaluate()
  }

  readonly #onTransportUp = (): void => {
    this.#transportUp = true
    this.#evaluate()
  }

  /**
   * The only place that turns the facts above into a status and `reconnected`; called after any
   * of them changes. Connected means: the transport works, the service knows us, and every
   * followed channel is live. An outage (`reconnected` owed) is being connected and then losing
   * the transport or the client id, or losing a subscription already confirmed to its caller,
   * even before the status first reached 'connected'. A channel followed later and not yet
   * confirmed is no outage: its caller waits on whenSubscribed.
   */
  #evaluate(): void {
    if (this.#closed) return
    const sessionLive = this.#transportUp && !this.#needsHandshake
    const entries = [...this.#channels.values()]
    const lostSubscription = entries.some((entry) => entry.state === 'lost')
    if (lostSubscription || (this.#status === 'connected' && !sessionLive)) {
      this.#recovering = true
      if (this.#status === 'connected') this.#setStatus('reconnecting')
      return
    }
    if (this.#status === 'connected' || !sessionLive || entries.some((entry) => entry.state !== 'subscribed')) return
    this.#setStatus('connected')
    if (this.#recovering) {
      this.#recovering = false
      this.#events.emit('reconnected', undefined)
    }
  }

  #setStatus(status: PushStatus): void {
    if (this.#status === status) return
    this.#status = status
    this.#events.emit('status', status)
  }

  #deliver(channel: string, data: unknown): void {
    if (deliveries.hasSubscribers) deliveries.publish({ channel, data })
    const delivered = deliveryEvent(channel, data)
    if (delivered.event !== null) {
      this.#events.emit(delivered.event, delivered.payload)
      return
    }
    const note = delivered.note
    if (note === null) return
    if ('details' in note) this.#deps.log[note.level](note.text, note.details)
    else this.#deps.log[note.level](note.text)
  }
}

/** `401::Unknown client` as the service writes it, or `401:<clientId>:Unknown client` as stock faye does. */
function isUnknownClient(code: number | null, reason: string): boolean {
  return code === 401 && /unknown client/i.test(reason)
}

function parseBayeuxError(error: string | undefined): { code: number | null; reason: string } {
  const match = BAYEUX_ERROR.exec(error ?? '')
  if (match === null) return { code: null, reason: error ?? 'refused' }
  return { code: match[1] === undefined ? null : Number(match[1]), reason: match[2] ?? '' }
}
