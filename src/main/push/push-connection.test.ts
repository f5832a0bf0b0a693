// PushConnection against a stock faye gateway started in the test, with a small extension that
// checks the subscribe `ext` the way the service does (§14.2). Restarting that gateway on the
// same port is a service restart as the client sees it: every client id is unknown afterwards.
// `forgetClients` is the other way to lose a client: the engine discards it (as after the 60 s
// client timeout) while the server keeps running, so over long polling no request ever fails.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import faye from 'faye'
import type { Message as BayeuxMessage, Engine, NodeAdapter } from 'faye'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { PushStatus } from '@shared/session'
import { localServiceConfig } from '../api/service-config'
import type { Log } from '../log/log'
import { groupChannel, userChannel } from './channels'
import { PushConnection, PushSubscriptionError, type PushEvents } from './push-connection'

const TOKEN = 'A'.repeat(40)

interface SeenSubscribe {
  channel: string
  token: unknown
  timestamp: unknown
}

interface Gateway {
  origin: string
  port: number
  subscribes: SeenSubscribe[]
  /** Client ids that handshook over HTTP or WebSocket (not the in-process publisher). */
  handshakes: string[]
  publish(channel: string, data: unknown): Promise<void>
  /** Makes the engine discard every client that has subscribed, the server staying up. */
  forgetClients(): void
  stop(): Promise<void>
}

interface GatewayOptions {
  port?: number
  /** Decides a subscribe's error (or none); the default checks token and timestamp like §14.2. */
  check?: (message: BayeuxMessage, subscribe: SeenSubscribe) => string | null
  /** Holds a subscribe's reply this long. */
  replyDelayMs?: (subscribe: SeenSubscribe) => number
}

function serviceCheck(message: BayeuxMessage, subscribe: SeenSubscribe): string | null {
  if (subscribe.token !== TOKEN) return '401::Invalid access token'
  if (typeof subscribe.timestamp !== 'number' || !Number.isInteger(subscribe.timestamp)) return '401::Invalid timestamp'
  if (Math.abs(subscribe.timestamp - Date.now() / 1000) > 300) return '401::Invalid timestamp'
  if (message.subscription === '/user/999') return '403::Forbidden channel'
  return null
}

const gateways: Gateway[] = []

async function startGateway(options: GatewayOptions = {}): Promise<Gateway> {
  const http: Server = createServer()
  const adapter: NodeAdapter = new faye.NodeAdapter({ mount: '/faye', timeout: 2 })
  const subscribes: SeenSubscribe[] = []
  const handshakes: string[] = []
  const subscribers = new Set<string>()
  adapter.on('handshake', (clientId) => handshakes.push(clientId))
  adapter.on('subscribe', (clientId) => subscribers.add(clientId))
  adapter.addExtension({
    incoming: (message: BayeuxMessage, callback: (message: BayeuxMessage | null) => void) => {
      if (message.channel !== '/meta/subscribe') return callback(message)
      const subscribe = {
        channel: String(message.subscription),
        token: message.ext?.access_token,
        timestamp: message.ext?.timestamp
      }
      subscribes.push(subscribe)
      const error = (options.check ?? serviceCheck)(message, subscribe)
      if (error !== null) message.error = error
      const delay = options.replyDelayMs?.(subscribe) ?? 0
      if (delay > 0) setTimeout(() => callback(message), delay)
      else callback(message)
    }
  })
  adapter.attach(http)
  await new Promise<void>((resolve) => http.listen(options.port ?? 0, '127.0.0.1', resolve))
  const port = (http.address() as AddressInfo).port
  const gateway: Gateway = {
    origin: `http://127.0.0.1:${port}`,
    port,
    subscribes,
    // The in-process publisher handshakes too, but never subscribes.
    get handshakes() {
      return handshakes.filter((clientId) => subscribers.has(clientId))
    },
    publish: (channel, data) => adapter.getClient().publish(channel, data).then(() => undefined),
    forgetClients: () => {
      // faye 1.4.3 keeps its engine (the proxy in front of the memory engine) here; destroying a
      // client through it is what faye's own client timeout does: a held long-polling connect is
      // answered normally, a WebSocket is closed, and the next request gets `401:…:Unknown client`.
      const engine = (adapter as unknown as { _server: { _engine: Engine } })._server._engine
      // Destroying a client already gone does nothing.
      for (const clientId of subscribers) engine.destroyClient(clientId)
    },
    stop: async () => {
      adapter.close()
      http.closeAllConnections()
      await new Promise((resolve) => http.close(resolve))
    }
  }
  gateways.push(gateway)
  return gateway
}

