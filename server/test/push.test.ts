import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Inbox, pushClient, pushExt, RawBayeux, startTestService, subscribe, type TestService, type TestUser } from './support.js'

let service: TestService
let alice: TestUser
let bob: TestUser
let carol: TestUser
let groupId: string

beforeAll(async () => {
  // Short ping intervals so the idle answer and server pings can be observed without waiting 30 s.
  service = await startTestService({ push: { idlePingMs: 300, serverPingMs: 300 } })
  ;[alice, bob, carol] = await Promise.all([service.signUp({ name: 'Alice' }), service.signUp({ name: 'Bob' }), service.signUp({ name: 'Carol' })])
  groupId = (await service.createGroup(alice, { name: 'Push group' })).id
})

afterAll(async () => {
  await service.close()
})

const now = (): number => Math.floor(Date.now() / 1000)

/** Long-polls until a delivery matching `predicate` arrives; returns it with its whole reply. */
async function pollFor(raw: RawBayeux, predicate: (message: Record<string, unknown>) => boolean): Promise<{ delivery: Record<string, unknown>; reply: Record<string, unknown>[] }> {
  for (let i = 0; i < 20; i++) {
    const reply = await raw.connect()
    const delivery = reply.find((message) => message.channel !== '/meta/connect' && predicate(message))
    if (delivery !== undefined) return { delivery, reply }
  }
  throw new Error('no matching delivery')
}

describe('handshake and connect (§14.1)', () => {
  it('answers the handshake with exactly the contract keys', async () => {
    const raw = new RawBayeux(service)
    const reply = await raw.handshake()
    expect(Object.keys(reply).sort()).toEqual(['advice', 'channel', 'clientId', 'id', 'successful', 'supportedConnectionTypes', 'version'])
    expect(reply).toMatchObject({ id: '1', channel: '/meta/handshake', successful: true, version: '1.0' })
    expect(reply.supportedConnectionTypes).toEqual(expect.arrayContaining(['long-polling', 'websocket']))
    expect(reply.advice).toEqual({ reconnect: 'retry', interval: 0, timeout: 30000 })
    expect(reply.clientId).toMatch(/^[0-9a-z]+$/)
  })

  it('offers exactly the two transports of §14.1 and refuses a connect of any other type at once', async () => {
    const raw = new RawBayeux(service)
    expect((await raw.handshake()).supportedConnectionTypes).toEqual(['long-polling', 'websocket'])
    for (const connectionType of ['eventsource', 'callback-polling', 'in-process', 'Long-Polling']) {
      const reply = await raw.post([{ channel: '/meta/connect', clientId: raw.clientId, connectionType, id: '9' }])
      expect(reply.body[0]).toMatchObject({ channel: '/meta/connect', successful: false, error: '301::Connection types not supported' })
    }
    for (const supportedConnectionTypes of [['callback-polling'], [{ toString: null }], [[1]], 'websocket', { a: 1 }]) {
      const refused = await raw.post([{ channel: '/meta/handshake', version: '1.0', supportedConnectionTypes, id: '3' }])
      expect(refused.body[0]).toMatchObject({
        successful: false,
        error: '301::Connection types not supported',
        supportedConnectionTypes: ['long-polling', 'websocket']
      })
    }
  })

  it('refuses a bad version or no common connection type', async () => {
    const raw = new RawBayeux(service)
    const badVersion = await raw.post([{ channel: '/meta/handshake', version: '2.0', supportedConnectionTypes: ['long-polling'], id: '1' }])
    expect(badVersion.body[0]).toMatchObject({ successful: false, error: expect.any(String) })
    const noType = await raw.post([{ channel: '/meta/handshake', version: '1.0', supportedConnectionTypes: ['carrier-pigeon'], id: '2' }])
    expect(noType.body[0]).toMatchObject({ successful: false, error: expect.any(String) })
  })

  it('answers unknown clients with 401::Unknown client and advice to handshake', async () => {
    const raw = new RawBayeux(service)
    raw.clientId = 'nosuchclient'
    const expected = { successful: false, error: '401::Unknown client', advice: { reconnect: 'handshake' } }
    expect((await raw.connect())[0]).toMatchObject(expected)
    expect(await raw.subscribe(`/user/${alice.id}`, pushExt(alice.token))).toMatchObject(expected)
    expect(await raw.publish(`/user/${alice.id}`, { type: 'ping' }, pushExt(alice.token))).toMatchObject(expected)
  })

  it('answers an idle long-polling connect with {ping: true} per subscribed channel', async () => {
    const raw = new RawBayeux(service)
    await raw.handshake()
    expect((await raw.subscribe(`/user/${alice.id}`, pushExt(alice.token))).successful).toBe(true)
    expect((await raw.subscribe(`/group/${groupId}`, pushExt(alice.token))).successful).toBe(true)
    let reply = await raw.connect()
    if (reply.length === 1) reply = await raw.connect() // the first connect may be answered at once (§18.13)
    expect(reply[0]).toMatchObject({ channel: '/meta/connect', clientId: raw.clientId, successful: true, advice: { reconnect: 'retry', interval: 0, timeout: 30000 } })
    const pings = reply.slice(1)
    expect(pings.map((p) => p.channel).sort()).toEqual([`/group/${groupId}`, `/user/${alice.id}`].sort())
    for (const ping of pings) {
      expect(ping).toEqual({ channel: ping.channel, data: { ping: true }, clientId: raw.clientId, id: expect.any(String), authenticated: true })
    }
    await raw.disconnect()
  })

  it('rejects malformed Bayeux bodies with the failure body', async () => {
    const raw = new RawBayeux(service)
    const malformed: unknown[] = [
      '{',
      '42',
      '"x"',
      [1, 'x', null, { channel: 7 }],
      { channel: { toString: '' } },
      [{ id: '1' }],
      [{ channel: '/meta/handshake', version: '1.0', supportedConnectionTypes: ['long-polling'], id: { toString: null } }],
      [{ channel: '/meta/connect', clientId: ['x'], connectionType: 'long-polling', id: '1' }]
    ]
    for (const body of malformed) {
      const result = await raw.post(body)
      expect(result.status).toBe(400)
      expect(result.body).toEqual({ response: null, meta: { code: 400, errors: [expect.any(String)] } })
    }
  })
})

