import type { Message } from 'faye'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { Inbox, pushClient, pushExt, RawBayeux, startTestService, subscribe, type Json, type TestService, type TestUser } from './support.js'

/**
 * How long a long-polling connect is held (§14.1, §18.27), on a service with the contract's own
 * 30 s hold: a connect is held no longer than its `advice.timeout`, so a stock faye client, whose
 * first connect shares a batch with its subscribes and asks for `{timeout: 0}`, subscribes at once
 * rather than when the hold ends — at the start and after every reconnect.
 */

const HOLD_MS = 30_000
/** Far below the hold, far above any honest answer on a loaded machine. */
const PROMPT_MS = 8_000

const dir = mkdtempSync(join(tmpdir(), 'service-push-hold-'))
const db = join(dir, 'push.db')
let service: TestService
let alice: TestUser

beforeAll(async () => {
  service = await startTestService({ db })
  alice = await service.signUp({ name: 'Alice' })
})

afterAll(async () => {
  await service.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A connect of `raw` with the given advice, and how long the service took to answer it. */
async function timedConnect(raw: RawBayeux, advice: unknown): Promise<{ reply: Json[]; ms: number }> {
  const started = Date.now()
  const { body } = await raw.post([{ channel: '/meta/connect', clientId: raw.clientId, connectionType: 'long-polling', id: raw.id(), advice }])
  return { reply: body as Json[], ms: Date.now() - started }
}

describe('a stock faye client over long polling (§18.27)', () => {
  it('subscribes long before the hold would end, and again promptly after the service restarts', async () => {
    const client = pushClient(service, alice.token, { transport: 'long-polling' })
    const subscribedAt: number[] = []
    client.addExtension({
      incoming(message: Message, callback: (message: Message) => void) {
        if (message.channel === '/meta/subscribe' && message.successful === true) subscribedAt.push(Date.now())
        callback(message)
      }
    })
    const inbox = new Inbox()
    try {
      const started = Date.now()
      await subscribe(client, `/user/${alice.id}`, inbox)
      const firstMs = Date.now() - started
      console.log(`faye long-polling client subscribed in ${firstMs} ms (hold ${HOLD_MS} ms)`)
      expect(firstMs).toBeLessThan(PROMPT_MS)

      // A restart forgets the client: faye handshakes again and re-subscribes in one batch with
      // its next connect, which must not be held either.
      const port = Number(new URL(service.boundOrigin).port)
      await service.close()
      service = await startTestService({ db, port })
      const restarted = Date.now()
      await expect.poll(() => subscribedAt.length, { timeout: PROMPT_MS, interval: 50 }).toBe(2)
      const againMs = (subscribedAt[1] ?? Infinity) - restarted
      console.log(`re-subscribed ${againMs} ms after the restart (hold ${HOLD_MS} ms)`)
      expect(againMs).toBeLessThan(PROMPT_MS)

      const dm = await service.sendDirectMessage(await service.signUp({ name: 'Bob' }), alice.id, 'after the restart')
      expect((await inbox.waitFor((item) => item.data.subject?.id === dm.id)).data.type).toBe('direct_message.create')
    } finally {
      client.disconnect()
    }
  })
})

describe('a connect’s advice.timeout (§18.27)', () => {
  let raw: RawBayeux
  beforeAll(async () => {
    raw = new RawBayeux(service)
    await raw.handshake()
    expect((await raw.subscribe(`/user/${alice.id}`, pushExt(alice.token))).successful).toBe(true)
  })
  afterAll(async () => {
    await raw.disconnect()
  })

  it('holds a connect no longer than the client asks', async () => {
    for (let i = 0; i < 3; i++) {
      const { reply, ms } = await timedConnect(raw, { timeout: 0 })
      expect(reply[0]).toMatchObject({ channel: '/meta/connect', clientId: raw.clientId, successful: true })
      expect(ms).toBeLessThan(PROMPT_MS)
    }
    const { reply, ms } = await timedConnect(raw, { timeout: 300 })
    expect(reply[0]).toMatchObject({ channel: '/meta/connect', successful: true })
    expect(ms).toBeLessThan(PROMPT_MS)
  })

  it('answers a batch of a connect with {timeout: 0} and a subscribe at once', async () => {
    const other = new RawBayeux(service)
    await other.handshake()
    const started = Date.now()
    const { body } = await other.post([
      { channel: '/meta/connect', clientId: other.clientId, connectionType: 'long-polling', id: other.id(), advice: { timeout: 0 } },
      { channel: '/meta/subscribe', clientId: other.clientId, subscription: `/user/${alice.id}`, id: other.id(), ext: pushExt(alice.token) }
    ])
    expect(Date.now() - started).toBeLessThan(PROMPT_MS)
    expect(body).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ channel: '/meta/connect', successful: true }),
        expect.objectContaining({ channel: '/meta/subscribe', successful: true, subscription: `/user/${alice.id}` })
      ])
    )
    await other.disconnect()
  })

  it('keeps its own hold when the advice asks for longer, or is not an integer ≥ 0', async () => {
    for (const advice of [{ timeout: 10 * HOLD_MS }, { timeout: -1 }, { timeout: 1.5 }, { timeout: '0' }, { timeout: null }, 'x', null]) {
      const connect = timedConnect(raw, advice)
      const outcome = await Promise.race([connect.then(() => 'answered'), new Promise((resolve) => setTimeout(() => resolve('held'), 1_000))])
      expect(outcome, JSON.stringify(advice)).toBe('held')
      // The connect is still open: a ping the client publishes is delivered in its answer.
      expect(await raw.publish(`/user/${alice.id}`, { type: 'ping' }, { access_token: alice.token })).toMatchObject({ successful: true })
      const { reply } = await connect
      expect(reply.slice(1)).toEqual([expect.objectContaining({ channel: `/user/${alice.id}`, data: { type: 'ping' } })])
    }
  })
})
