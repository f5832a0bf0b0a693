// The push connection against the real local service: sign in through the SMS pin, send over
// REST, receive over Bayeux; then stop the service, start it again on the same database file and
// port, and check the client finds its way back and receives again. Once with the restart seen as
// a failed transport, and once (long polling behind a relay) with no request failing at all, where
// the only sign is the service answering `401::Unknown client`. And behind a proxy that blocks
// WebSockets, the client falls back to long polling and still subscribes at once.
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Duplex } from 'node:stream'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startService, type RunningService } from '../../server/src/index'
import { ServiceUnreachableError } from '../../src/main/api/api-error'
import { sendDirectMessage } from '../../src/main/api/chats'
import { wireGroup } from '../../src/main/api/decoders'
import { listGroupMessages, sendGroupMessage } from '../../src/main/api/messages'
import { ServiceClient } from '../../src/main/api/service-client'
import { localServiceConfig } from '../../src/main/api/service-config'
import { confirmCode, sendSmsCode, signIn } from '../../src/main/api/sessions'
import type { Log } from '../../src/main/log/log'
import { directMessageChannel, groupChannel, userChannel } from '../../src/main/push/channels'
import { PushConnection, type PushEvents } from '../../src/main/push/push-connection'
import type { PushStatus } from '@shared/session'
import { tokenFrom } from '../support/memory-platform'

let directory: string
let dbPath: string
let service: RunningService

beforeAll(async () => {
  directory = mkdtempSync(join(tmpdir(), 'parley-push-'))
  dbPath = join(directory, 'service.db')
  service = await startService({ port: 0, db: dbPath, dev: true })
})

afterAll(async () => {
  await service.close()
  rmSync(directory, { recursive: true, force: true })
})

const connections: PushConnection[] = []
const relays: Relay[] = []

afterEach(async () => {
  await Promise.all(connections.splice(0).map((connection) => connection.close()))
  await Promise.all(relays.splice(0).map((relay) => relay.close()))
})

let accounts = 0

interface SignedIn {
  id: string
  token: string
  client: ServiceClient
}

/** A fresh account, signed in the way the app does it: password, SMS pin from the dev outbox, password again. */
async function newSignedInAccount(name: string, target: RunningService = service): Promise<SignedIn> {
  accounts += 1
  const email = `${name.toLowerCase()}${accounts}@example.test`
  const phone = `+1 55501${String(10000 + accounts)}`
  const password = 'correct horse'
  const created = await fetch(`${target.origin}/dev/users`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name, email, phone_number: phone, password })
  })
  const { user } = (await created.json()) as { user: { id: string } }

  let token: string | null = null
  // The origin is read per request: after a restart the service answers on the same port anyway.
  const client = new ServiceClient({ config: localServiceConfig(target.origin), getToken: () => tokenFrom(localServiceConfig(target.origin), token) })
  const challenge = await signIn(client, { username: email, password, deviceId: 'push-test' })
  if (challenge.kind !== 'verification') throw new Error('expected a challenge')
  await sendSmsCode(client, challenge.verification.code)
  const outbox = (await (await fetch(`${target.origin}/dev/outbox?to=${encodeURIComponent(phone)}`)).json()) as { text: string }[]
  const pin = /(\d{6})/.exec(outbox.at(-1)?.text ?? '')?.[1] ?? ''
  expect(await confirmCode(client, challenge.verification.code, pin)).toEqual({ kind: 'verified' })
  const result = await signIn(client, { username: email, password, deviceId: 'push-test', verificationCode: challenge.verification.code })
  if (result.kind !== 'token') throw new Error('expected a token')
  token = result.result.access_token
  return { id: user.id, token, client }
}

async function createGroup(client: ServiceClient, name: string): Promise<string> {
  const group = await client.call({ operation: 'G5 create group', method: 'POST', host: 'base', path: '/groups', body: { name }, schema: wireGroup, attested: true })
  return group.id
}