const connections: PushConnection[] = []

function quietLog(): Log & { warnings: string[] } {
  const warnings: string[] = []
  return { warnings, info: () => undefined, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) }
}

function connect(origin: string, overrides: Partial<ConstructorParameters<typeof PushConnection>[0]> = {}) {
  const log = quietLog()
  const connection = new PushConnection({
    config: localServiceConfig(origin),
    getToken: () => TOKEN,
    log,
    retrySeconds: 0.2,
    maxRetrySeconds: 0.5,
    ...overrides
  })
  connections.push(connection)
  const statuses: PushStatus[] = []
  connection.on('status', (status) => statuses.push(status))
  return { connection, log, statuses }
}

function next<E extends keyof PushEvents>(connection: PushConnection, event: E): Promise<PushEvents[E]> {
  return new Promise((resolve) => {
    const stop = connection.on(event, (payload) => {
      stop()
      resolve(payload)
    })
  })
}

afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()))
  await Promise.all(gateways.splice(0).map((gateway) => gateway.stop().catch(() => undefined)))
})

const lineCreate = (id: string, text: string) => ({
  type: 'line.create',
  alert: `Ada: ${text}`,
  received_at: 1751412575000,
  subject: { id, text, created_at: 1751412575, group_id: '42', user_id: '7', sender_id: '7', name: 'Ada', source_guid: `g-${id}`, attachments: [] }
})

