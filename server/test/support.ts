import faye, { type Client, type Message } from 'faye'
import { randomUUID } from 'node:crypto'
import { startService, type RunningService, type ServiceOptions } from '../src/index.js'

/**
 * Shared helpers for black-box tests of the service: real HTTP on port 0, an in-memory database
 * unless `db` is given, dev endpoints on. Typical use:
 *
 *   const service = await startTestService()
 *   const alice = await service.signUp({ name: 'Alice' })
 *   const res = await service.call('GET', '/v3/users/me', { token: alice.token })
 *   expect(res.status).toBe(200)
 *   await service.close()
 */

/**
 * A response body or push payload as received. Tests check these with `expect`, so they are typed
 * loosely on purpose; the shapes themselves are what the tests verify.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any

export interface CallOptions {
  token?: string
  /** Sent as the `X-Access-Token` header instead of the `token` query parameter. */
  tokenHeader?: string
  /** Serialized as JSON unless it is already a string or a Buffer (sent as is). */
  body?: unknown
  query?: Record<string, string>
  headers?: Record<string, string>
  /** Adds `X-verify-token` with the service's attestation secret. */
  attest?: boolean
}

export interface CallResult<T = Json> {
  status: number
  /** Parsed JSON, or null for an empty body. */
  body: T
  text: string
  headers: Headers
}

export interface TestUser {
  id: string
  name: string
  email: string
  phoneNumber: string
  password: string
  /** Empty for users made with `createUser`; set by `signUp` / `signIn`. */
  token: string
}

export interface TestService extends RunningService {
  /** Any HTTP call on the service, path relative to the origin (`/v3/groups`). */
  call<T = Json>(method: string, path: string, options?: CallOptions): Promise<CallResult<T>>
  /** POST /dev/users with unique defaults; returns the user without a token. */
  createUser(overrides?: Partial<Pick<TestUser, 'name' | 'email' | 'phoneNumber' | 'password'>>): Promise<TestUser>
  /** The full new-device sign-in: L1 → 202, V2 (SMS PIN via /dev/outbox), V3, L1 with the code. */
  signIn(user: TestUser, options?: { appId?: string; deviceId?: string }): Promise<string>
  /** createUser + signIn. */
  signUp(overrides?: Partial<Pick<TestUser, 'name' | 'email' | 'phoneNumber' | 'password'>>): Promise<TestUser>
  /** The newest SMS PIN sent to a phone. */
  lastPin(phoneNumber: string): Promise<string>
  advanceClock(seconds: number): Promise<number>
  /** G5 with attestation; returns the group. */
  createGroup(owner: TestUser, body?: Record<string, unknown>): Promise<Json>
  /** MB2 with attestation: the owner (or a manager) adds `member`, under their own name as nickname. */
  addMember(owner: TestUser, groupId: string, member: TestUser): Promise<void>
  /** MS2; returns the message. */
  sendGroupMessage(sender: TestUser, groupId: string, text: string, extra?: Record<string, unknown>): Promise<Json>
  /** C3; returns the message. */
  sendDirectMessage(sender: TestUser, recipientId: string, text: string): Promise<Json>
}

let counter = 0

/** A number unique within this test process, for e-mails and phones. */
function nextSerial(): number {
  counter += 1
  return process.pid * 1000 + counter
}