describe('subscribe (§14.2)', () => {
  let raw: RawBayeux
  beforeAll(async () => {
    raw = new RawBayeux(service)
    await raw.handshake()
  })

  it('subscribes with exactly the contract keys', async () => {
    const reply = await raw.subscribe(`/user/${alice.id}`, pushExt(alice.token))
    expect(reply).toEqual({ id: expect.any(String), clientId: raw.clientId, channel: '/meta/subscribe', successful: true, subscription: `/user/${alice.id}` })
    expect((await raw.subscribe(`/group/${groupId}`, pushExt(alice.token))).successful).toBe(true)
    const dm = [alice.id, bob.id].sort((a, b) => Number(a) - Number(b)).join('_')
    expect((await raw.subscribe(`/direct_message/${dm}`, pushExt(alice.token))).successful).toBe(true)
  })

  it('checks the token first', async () => {
    for (const ext of [undefined, {}, { access_token: 'nope', timestamp: now() }, { access_token: 'nope' }]) {
      const reply = await raw.subscribe('/meta/nonsense', ext)
      expect(reply).toMatchObject({ successful: false, error: '401::Invalid access token', channel: '/meta/subscribe', clientId: raw.clientId })
    }
  })

  it('then the timestamp: whole seconds within 300 s', async () => {
    // Each one is worked out just before it is sent, a second clear of the bound: worked out ahead,
    // `now() + 301` was sometimes sent a second later, when it had become a valid +300.
    const timestamps: (() => unknown)[] = [
      () => undefined,
      () => Date.now(),
      () => String(now()),
      () => now() - 302,
      () => now() + 302,
      () => now() + 0.5,
      () => null
    ]
    for (const timestamp of timestamps) {
      const reply = await raw.subscribe('*', { access_token: alice.token, timestamp: timestamp() })
      expect(reply).toMatchObject({ successful: false, error: '401::Invalid timestamp' })
    }
    expect((await raw.subscribe(`/user/${alice.id}`, pushExt(alice.token, now() - 250))).successful).toBe(true)
  })

  it('then the channel form', async () => {
    for (const subscription of [
      '/meta/connect',
      '/meta/subscribe',
      '/meta/whatever',
      '/user/*',
      '/**',
      `/user/${alice.id}/more`,
      '/users/1',
      `/groups/${groupId}`,
      `/direct_message/${alice.id}+${bob.id}`,
      `/direct_message/${alice.id}`,
      '/user/0123',
      [`/user/${alice.id}`],
      undefined,
      42
    ]) {
      const reply = await raw.subscribe(subscription, pushExt(alice.token))
      expect(reply).toMatchObject({ successful: false, error: '405::Invalid channel' })
    }
  })

  it('then whether the channel is allowed', async () => {
    const [lo, hi] = [alice.id, bob.id].sort((a, b) => Number(a) - Number(b))
    const [blo, bhi] = [bob.id, carol.id].sort((a, b) => Number(a) - Number(b))
    for (const subscription of [
      `/user/${bob.id}`,
      `/group/${groupId}1`,
      `/direct_message/${hi}_${lo}`,
      `/direct_message/${blo}_${bhi}`,
      `/direct_message/${lo}_99999999`
    ]) {
      const reply = await raw.subscribe(subscription, pushExt(alice.token))
      expect(reply).toMatchObject({ successful: false, error: '403::Forbidden channel', subscription })
    }
    expect(await raw.subscribe(`/group/${groupId}`, pushExt(bob.token))).toMatchObject({ error: '403::Forbidden channel' })
  })
})