function pushFor(token: string, longPollingOnly = false, origin = service.origin): { connection: PushConnection; statuses: PushStatus[]; warnings: string[] } {
  const warnings: string[] = []
  const log: Log = { info: () => undefined, warn: (message) => warnings.push(message), error: (message) => warnings.push(message) }
  const connection = new PushConnection({ config: localServiceConfig(origin), getToken: () => token, log, retrySeconds: 0.2, maxRetrySeconds: 1, longPollingOnly })
  connections.push(connection)
  const statuses: PushStatus[] = []
  connection.on('status', (status) => statuses.push(status))
  return { connection, statuses, warnings }
}

interface Relay {
  origin: string
  /** WebSocket upgrades asked of the relay, each refused with 403. */
  readonly refusedUpgrades: number
  /** Requests arriving from now on wait, unsent, until `release`. */
  hold(): void
  release(): void
  close(): Promise<void>
}

/**
 * An HTTP relay in front of the service, as a load balancer would be: each request is forwarded
 * to the service's current origin, and one the service could not take (it was restarting) is sent
 * again until it is, so the client behind it never sees a request fail. HTTP only, like a proxy
 * that blocks WebSockets: it refuses every upgrade (counted in `refusedUpgrades`), so a client
 * behind it uses long polling.
 */
async function startRelay(target: () => RunningService = () => service): Promise<Relay> {
  let waiting: (() => void)[] | null = null
  let refusedUpgrades = 0
  const server = createServer((incoming, outgoing) => {
    const chunks: Buffer[] = []
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk))
    incoming.on('end', () => {
      const body = Buffer.concat(chunks)
      const headers = { ...incoming.headers }
      delete headers.host
      delete headers.connection
      const deadline = Date.now() + 20_000
      const attempt = (): void => {
        if (waiting !== null) {
          waiting.push(attempt)
          return
        }
        const upstream = httpRequest(new URL(incoming.url ?? '/', target().origin), { method: incoming.method, headers, agent: false }, (reply) => {
          outgoing.writeHead(reply.statusCode ?? 502, reply.headers)
          reply.pipe(outgoing)
        })
        upstream.on('error', () => {
          if (outgoing.headersSent) outgoing.destroy()
          else if (Date.now() > deadline) outgoing.writeHead(502).end()
          else setTimeout(attempt, 50)
        })
        upstream.end(body)
      }
      attempt()
    })
  })
  server.on('upgrade', (_request, socket: Duplex) => {
    refusedUpgrades += 1
    socket.end('HTTP/1.1 403 Forbidden\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const relay: Relay = {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    get refusedUpgrades() {
      return refusedUpgrades
    },
    hold: () => {
      waiting ??= []
    },
    release: () => {
      const attempts = waiting ?? []
      waiting = null
      for (const attempt of attempts) attempt()
    },
    close: async () => {
      waiting = null
      server.closeAllConnections()
      await new Promise((resolve) => server.close(resolve))
    }
  }
  relays.push(relay)
  return relay
}

async function restartService(): Promise<void> {
  const port = Number(new URL(service.origin).port)
  await service.close()
  service = await startService({ port, db: dbPath, dev: true })
}

function next<E extends keyof PushEvents>(connection: PushConnection, event: E, accept: (payload: PushEvents[E]) => boolean = () => true): Promise<PushEvents[E]> {
  return new Promise((resolve) => {
    const stop = connection.on(event, (payload) => {
      if (!accept(payload)) return
      stop()
      resolve(payload)
    })
  })
}