export async function startTestService(options: ServiceOptions = {}): Promise<TestService> {
  const running = await startService({ port: 0, dev: true, ...options })

  async function call<T = Json>(method: string, path: string, options: CallOptions = {}): Promise<CallResult<T>> {
    const url = new URL(path, running.boundOrigin)
    for (const [key, value] of Object.entries(options.query ?? {})) url.searchParams.set(key, value)
    if (options.token !== undefined) url.searchParams.set('token', options.token)
    const headers: Record<string, string> = { ...options.headers }
    if (options.tokenHeader !== undefined) headers['x-access-token'] = options.tokenHeader
    if (options.attest === true) headers['x-verify-token'] = running.attestationSecret
    let body: string | Buffer | undefined
    if (options.body !== undefined) {
      if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body
      else body = JSON.stringify(options.body)
      headers['content-type'] ??= 'application/json'
    }
    const send = (): Promise<Response> => fetch(url, { method, headers, ...(body === undefined ? {} : { body }) })
    // After a restart on the same port, fetch may first pick a kept-alive connection to the
    // service that is gone; that request never reached a live service, so it is sent again.
    const response = await send().catch((error: unknown) => {
      if ((error as { cause?: { code?: string } }).cause?.code === 'UND_ERR_SOCKET') return send()
      throw error
    })
    const text = await response.text()
    let parsed: unknown = null
    if (text !== '') {
      try {
        parsed = JSON.parse(text)
      } catch {
        parsed = text
      }
    }
    return { status: response.status, body: parsed as T, text, headers: response.headers }
  }

  function expectStatus(result: CallResult, status: number, what: string): void {
    if (result.status !== status) throw new Error(`${what}: expected ${status}, got ${result.status} ${result.text}`)
  }

  async function createUser(overrides: Partial<Pick<TestUser, 'name' | 'email' | 'phoneNumber' | 'password'>> = {}): Promise<TestUser> {
    const serial = nextSerial()
    const user = {
      name: overrides.name ?? `User ${serial}`,
      email: overrides.email ?? `user${serial}@example.test`,
      phoneNumber: overrides.phoneNumber ?? `+1 ${String(5550000000 + serial).slice(-10)}`,
      password: overrides.password ?? 'correct horse battery'
    }
    const result = await call('POST', '/dev/users', {
      body: { name: user.name, email: user.email, phone_number: user.phoneNumber, password: user.password }
    })
    expectStatus(result, 201, 'POST /dev/users')
    return { ...user, id: result.body.user.id as string, token: '' }
  }

  async function lastPin(phoneNumber: string): Promise<string> {
    const outbox = await call('GET', '/dev/outbox', { query: { to: phoneNumber } })
    const last = (outbox.body as { text: string }[]).at(-1)
    const pin = last?.text.match(/(\d{6})/)?.[1]
    if (pin === undefined) throw new Error(`no PIN was sent to ${phoneNumber}`)
    return pin
  }

  async function signIn(user: TestUser, options: { appId?: string; deviceId?: string } = {}): Promise<string> {
    const login = {
      app_id: options.appId ?? 'test-app',
      grant_type: 'password',
      username: user.email,
      password: user.password,
      device_id: options.deviceId ?? `device-${randomUUID()}`
    }
    const challenge = await call('POST', '/v2/access_tokens', { body: login })
    if (challenge.status === 200) return challenge.body.access_token as string
    expectStatus(challenge, 202, 'L1')
    const code = challenge.body.verification.code as string
    expectStatus(
      await call('POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } }),
      200,
      'V2'
    )
    const pin = await lastPin(user.phoneNumber)
    expectStatus(await call('POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin } } }), 200, 'V3')
    const granted = await call('POST', '/v2/access_tokens', { body: { ...login, verification: { code } } })
    expectStatus(granted, 200, 'L1 with code')
    return granted.body.access_token as string
  }

  return {
    ...running,
    call,
    createUser,
    lastPin,
    signIn,
    async signUp(overrides = {}) {
      const user = await createUser(overrides)
      return { ...user, token: await signIn(user) }
    },
    async advanceClock(seconds) {
      const result = await call('POST', '/dev/clock', { body: { advance_seconds: seconds } })
      expectStatus(result, 200, 'POST /dev/clock')
      return result.body.now as number
    },
    async createGroup(owner, body = {}) {
      const result = await call('POST', '/v3/groups', { token: owner.token, attest: true, body: { name: 'Test group', ...body } })
      expectStatus(result, 201, 'G5')
      return result.body.response
    },
    async addMember(owner, groupId, member) {
      const result = await call('POST', `/v3/groups/${groupId}/members/add`, {
        token: owner.token,
        attest: true,
        body: { members: [{ user_id: member.id, nickname: member.name }] }
      })
      expectStatus(result, 202, 'MB2')
    },
    async sendGroupMessage(sender, groupId, text, extra = {}) {
      const result = await call('POST', `/v3/groups/${groupId}/messages`, {
        token: sender.token,
        body: { message: { source_guid: randomUUID(), text, ...extra } }
      })
      expectStatus(result, 201, 'MS2')
      return result.body.response.message
    },
    async sendDirectMessage(sender, recipientId, text) {
      const result = await call('POST', '/v3/direct_messages', {
        token: sender.token,
        body: { direct_message: { source_guid: randomUUID(), recipient_id: recipientId, text } }
      })
      expectStatus(result, 201, 'C3')
      return result.body.response.direct_message
    }
  }
}

// ── push ─────────────────────────────────────────────────────────────────────────────────────

/** The `ext` a subscribe or publish needs (§14.2), with the current time of the service clock. */
export function pushExt(token: string, timestamp = Math.floor(Date.now() / 1000)): { access_token: string; timestamp: number } {
  return { access_token: token, timestamp }
}

/**
 * A faye Node client that adds `ext` with the token (and a timestamp) to subscribes and publishes,
 * like the desktop client does. Use `transport: 'long-polling'` to keep it off WebSockets.
 * Remember `client.disconnect()` before the service closes.
 */
export function pushClient(
  service: RunningService,
  token: string,
  options: { transport?: 'websocket' | 'long-polling'; timestampOffset?: number } = {}
): Client {
  const client = new faye.Client(`${service.boundOrigin}/faye`, { timeout: 45, retry: 1 })
  if (options.transport === 'long-polling') client.disable('websocket')
  client.addExtension({
    outgoing(message: Message, callback: (message: Message) => void) {
      if (message.channel === '/meta/subscribe' || !message.channel.startsWith('/meta/')) {
        message.ext = pushExt(token, Math.floor(Date.now() / 1000) + (options.timestampOffset ?? 0))
      }
      callback(message)
    }
  })
  return client
}

/** Collects what a faye client receives on channels, for `waitFor`. */
export class Inbox {
  readonly received: { channel: string; data: Json }[] = []
  readonly #waiters: (() => void)[] = []

  push(channel: string, data: unknown): void {
    this.received.push({ channel, data })
    for (const wake of this.#waiters.splice(0)) wake()
  }

  /** Resolves with the first item (already received or future) matching `predicate`. */
  async waitFor(predicate: (item: { channel: string; data: Json }) => boolean, timeoutMs = 5000): Promise<{ channel: string; data: Json }> {
    const deadline = Date.now() + timeoutMs
    for (;;) {
      const found = this.received.find(predicate)
      if (found !== undefined) return found
      const left = deadline - Date.now()
      if (left <= 0) throw new Error(`nothing matching arrived; received ${JSON.stringify(this.received)}`)
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left)
        this.#waiters.push(() => {
          clearTimeout(timer)
          resolve()
        })
      })
    }
  }
}