describe('PushConnection', () => {
  it('subscribes with the token and a timestamp in whole seconds, and emits decoded messages', async () => {
    const gateway = await startGateway()
    const { connection, statuses } = connect(gateway.origin)
    connection.follow(userChannel('7'))
    await connection.whenSubscribed(userChannel('7'))
    expect(connection.status).toBe('connected')
    expect(statuses).toEqual(['connecting', 'connected'])
    expect(gateway.subscribes).toHaveLength(1)
    expect(gateway.subscribes[0]).toMatchObject({ channel: '/user/7', token: TOKEN })
    expect(Math.abs(Number(gateway.subscribes[0]?.timestamp) - Date.now() / 1000)).toBeLessThan(5)

    const received = next(connection, 'lineCreated')
    await gateway.publish('/user/7', lineCreate('100000000000000001', 'hello'))
    const event = await received
    expect(event.alert).toBe('Ada: hello')
    expect(event.message).toMatchObject({ id: '100000000000000001', conversationId: '42', text: 'hello', senderName: 'Ada' })
  })

  // faye is loaded when the connection first starts, not with the app: what happens meanwhile holds.
  it('never handshakes when closed while faye is still loading', async () => {
    const gateway = await startGateway()
    const { connection, statuses } = connect(gateway.origin)
    connection.follow(userChannel('7'))
    const waiting = connection.whenSubscribed(userChannel('7'))
    await connection.close()
    await expect(waiting).rejects.toThrow('connection closed')
    // Long enough for faye to have loaded and, had it been made, a client to have handshaken.
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(gateway.handshakes).toEqual([])
    expect(statuses).toEqual(['connecting', 'offline'])
  })

  it('subscribes only what is still followed once faye has loaded', async () => {
    const gateway = await startGateway()
    const { connection } = connect(gateway.origin)
    connection.follow(userChannel('7'))
    connection.follow(groupChannel('42'))
    connection.unfollow(groupChannel('42'))
    await connection.whenSubscribed(userChannel('7'))
    expect(connection.status).toBe('connected')
    expect(gateway.subscribes.map((subscribe) => subscribe.channel)).toEqual(['/user/7'])
  })

  it('skips and logs a payload it cannot read, and carries on', async () => {
    const gateway = await startGateway()
    const { connection, log } = connect(gateway.origin)
    connection.follow(groupChannel('42'))
    await connection.whenSubscribed(groupChannel('42'))
    const events: string[] = []
    connection.on('lineCreated', (event) => events.push(event.message.id))
    connection.on('typing', (event) => events.push(`typing ${event.userId} in ${event.conversationId ?? '?'}`))
    const typed = next(connection, 'typing')
    await gateway.publish('/group/42', { type: 'line.create', subject: { text: 'no id' } })
    await gateway.publish('/group/42', { type: 'typing', user_id: '8', started: 1751404765673 })
    await typed
    expect(events).toEqual(['typing 8 in 42'])
    expect(log.warnings.some((warning) => warning.includes('unreadable'))).toBe(true)
  })

  it('reports a refused subscription once instead of retrying it', async () => {
    const gateway = await startGateway()
    const { connection } = connect(gateway.origin, { getToken: () => 'revoked' })
    const refused = next(connection, 'subscriptionRefused')
    connection.follow(userChannel('7'))
    const waiting = connection.whenSubscribed(userChannel('7'))
    await expect(waiting).rejects.toBeInstanceOf(PushSubscriptionError)
    await expect(waiting).rejects.toMatchObject({ code: 401, reason: 'Invalid access token' })
    expect((await refused).channel).toBe('/user/7')
    expect(connection.followed()).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    expect(gateway.subscribes).toHaveLength(1)
  })

  it('keeps the channels it may have when one is forbidden', async () => {
    const gateway = await startGateway()
    const { connection } = connect(gateway.origin)
    connection.follow(userChannel('999'))
    connection.follow(userChannel('7'))
    await expect(connection.whenSubscribed(userChannel('999'))).rejects.toMatchObject({ code: 403 })
    await connection.whenSubscribed(userChannel('7'))
    expect(connection.followed()).toEqual(['/user/7'])
    expect(connection.status).toBe('connected')
  })

  it('after a restart of the service, handshakes, re-subscribes with a fresh timestamp and says so', async () => {
    let clock = Date.now()
    const first = await startGateway()
    const { connection, statuses } = connect(first.origin, { now: () => clock })
    connection.follow(userChannel('7'))
    connection.follow(groupChannel('42'))
    await connection.whenSubscribed(userChannel('7'))
    await connection.whenSubscribed(groupChannel('42'))
    const firstStamp = Number(first.subscribes[0]?.timestamp)

    await first.stop()
    await vi.waitFor(() => expect(connection.status).toBe('reconnecting'), { timeout: 10_000 })
    clock += 90_000
    const reconnected = next(connection, 'reconnected')
    const second = await startGateway({ port: first.port, check: (_message, subscribe) => (subscribe.token === TOKEN ? null : '401::Invalid access token') })
    await reconnected
    expect(connection.status).toBe('connected')
    expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected'])
    expect(second.subscribes.map((s) => s.channel).sort()).toEqual(['/group/42', '/user/7'])
    for (const subscribe of second.subscribes) expect(Number(subscribe.timestamp)).toBeGreaterThanOrEqual(firstStamp + 90)

    const received = next(connection, 'lineCreated')
    await second.publish('/group/42', lineCreate('100000000000000002', 'again'))
    expect((await received).message.text).toBe('again')
  }, 20_000)

  it('sends typing once and only while connected, so typing through a restart costs no reconnect of its own', async () => {
    const first = await startGateway()
    const { connection, statuses } = connect(first.origin)
    let reconnected = 0
    connection.on('reconnected', () => (reconnected += 1))
    connection.follow(groupChannel('42'))
    await connection.whenSubscribed(groupChannel('42'))
    // Someone writing all through the outage (the app sends typing every few seconds; faster here).
    const typing = setInterval(() => connection.sendTyping(groupChannel('42'), '7'), 20)
    try {
      await new Promise((resolve) => setTimeout(resolve, 200))
      await first.stop()
      await vi.waitFor(() => expect(connection.status).toBe('reconnecting'), { timeout: 10_000 })
      await new Promise((resolve) => setTimeout(resolve, 300))
      const second = await startGateway({ port: first.port })
      await vi.waitFor(() => expect(reconnected).toBe(1), { timeout: 10_000, interval: 20 })
      // Room for a publish of before the restart, sent again with the client id the service forgot, to show itself.
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected'])
      expect(reconnected).toBe(1)
      expect(second.handshakes).toHaveLength(1)
    } finally {
      clearInterval(typing)
    }
  }, 20_000)

  describe.each([
    ['long polling', true],
    ['WebSocket', false]
  ])('when the service forgets the client over %s', (_transport, longPollingOnly) => {
    it('reports the outage, re-subscribes, and says once that it is back', async () => {
      const gateway = await startGateway()
      const { connection, statuses } = connect(gateway.origin, { longPollingOnly })
      connection.follow(userChannel('7'))
      connection.follow(groupChannel('42'))
      await connection.whenSubscribed(userChannel('7'))
      await connection.whenSubscribed(groupChannel('42'))
      expect(statuses).toEqual(['connecting', 'connected'])

      const backWith: string[][] = []
      connection.on('reconnected', () => backWith.push(connection.followed().filter((channel) => connection.isSubscribed(channel))))
      gateway.forgetClients()
      await vi.waitFor(() => expect(backWith).toHaveLength(1), { timeout: 10_000, interval: 20 })
      expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected'])
      expect(backWith[0]).toEqual(['/user/7', '/group/42'])
      expect(gateway.handshakes).toHaveLength(2)
      expect(gateway.subscribes.map((subscribe) => subscribe.channel).sort()).toEqual(['/group/42', '/group/42', '/user/7', '/user/7'])

      const received = next(connection, 'lineCreated')
      await gateway.publish('/group/42', lineCreate('100000000000000004', 'back'))
      expect((await received).message.text).toBe('back')
      // However many signs of the one outage arrived (a closed socket, then `Unknown client`), it was one.
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(backWith).toHaveLength(1)
      expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected'])
    }, 20_000)

    it('reports each outage once', async () => {
      const gateway = await startGateway()
      const { connection, statuses } = connect(gateway.origin, { longPollingOnly })
      let reconnected = 0
      connection.on('reconnected', () => (reconnected += 1))
      connection.follow(userChannel('7'))
      await connection.whenSubscribed(userChannel('7'))
      for (const outage of [1, 2]) {
        gateway.forgetClients()
        await vi.waitFor(() => expect(reconnected).toBe(outage), { timeout: 10_000, interval: 20 })
      }
      expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected', 'reconnecting', 'connected'])
      expect(gateway.handshakes).toHaveLength(3)
    }, 20_000)
  })

  it('reports a subscription refused while recovering, and is back with the channels that did re-subscribe', async () => {
    let refuseGroup = false
    const gateway = await startGateway({
      check: (message, subscribe) => (refuseGroup && subscribe.channel === '/group/42' ? '403::Forbidden channel' : serviceCheck(message, subscribe))
    })
    const { connection, statuses } = connect(gateway.origin, { longPollingOnly: true })
    connection.follow(userChannel('7'))
    connection.follow(groupChannel('42'))
    await connection.whenSubscribed(userChannel('7'))
    await connection.whenSubscribed(groupChannel('42'))
    const events: string[] = []
    connection.on('subscriptionRefused', ({ channel, error }) => events.push(`refused ${channel} ${String(error.code)}`))
    connection.on('reconnected', () => events.push(`reconnected, ${connection.status}, live: ${connection.followed().join(' ')}`))

    refuseGroup = true
    gateway.forgetClients()
    await vi.waitFor(() => expect(events).toHaveLength(2), { timeout: 10_000, interval: 20 })
    expect(events).toEqual(['refused /group/42 403', 'reconnected, connected, live: /user/7'])
    expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected'])
    expect(connection.isSubscribed(userChannel('7'))).toBe(true)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(gateway.subscribes.filter((subscribe) => subscribe.channel === '/group/42')).toHaveLength(2)
  }, 20_000)

  it('counts a confirmed subscription lost before everything was live as an outage', async () => {
    // /group/42 is answered late, so the status is still 'connecting' when the client is forgotten,
    // but /user/7 was already confirmed, and whoever waited for it may have missed something.
    // (Over WebSocket, where each subscribe is answered alone; long polling batches them.)
    let slowGroup = true
    const gateway = await startGateway({ replyDelayMs: (subscribe) => (slowGroup && subscribe.channel === '/group/42' ? 1_000 : 0) })
    const { connection, statuses } = connect(gateway.origin)
    let reconnected = 0
    connection.on('reconnected', () => (reconnected += 1))
    connection.follow(userChannel('7'))
    connection.follow(groupChannel('42'))
    await connection.whenSubscribed(userChannel('7'))
    expect(connection.status).toBe('connecting')
    slowGroup = false
    gateway.forgetClients()
    await connection.whenSubscribed(groupChannel('42'))
    await vi.waitFor(() => expect(reconnected).toBe(1), { timeout: 10_000, interval: 20 })
    expect(connection.isSubscribed(userChannel('7'))).toBe(true)
    expect(statuses).toEqual(['connecting', 'connected'])
    expect(gateway.handshakes).toHaveLength(2)
  }, 20_000)

  it('does not count a channel followed while connected as an outage', async () => {
    const gateway = await startGateway({ replyDelayMs: (subscribe) => (subscribe.channel === '/group/42' ? 200 : 0) })
    const { connection, statuses } = connect(gateway.origin)
    let reconnected = 0
    connection.on('reconnected', () => (reconnected += 1))
    connection.follow(userChannel('7'))
    await connection.whenSubscribed(userChannel('7'))
    connection.follow(groupChannel('42'))
    expect(connection.isSubscribed(groupChannel('42'))).toBe(false)
    await connection.whenSubscribed(groupChannel('42'))
    expect(statuses).toEqual(['connecting', 'connected'])
    expect(reconnected).toBe(0)
  })

  it('re-makes a subscribe whose timestamp went stale while it waited for an answer', async () => {
    let clock = Date.now()
    const gateway = await startGateway({
      // The first subscribe is answered late and refused for its timestamp, as after a long outage.
      check: () => (gateway.subscribes.length === 1 ? '401::Invalid timestamp' : null),
      replyDelayMs: () => (gateway.subscribes.length === 1 ? 300 : 0)
    })
    const { connection } = connect(gateway.origin, { now: () => clock })
    connection.follow(userChannel('7'))
    await vi.waitFor(() => expect(gateway.subscribes).toHaveLength(1))
    clock += 120_000
    await connection.whenSubscribed(userChannel('7'))
    expect(gateway.subscribes).toHaveLength(2)
    expect(Number(gateway.subscribes[1]?.timestamp) - Number(gateway.subscribes[0]?.timestamp)).toBe(120)
  })

  it('closes cleanly and goes offline', async () => {
    const gateway = await startGateway()
    const { connection, statuses } = connect(gateway.origin)
    connection.follow(userChannel('7'))
    await connection.whenSubscribed(userChannel('7'))
    const events: unknown[] = []
    connection.on('lineCreated', (event) => events.push(event))
    await connection.close()
    expect(statuses.at(-1)).toBe('offline')
    await gateway.publish('/user/7', lineCreate('100000000000000003', 'too late'))
    await new Promise((resolve) => setTimeout(resolve, 200))
    expect(events).toEqual([])
    connection.follow(userChannel('7'))
    expect(connection.followed()).toEqual([])
  })

  it('stops retrying when closed while the service is unreachable', async () => {
    const gateway = await startGateway()
    await gateway.stop()
    const { connection, statuses } = connect(gateway.origin)
    connection.start()
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(connection.status).toBe('connecting')
    await connection.close()
    expect(statuses).toEqual(['connecting', 'offline'])
  })
})
