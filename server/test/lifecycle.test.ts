import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { startService } from '../src/index.js'
import { Inbox, pushClient, RawBayeux, pushExt, startTestService, subscribe } from './support.js'

const dir = mkdtempSync(join(tmpdir(), 'service-test-'))

afterAll(() => {
  rmSync(dir, { recursive: true, force: true })
})

describe('restart on the same database file', () => {
  it('keeps accounts, tokens, groups, messages, chats and the clock', async () => {
    const db = join(dir, 'state.db')
    const first = await startTestService({ db })
    const alice = await first.signUp({ name: 'Alice' })
    const bob = await first.signUp({ name: 'Bob' })
    const group = await first.createGroup(alice, { name: 'Durable' })
    const message = await first.sendGroupMessage(alice, group.id, 'before restart')
    await first.sendDirectMessage(alice, bob.id, 'dm before restart')
    const now = await first.advanceClock(100)
    const raw = new RawBayeux(first)
    await raw.handshake()
    await first.close()

    const second = await startTestService({ db })
    try {
      expect((await second.call('GET', '/v3/users/me', { token: alice.token })).body.response.name).toBe('Alice')
      expect((await second.call('GET', `/v3/groups/${group.id}`, { token: alice.token })).body.response.messages.last_message_id).toBe(message.id)
      const chats = await second.call('GET', '/v3/chats', { token: bob.token })
      expect(chats.body.response[0].last_message.text).toBe('dm before restart')
      const clock = await second.advanceClock(0)
      expect(clock).toBeGreaterThanOrEqual(now)
      // Message ids keep increasing across the restart.
      const after = await second.sendGroupMessage(alice, group.id, 'after restart')
      expect(after.id > message.id).toBe(true)
      // The push gateway forgot its clients: they must handshake again.
      const reconnect = new RawBayeux(second)
      reconnect.clientId = raw.clientId
      expect((await reconnect.connect())[0]).toMatchObject({ successful: false, error: '401::Unknown client', advice: { reconnect: 'handshake' } })
      // A known device stays known.
      const device = await second.call('POST', '/v2/access_tokens', {
        body: { app_id: 'a', grant_type: 'password', username: bob.email, password: bob.password, device_id: 'nope' }
      })
      expect(device.status).toBe(202)
    } finally {
      await second.close()
    }
  })

  it('releases the port and the push sockets on close', async () => {
    const first = await startTestService()
    const port = Number(new URL(first.boundOrigin).port)
    const user = await first.signUp()
    const client = pushClient(first, user.token)
    const inbox = new Inbox()
    await subscribe(client, `/user/${user.id}`, inbox)
    const held = new RawBayeux(first)
    await held.handshake()
    await held.subscribe(`/user/${user.id}`, pushExt(user.token))
    const pending = held.connect().catch(() => 'closed')
    await first.close()
    await pending
    client.disconnect()
    const again = await startService({ port, dev: true })
    try {
      expect(again.boundOrigin).toBe(`http://127.0.0.1:${port}`)
    } finally {
      await again.close()
    }
  })
})

describe('/dev endpoints (§17)', () => {
  it('creates users, refuses duplicates and bad input', async () => {
    const service = await startTestService()
    try {
      const body = { name: 'Gina', email: 'Gina@Example.test', phone_number: '+49 15112345678', password: 'secret' }
      const created = await service.call('POST', '/dev/users', { body })
      expect(created.status).toBe(201)
      expect(created.body.user).toMatchObject({ name: 'Gina', email: 'Gina@Example.test', phone_number: '+49 15112345678', mfa: { enabled: false, channels: [] } })
      expect((await service.call('POST', '/dev/users', { body: { ...body, phone_number: '+49 15100000000', email: 'gina@example.TEST' } })).status).toBe(409)
      expect((await service.call('POST', '/dev/users', { body: { ...body, email: 'other@example.test', phone_number: '+4915112345678'.replace('+49', '+49 ') } })).status).toBe(409)
      for (const bad of [
        { ...body, email: 'no-at-sign' },
        { ...body, phone_number: '15112345678' },
        { ...body, password: '' },
        { ...body, name: '' },
        { ...body, name: 'n'.repeat(65) }
      ]) {
        expect((await service.call('POST', '/dev/users', { body: bad })).status).toBe(400)
      }
    } finally {
      await service.close()
    }
  })

  it('moves the clock and resets all state', async () => {
    const service = await startTestService()
    try {
      const user = await service.signUp()
      const before = (await service.call('POST', '/dev/clock', { body: { advance_seconds: 0 } })).body.now as number
      expect(Math.abs(before - Math.floor(Date.now() / 1000))).toBeLessThan(5)
      const moved = await service.call('POST', '/dev/clock', { body: { advance_seconds: 86_400 } })
      expect(moved.body).toEqual({ now: before + 86_400 })
      expect((await service.call('POST', '/dev/clock', { body: {} })).status).toBe(400)

      const reset = await service.call('POST', '/dev/reset')
      expect(reset.status).toBe(200)
      expect(reset.body).toEqual({})
      expect((await service.call('GET', '/dev/outbox')).body).toEqual([])
      expect((await service.call('GET', '/v3/users/me', { token: user.token })).status).toBe(401)
      const after = (await service.call('POST', '/dev/clock', { body: { advance_seconds: 0 } })).body.now as number
      expect(after).toBeLessThan(before + 100)
      // The same e-mail can be registered again.
      await service.createUser({ email: user.email, phoneNumber: user.phoneNumber })
    } finally {
      await service.close()
    }
  })
})