/** Subscribes a faye client to a channel, collecting its messages into `inbox`. */
export async function subscribe(client: Client, channel: string, inbox: Inbox): Promise<void> {
  await client.subscribe(channel, (data) => inbox.push(channel, data))
}

/** Raw Bayeux over HTTP long-polling, for exact-shape checks. */
export class RawBayeux {
  readonly #url: string
  #nextId = 1
  clientId = ''

  constructor(service: RunningService) {
    this.#url = `${service.boundOrigin}/faye`
  }

  id(): string {
    return String(this.#nextId++)
  }

  async post(messages: unknown): Promise<{ status: number; body: Json }> {
    const response = await fetch(this.#url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: typeof messages === 'string' ? messages : JSON.stringify(messages)
    })
    const text = await response.text()
    return { status: response.status, body: text === '' ? null : JSON.parse(text) }
  }

  async handshake(): Promise<Json> {
    const { body } = await this.post([
      { channel: '/meta/handshake', version: '1.0', supportedConnectionTypes: ['long-polling'], id: this.id() }
    ])
    this.clientId = body[0].clientId
    return body[0]
  }

  async subscribe(subscription: unknown, ext: unknown): Promise<Json> {
    const { body } = await this.post([
      { channel: '/meta/subscribe', clientId: this.clientId, subscription, id: this.id(), ext }
    ])
    return body[0]
  }

  /** A long-polling connect; resolves when the service answers it. */
  async connect(): Promise<Json[]> {
    const { body } = await this.post([
      { channel: '/meta/connect', clientId: this.clientId, connectionType: 'long-polling', id: this.id() }
    ])
    return body
  }

  async publish(channel: string, data: unknown, ext: unknown): Promise<Json> {
    const { body } = await this.post([{ channel, data, clientId: this.clientId, id: this.id(), ext }])
    return body[0]
  }

  async disconnect(): Promise<void> {
    await this.post([{ channel: '/meta/disconnect', clientId: this.clientId, id: this.id() }])
  }
}