describe('deliveries (§14.1, §14.4, §18.12)', () => {
  it('pushes line.create to every member with the receiver clientId and no ext', async () => {
    const raw = new RawBayeux(service)
    await raw.handshake()
    await raw.subscribe(`/user/${alice.id}`, pushExt(alice.token))
    const polling = pollFor(raw, (m) => (m.data as { type?: string }).type === 'line.create')
    const message = await service.sendGroupMessage(alice, groupId, 'Hello push')
    const { delivery } = await polling
    expect(Object.keys(delivery).sort()).toEqual(['authenticated', 'channel', 'clientId', 'data', 'id'])
    expect(delivery).toMatchObject({ channel: `/user/${alice.id}`, clientId: raw.clientId, authenticated: true })
    expect(typeof delivery.id).toBe('string')
    const data = delivery.data as Record<string, unknown>
    expect(Object.keys(data).sort()).toEqual(['alert', 'received_at', 'subject', 'type'])
    expect(data.alert).toBe('Alice: Hello push')
    expect(data.subject).toEqual(message)
    expect(Math.abs((data.received_at as number) - Date.now())).toBeLessThan(60_000)
    await raw.disconnect()
  })

  it('delivers over WebSocket and long-polling with faye clients, DMs to both participants', async () => {
    const aliceClient = pushClient(service, alice.token)
    const bobClient = pushClient(service, bob.token, { transport: 'long-polling' })
    const aliceInbox = new Inbox()
    const bobInbox = new Inbox()
    try {
      await subscribe(aliceClient, `/user/${alice.id}`, aliceInbox)
      await subscribe(bobClient, `/user/${bob.id}`, bobInbox)
      const dm = await service.sendDirectMessage(alice, bob.id, 'psst')
      for (const inbox of [aliceInbox, bobInbox]) {
        const { data } = await inbox.waitFor((item) => item.data.type === 'direct_message.create')
        expect(data).toEqual({ type: 'direct_message.create', alert: 'Alice: psst', subject: dm, received_at: expect.any(Number) })
        expect(data.subject.recipient_id).toBe(bob.id)
      }
    } finally {
      aliceClient.disconnect()
      bobClient.disconnect()
    }
  })

  it('relays typing to the other subscribers only, ping back to the sender only', async () => {
    const sender = new RawBayeux(service)
    await sender.handshake()
    expect((await sender.subscribe(`/group/${groupId}`, pushExt(alice.token))).successful).toBe(true)
    const aliceElsewhere = pushClient(service, alice.token)
    const inbox = new Inbox()
    try {
      await subscribe(aliceElsewhere, `/group/${groupId}`, inbox)
      const typing = { type: 'typing', user_id: alice.id, started: Date.now() }
      const reply = await sender.publish(`/group/${groupId}`, typing, { access_token: alice.token })
      expect(reply).toEqual({ channel: `/group/${groupId}`, id: expect.any(String), successful: true })
      expect((await inbox.waitFor((item) => item.data.type === 'typing')).data).toEqual(typing)

      // Someone else's user id: dropped, still successful.
      expect((await sender.publish(`/group/${groupId}`, { type: 'typing', user_id: bob.id, started: 1 }, { access_token: alice.token })).successful).toBe(true)
      expect(await sender.publish(`/group/${groupId}`, { type: 'ping' }, { access_token: alice.token })).toMatchObject({ successful: true })
      const { delivery, reply: polled } = await pollFor(sender, () => true)
      expect(delivery).toEqual({ channel: `/group/${groupId}`, data: { type: 'ping' }, clientId: sender.clientId, id: expect.any(String), authenticated: true })
      expect(polled.filter((m) => m.channel !== '/meta/connect').every((m) => (m.data as { type?: string }).type !== 'typing')).toBe(true)
      expect(inbox.received.filter((item) => item.data.type === 'typing')).toHaveLength(1)
    } finally {
      aliceElsewhere.disconnect()
      await sender.disconnect()
    }
  })

  it('checks publishes like subscribes', async () => {
    const raw = new RawBayeux(service)
    await raw.handshake()
    expect(await raw.publish(`/user/${alice.id}`, { type: 'ping' }, { access_token: 'bad' })).toMatchObject({ successful: false, error: '401::Invalid access token' })
    expect(await raw.publish(`/user/${bob.id}`, { type: 'ping' }, { access_token: alice.token })).toMatchObject({ successful: false, error: '403::Forbidden channel' })
    expect(await raw.publish('/chat/room', { type: 'ping' }, { access_token: alice.token })).toMatchObject({ successful: false, error: '405::Invalid channel' })
    // faye refuses wildcards, `+` and /meta/ channels itself, in its own words: the reply still reads
    // as the contract's, and the first failing row (here the token) decides.
    for (const channel of [`/user/*`, `/user/**`, `/direct_message/${alice.id}+${bob.id}`, '/meta/foo']) {
      expect(await raw.publish(channel, { type: 'ping' }, { access_token: alice.token })).toEqual({
        channel,
        id: expect.any(String),
        successful: false,
        error: '405::Invalid channel'
      })
      expect(await raw.publish(channel, { type: 'ping' }, { access_token: 'bad' })).toMatchObject({ successful: false, error: '401::Invalid access token' })
    }
    expect(await raw.publish(`/user/${alice.id}`, { type: 'line.create' }, { access_token: alice.token })).toEqual({
      channel: `/user/${alice.id}`,
      id: expect.any(String),
      successful: true
    })
    await raw.disconnect()
  })

  it('ends a subscription when its token is revoked', async () => {
    const dave = await service.signUp({ name: 'Dave' })
    const raw = new RawBayeux(service)
    await raw.handshake()
    await raw.subscribe(`/user/${dave.id}`, pushExt(dave.token))
    expect((await service.call('POST', '/v2/access_tokens/current/destroy', { token: dave.token })).status).toBe(200)
    // With the subscription gone, the idle answer carries no ping for it.
    let reply = await raw.connect()
    if (reply.length === 1) reply = await raw.connect()
    expect(reply).toHaveLength(1)
    expect(reply[0]).toMatchObject({ channel: '/meta/connect', successful: true })
    await raw.disconnect()
  })
})

describe('server pings (§14.3)', () => {
  it('sends {type: "ping"} on every subscribed channel to WebSocket clients', async () => {
    const client = pushClient(service, carol.token)
    const inbox = new Inbox()
    try {
      await subscribe(client, `/user/${carol.id}`, inbox)
      const ping = await inbox.waitFor((item) => item.data.type === 'ping')
      expect(ping).toEqual({ channel: `/user/${carol.id}`, data: { type: 'ping' } })
    } finally {
      client.disconnect()
    }
  })
})

describe('timestamps follow the service clock', () => {
  it('judges ext.timestamp against the dev clock', async () => {
    const other = await startTestService()
    try {
      const erin = await other.signUp()
      const advanced = await other.advanceClock(3600)
      const raw = new RawBayeux(other)
      await raw.handshake()
      expect(await raw.subscribe(`/user/${erin.id}`, pushExt(erin.token, now()))).toMatchObject({ error: '401::Invalid timestamp' })
      expect((await raw.subscribe(`/user/${erin.id}`, pushExt(erin.token, advanced))).successful).toBe(true)
      await raw.disconnect()
    } finally {
      await other.close()
    }
  })
})