describe('push against the local service', () => {
  it('delivers a group message sent over REST to the user channel, and typing on the group channel', async () => {
    const ada = await newSignedInAccount('Ada')
    const groupId = await createGroup(ada.client, 'Engines')
    const { connection, statuses } = pushFor(ada.token)
    connection.follow(userChannel(ada.id))
    connection.follow(groupChannel(groupId))
    await connection.whenSubscribed(userChannel(ada.id))
    await connection.whenSubscribed(groupChannel(groupId))
    expect(statuses).toEqual(['connecting', 'connected'])

    const received = next(connection, 'lineCreated', (event) => event.message.text === 'over the wire')
    const sent = await sendGroupMessage(ada.client, groupId, { sourceGuid: 'push-1', text: 'over the wire' })
    const event = await received
    expect(event.channel).toBe(userChannel(ada.id))
    expect(event.message).toMatchObject({ id: sent.id, conversationId: groupId, senderId: ada.id, text: 'over the wire' })
    expect(event.alert).toContain('over the wire')

    // A second connection of the same user sees the first one's typing (§18.14).
    const other = pushFor(ada.token).connection
    other.follow(groupChannel(groupId))
    await other.whenSubscribed(groupChannel(groupId))
    const typing = next(other, 'typing')
    connection.sendTyping(groupChannel(groupId), ada.id)
    expect(await typing).toMatchObject({ conversationId: groupId, userId: ada.id })
  })

  it('works over long polling alone, where a held connect must not hold the subscribes back', async () => {
    const ada = await newSignedInAccount('Ada')
    const groupId = await createGroup(ada.client, 'Polling')
    const { connection } = pushFor(ada.token, true)
    connection.follow(userChannel(ada.id))
    connection.follow(groupChannel(groupId))
    await connection.whenSubscribed(userChannel(ada.id))
    await connection.whenSubscribed(groupChannel(groupId))
    const received = next(connection, 'lineCreated')
    await sendGroupMessage(ada.client, groupId, { sourceGuid: 'polled', text: 'by polling' })
    expect((await received).message.text).toBe('by polling')
  })

  it('delivers a direct message to both parties', async () => {
    const ada = await newSignedInAccount('Ada')
    const bob = await newSignedInAccount('Bob')
    const { connection } = pushFor(bob.token)
    connection.follow(userChannel(bob.id))
    await connection.whenSubscribed(userChannel(bob.id))
    const received = next(connection, 'directMessageCreated')
    await sendDirectMessage(ada.client, bob.id, { sourceGuid: 'dm-push', text: 'psst' })
    const chatId = Number(ada.id) < Number(bob.id) ? `${ada.id}+${bob.id}` : `${bob.id}+${ada.id}`
    expect((await received).message).toMatchObject({ conversationId: chatId, text: 'psst', senderId: ada.id })

    connection.follow(directMessageChannel(chatId))
    await connection.whenSubscribed(directMessageChannel(chatId))
  })

  it('reports a subscription with a bad token, and one to a group the user is not in', async () => {
    const ada = await newSignedInAccount('Ada')
    const bob = await newSignedInAccount('Bob')
    const bobsGroup = await createGroup(bob.client, 'Private')

    const bad = pushFor('x'.repeat(40))
    const refused = next(bad.connection, 'subscriptionRefused')
    bad.connection.follow(userChannel(ada.id))
    await expect(bad.connection.whenSubscribed(userChannel(ada.id))).rejects.toMatchObject({ code: 401 })
    expect((await refused).error.reason).toMatch(/access token/i)
    expect(bad.connection.followed()).toEqual([])

    const { connection } = pushFor(ada.token)
    connection.follow(groupChannel(bobsGroup))
    connection.follow(userChannel(ada.id))
    await expect(connection.whenSubscribed(groupChannel(bobsGroup))).rejects.toMatchObject({ code: 403 })
    await connection.whenSubscribed(userChannel(ada.id))
    expect(connection.status).toBe('connected')
  })

  it('after the service restarts on the same database, reconnects, re-subscribes and receives again', async () => {
    const ada = await newSignedInAccount('Ada')
    const groupId = await createGroup(ada.client, 'Survivors')
    const { connection, statuses } = pushFor(ada.token)
    connection.follow(userChannel(ada.id))
    connection.follow(groupChannel(groupId))
    await connection.whenSubscribed(userChannel(ada.id))
    await connection.whenSubscribed(groupChannel(groupId))

    const port = Number(new URL(service.origin).port)
    await service.close()
    await vi.waitFor(() => expect(connection.status).toBe('reconnecting'), { timeout: 15_000, interval: 50 })
    const reconnected = next(connection, 'reconnected')
    service = await startService({ port, db: dbPath, dev: true })
    await reconnected
    expect(connection.status).toBe('connected')
    expect(connection.isSubscribed(userChannel(ada.id))).toBe(true)
    expect(connection.isSubscribed(groupChannel(groupId))).toBe(true)
    expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected'])

    const received = next(connection, 'lineCreated', (event) => event.message.text === 'still here')
    await sendGroupMessage(ada.client, groupId, { sourceGuid: 'after-restart', text: 'still here' })
    expect((await received).message.conversationId).toBe(groupId)
  }, 40_000)

  it('when a restart between long polls makes the service forget the client, says it reconnected so the gap can be fetched', async () => {
    const ada = await newSignedInAccount('Ada')
    const groupId = await createGroup(ada.client, 'Forgotten')
    const relay = await startRelay()
    const { connection, statuses } = pushFor(ada.token, true, relay.origin)
    connection.follow(userChannel(ada.id))
    connection.follow(groupChannel(groupId))
    await connection.whenSubscribed(userChannel(ada.id))
    await connection.whenSubscribed(groupChannel(groupId))
    const pushed: string[] = []
    connection.on('lineCreated', (event) => pushed.push(event.message.text))
    let reconnected = 0
    connection.on('reconnected', () => (reconnected += 1))

    // The service restarts while the client's next long poll waits in the relay: the poll the
    // service held is answered as it stops, and no request fails.
    relay.hold()
    await restartService()
    // Sent in the gap: the new service has no subscription for this client, so push cannot bring it.
    const gapMessage = { sourceGuid: 'in-the-gap', text: 'sent in the gap' }
    // The REST client's pooled connection went down with the old service: the first try may find it closed.
    const missed = await sendGroupMessage(ada.client, groupId, gapMessage).catch((error: unknown) => {
      if (error instanceof ServiceUnreachableError) return sendGroupMessage(ada.client, groupId, gapMessage)
      throw error
    })
    expect(statuses).toEqual(['connecting', 'connected'])

    relay.release()
    await vi.waitFor(() => expect(reconnected).toBe(1), { timeout: 15_000, interval: 50 })
    expect(connection.isSubscribed(userChannel(ada.id))).toBe(true)
    expect(connection.isSubscribed(groupChannel(groupId))).toBe(true)
    expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected'])

    // What `reconnected` is for: the app catches up over REST.
    const page = await listGroupMessages(ada.client, groupId)
    expect(page.messages.map((message) => message.id)).toContain(missed.id)

    const received = next(connection, 'lineCreated', (event) => event.message.text === 'after the gap')
    await sendGroupMessage(ada.client, groupId, { sourceGuid: 'after-gap', text: 'after the gap' })
    await received
    // The message after the gap arrived, the one in it never did, and there was one outage.
    expect(pushed).not.toContain('sent in the gap')
    expect(reconnected).toBe(1)
    expect(statuses).toEqual(['connecting', 'connected', 'reconnecting', 'connected'])
  }, 40_000)

  it('behind a proxy that blocks WebSockets, falls back to long polling and subscribes long before a held connect would end', async () => {
    // A hold far longer than any honest answer: a subscribe that waited for it could not pass.
    const holdMs = 60_000
    const holding = await startService({ port: 0, dev: true, push: { idlePingMs: holdMs } })
    try {
      const ada = await newSignedInAccount('Ada', holding)
      const relay = await startRelay(() => holding)
      const { connection } = pushFor(ada.token, false, relay.origin)
      const started = Date.now()
      connection.follow(userChannel(ada.id))
      await connection.whenSubscribed(userChannel(ada.id))
      const subscribedMs = Date.now() - started
      console.log(`subscribed over long polling in ${subscribedMs} ms, with WebSockets refused and a ${holdMs} ms hold`)
      expect(subscribedMs).toBeLessThan(10_000)
      expect(relay.refusedUpgrades).toBeGreaterThan(0)
      expect(connection.status).toBe('connected')

      const received = next(connection, 'lineCreated', (event) => event.message.text === 'through the proxy')
      await sendGroupMessage(ada.client, await createGroup(ada.client, 'Proxied'), { sourceGuid: 'proxied', text: 'through the proxy' })
      await received
    } finally {
      await Promise.all(connections.splice(0).map((connection) => connection.close()))
      await holding.close()
    }
  })
})
