import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startTestService, type TestService, type TestUser } from './support.js'

/** Relationships R1–R5 (§6, §15.7, §18.20). */

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})

afterAll(async () => {
  await service.close()
})

const ISO_MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/

async function shareToken(user: TestUser): Promise<string> {
  const self = (await service.call('GET', '/v3/users/me', { token: user.token })).body.response
  expect(self.share_url).toMatch(new RegExp(`^${service.origin}/contact/${user.id}/[A-Za-z0-9]{8}$`))
  return self.share_url.split('/').at(-1) as string
}

const create = (caller: TestUser, body: unknown) => service.call('POST', '/v4/relationships/create', { token: caller.token, body })
const list = (caller: TestUser, query: Record<string, string> = {}) => service.call('GET', '/v4/relationships', { token: caller.token, query })
const importContacts = (caller: TestUser, body: unknown, attest = true) =>
  service.call('POST', '/v3/relationships/import_contacts', { token: caller.token, body, attest })
const batch = (caller: TestUser, id: string) => service.call('GET', `/v4/relationships/batch/${id}`, { token: caller.token })
const remove = (caller: TestUser, userId: string) => service.call('DELETE', `/v4/relationships/${userId}`, { token: caller.token })

/** `+1 5551234567` → `+15551234567`, the form R3 takes. */
const compact = (phone: string) => phone.replace(/ /g, '')

describe('R2 create by share token', () => {
  it('answers 201 {} and adds a reason 1 relationship with the §15.7 shape; a repeat changes nothing', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp({ name: 'Contact Bob' })
    const result = await create(alice, { user_id: bob.id, token: await shareToken(bob) })
    expect(result.status).toBe(201)
    expect(result.body).toEqual({})

    const [entry] = (await list(alice)).body
    expect(Object.keys(entry).sort()).toEqual(
      ['app_installed', 'avatar_url', 'blocked', 'created_at', 'created_at_iso8601', 'hidden', 'id', 'mri', 'name', 'reason', 'updated_at', 'updated_at_iso8601', 'user_id'].sort()
    )
    expect(entry).toMatchObject({
      id: bob.id,
      user_id: bob.id,
      name: 'Contact Bob',
      avatar_url: null,
      reason: 1,
      hidden: false,
      app_installed: true,
      mri: `u:${bob.id}`,
      blocked: false
    })
    expect(entry.created_at_iso8601).toMatch(ISO_MICROS)
    expect(entry.updated_at_iso8601).toBe(entry.created_at_iso8601)
    expect(entry.created_at).toBe(Math.floor(Date.parse(entry.created_at_iso8601) / 1000))
    expect(entry.updated_at).toBe(entry.created_at)

    await service.advanceClock(10)
    expect((await create(alice, { user_id: bob.id, token: await shareToken(bob) })).status).toBe(201)
    expect((await list(alice)).body).toEqual([entry])
    // One-way: Bob has no contacts.
    expect((await list(bob)).body).toEqual([])
  })

  it('refuses: 400 syntax, 404 unknown user, 400 wrong token or self', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    const token = await shareToken(bob)
    for (const body of [{ user_id: bob.id }, { token }, { user_id: Number(bob.id), token }, { user_id: bob.id, token: 12345678 }, [], 'x']) {
      const result = await create(alice, body)
      expect(result.status, JSON.stringify(body)).toBe(400)
      expect(result.body).toMatchObject({ response: null, meta: { code: 400 } })
    }
    for (const userId of ['999999999', 'abc', '']) {
      const result = await create(alice, { user_id: userId, token })
      expect(result.status, userId).toBe(404)
      expect(result.body).toMatchObject({ response: null, meta: { code: 404 } })
    }
    for (const wrong of ['', 'AAAAAAAA', token.toLowerCase() === token ? token.toUpperCase() : token.toLowerCase(), `${token}x`, await shareToken(alice)]) {
      expect((await create(alice, { user_id: bob.id, token: wrong })).status, wrong).toBe(400)
    }
    expect((await create(alice, { user_id: alice.id, token: await shareToken(alice) })).status).toBe(400)
    expect((await service.call('POST', '/v4/relationships/create', { body: { user_id: bob.id, token } })).status).toBe(401)
    expect((await list(alice)).body).toEqual([])
  })
})

describe('R3 import contacts and R4 batch results', () => {
  it('needs the attestation header: 401 before 403', async () => {
    const alice = await service.signUp()
    const entries = [{ name: 'X', guid: 'g', phone_number: '+15550001111' }]
    const refused = await importContacts(alice, entries, false)
    expect(refused.status).toBe(403)
    expect(refused.body).toEqual({ response: null, meta: { code: 403, errors: ['device verification required'] } })
    const wrong = await service.call('POST', '/v3/relationships/import_contacts', {
      token: alice.token,
      body: entries,
      headers: { 'x-verify-token': 'not the secret' }
    })
    expect(wrong.status).toBe(403)
    expect((await service.call('POST', '/v3/relationships/import_contacts', { body: entries })).status).toBe(401)
    // ATT comes before syntax.
    expect((await importContacts(alice, 'not an array', false)).status).toBe(403)
  })

  it('adds reason 2 relationships for matching phones and reports them in request order with guid', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp({ name: 'Bob Imported' })
    const carol = await service.signUp({ name: 'Carol Known' })
    const dave = await service.createUser({ name: 'Dave Imported' })
    // Carol is already a contact by share link: she keeps reason 1.
    await create(alice, { user_id: carol.id, token: await shareToken(carol) })

    const entries = [
      { name: 'Dave', guid: 'guid-dave', phone_number: compact(dave.phoneNumber) },
      { name: 'Nobody', guid: 'guid-nobody', phone_number: '+999000111222' },
      { name: 'Me', guid: 'guid-me', phone_number: compact(alice.phoneNumber) },
      { name: 'Carol', guid: 'guid-carol', phone_number: compact(carol.phoneNumber).slice(1) },
      { name: 'Bob', guid: 'guid-bob', phone_number: compact(bob.phoneNumber) }
    ]
    const result = await importContacts(alice, entries)
    expect(result.status).toBe(202)
    expect(result.body.meta).toEqual({ code: 202, errors: null })
    expect(Object.keys(result.body.response)).toEqual(['batch_id'])
    const batchId = result.body.response.batch_id as string
    expect(batchId).toMatch(UUID)

    const results = await batch(alice, batchId)
    expect(results.status).toBe(200)
    expect(results.body.map((r: { user_id: string; guid: string; reason: number }) => [r.user_id, r.guid, r.reason])).toEqual([
      [dave.id, 'guid-dave', 2],
      [carol.id, 'guid-carol', 1],
      [bob.id, 'guid-bob', 2]
    ])
    for (const r of results.body) {
      expect(Object.keys(r).sort()).toEqual(
        ['app_installed', 'avatar_url', 'created_at', 'created_at_iso8601', 'guid', 'hidden', 'id', 'mri', 'name', 'reason', 'updated_at', 'updated_at_iso8601', 'user_id'].sort()
      )
    }
    expect(results.body[0].name).toBe('Dave Imported')

    // Own phone adds nothing (§18.20); R1 shows the three contacts in creation order.
    const contacts = (await list(alice)).body
    expect(contacts.map((c: { user_id: string }) => c.user_id)).toEqual([carol.id, dave.id, bob.id])
  })

  it('lists an entry matched twice once per entry, and the same contact once', async () => {
    const alice = await service.signUp()
    const bob = await service.createUser()
    const result = await importContacts(alice, [
      { name: 'Bob', guid: 'one', phone_number: compact(bob.phoneNumber) },
      { name: 'Bob again', guid: 'two', phone_number: compact(bob.phoneNumber) }
    ])
    const results = (await batch(alice, result.body.response.batch_id)).body
    expect(results.map((r: { guid: string; user_id: string }) => [r.guid, r.user_id])).toEqual([['one', bob.id], ['two', bob.id]])
    expect(results[0].created_at_iso8601).toBe(results[1].created_at_iso8601)
    expect((await list(alice)).body).toHaveLength(1)
  })

  it('rejects the whole request when any entry is invalid (400)', async () => {
    const alice = await service.signUp()
    const bob = await service.createUser()
    const good = { name: 'Bob', guid: 'g', phone_number: compact(bob.phoneNumber) }
    const invalid: unknown[] = [
      [],
      [good, { name: 'X', guid: 'g' }],
      [good, { name: 'X', phone_number: '+15550001111' }],
      [good, { guid: 'g', phone_number: '+15550001111' }],
      [good, { name: 1, guid: 'g', phone_number: '+15550001111' }],
      [good, { name: 'X', guid: null, phone_number: '+15550001111' }],
      [good, { name: 'X', guid: 'g', phone_number: '+1 5550001111' }],
      [good, { name: 'X', guid: 'g', phone_number: '555-000-1111' }],
      [good, { name: 'X', guid: 'g', phone_number: '+123456' }],
      [good, { name: 'X', guid: 'g', phone_number: '+1234567890123456' }],
      [good, { name: 'X', guid: 'g', phone_number: '++15550001111' }],
      [good, { name: 'X', guid: 'g', phone_number: '１２３４５６７８' }],
      [good, 'entry'],
      [good, null],
      Array.from({ length: 1001 }, () => good),
      { contacts: [good] },
      good
    ]
    for (const body of invalid) {
      const result = await importContacts(alice, body)
      expect(result.status, JSON.stringify(body).slice(0, 120)).toBe(400)
      expect(result.body).toMatchObject({ response: null, meta: { code: 400 } })
    }
    expect((await importContacts(alice, undefined)).status).toBe(400)
    expect((await list(alice)).body).toEqual([])

    // The limits themselves are fine: 7 and 15 digits, 1000 entries.
    const edges = await importContacts(alice, [
      { name: '', guid: '', phone_number: '1234567' },
      { name: 'X', guid: 'g', phone_number: '+123456789012345' },
      ...Array.from({ length: 998 }, () => good)
    ])
    expect(edges.status).toBe(202)
    expect((await batch(alice, edges.body.response.batch_id)).body).toHaveLength(998)
  })

  it('R4: 404 for unknown ids, someone else’s batch, and batches more than an hour old', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    const id = (await importContacts(alice, [{ name: 'Bob', guid: 'g', phone_number: compact(bob.phoneNumber) }])).body.response.batch_id
    const empty = (await importContacts(alice, [{ name: 'None', guid: 'g', phone_number: '+1000000000' }])).body.response.batch_id
    expect((await batch(alice, empty)).body).toEqual([])
    for (const unknown of ['00000000-0000-4000-8000-000000000000', 'nope']) {
      const result = await batch(alice, unknown)
      expect(result.status).toBe(404)
      expect(result.body).toMatchObject({ response: null, meta: { code: 404 } })
    }
    expect((await batch(bob, id)).status).toBe(404)
    expect((await service.call('GET', `/v4/relationships/batch/${id}`)).status).toBe(401)

    await service.advanceClock(3590)
    expect((await batch(alice, id)).status).toBe(200)
    await service.advanceClock(15)
    expect((await batch(alice, id)).status).toBe(404)
  })
})

describe('R1 list', () => {
  it('pages by since (exclusive, 50 at most) in strictly increasing creation order', async () => {
    const alice = await service.signUp()
    const users = await Promise.all(Array.from({ length: 55 }, (_, i) => service.createUser({ name: `Contact ${String(i).padStart(2, '0')}` })))
    // One import: all created within a millisecond or so, so the 1 µs bumps keep them apart.
    const imported = await importContacts(alice, users.map((u, i) => ({ name: u.name, guid: `g${i}`, phone_number: compact(u.phoneNumber) })))
    expect(imported.status).toBe(202)

    const first = await list(alice)
    expect(first.status).toBe(200)
    expect(Array.isArray(first.body)).toBe(true)
    expect(first.body).toHaveLength(50)
    const second = await list(alice, { since: first.body[49].created_at_iso8601 })
    expect(second.body).toHaveLength(5)
    const third = await list(alice, { since: second.body[4].created_at_iso8601 })
    expect(third.status).toBe(200)
    expect(third.body).toEqual([])

    const all = [...first.body, ...second.body]
    expect(all.map((r: { user_id: string }) => r.user_id)).toEqual(users.map((u) => u.id))
    const times: string[] = all.map((r: { created_at_iso8601: string }) => r.created_at_iso8601)
    // Strictly increasing: sorted, and no two equal.
    expect([...times].sort()).toEqual(times)
    expect(new Set(times).size).toBe(times.length)
    for (const time of times) expect(time).toMatch(ISO_MICROS)

    // `since` is exclusive and may use another zone or precision.
    const pivot = times[9] as string
    expect((await list(alice, { since: pivot })).body[0].user_id).toBe(users[10]?.id)
    const localTime = new Date(Date.parse(pivot) - 3_600_000).toISOString().slice(0, 19)
    const shifted = await list(alice, { since: `${localTime}.${pivot.slice(20, 26)}-01:00` })
    expect(shifted.status).toBe(200)
    expect(shifted.body[0].user_id).toBe(users[10]?.id)
    expect((await list(alice, { since: '2000-01-01T00:00:00Z' })).body).toHaveLength(50)
    expect((await list(alice, { since: '2999-01-01T00:00:00.000000Z' })).body).toEqual([])

    // Without blocked users, a page is still filled up to 50 from later contacts.
    for (const user of users.slice(0, 3)) {
      await service.call('POST', '/v3/blocks', { token: alice.token, query: { user: alice.id, otherUser: user.id } })
    }
    const unblocked = (await list(alice, { include_blocked: 'false' })).body
    expect(unblocked.map((r: { user_id: string }) => r.user_id)).toEqual(users.slice(3, 53).map((u) => u.id))
    const rest = (await list(alice, { include_blocked: 'false', since: unblocked[49].created_at_iso8601 })).body
    expect(rest.map((r: { user_id: string }) => r.user_id)).toEqual(users.slice(53).map((u) => u.id))
  }, 60_000)

  it('shows blocked for users the caller blocks, and include_blocked=false omits them', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    const carol = await service.signUp()
    const dave = await service.signUp()
    for (const user of [bob, carol, dave]) await create(alice, { user_id: user.id, token: await shareToken(user) })
    await service.call('POST', '/v3/blocks', { token: alice.token, query: { user: alice.id, otherUser: carol.id } })
    // Dave blocking Alice does not mark him in Alice's list.
    await service.call('POST', '/v3/blocks', { token: dave.token, query: { user: dave.id, otherUser: alice.id } })

    const everyone = (await list(alice)).body
    expect(everyone.map((r: { user_id: string; blocked: boolean }) => [r.user_id, r.blocked])).toEqual([
      [bob.id, false],
      [carol.id, true],
      [dave.id, false]
    ])
    expect((await list(alice, { include_blocked: 'true' })).body).toEqual(everyone)
    const unblocked = (await list(alice, { include_blocked: 'false' })).body
    expect(unblocked.map((r: { user_id: string }) => r.user_id)).toEqual([bob.id, dave.id])
  })

  it('refuses bad parameters with 400 and a missing token with 401', async () => {
    const alice = await service.signUp()
    for (const query of [
      { include_blocked: 'yes' },
      { include_blocked: '0' },
      { since: 'yesterday' },
      { since: '2024-10-01' },
      { since: '2024-13-01T00:00:00Z' },
      { since: '2024-02-30T00:00:00Z' },
      { since: '2024-10-01T20:38:31.690372' },
      { since: '1727815111' },
      { since: '' }
    ]) {
      const result = await list(alice, query)
      expect(result.status, JSON.stringify(query)).toBe(400)
      expect(result.body).toMatchObject({ response: null, meta: { code: 400 } })
    }
    expect((await service.call('GET', '/v4/relationships')).status).toBe(401)
  })
})

describe('R5 delete', () => {
  it('answers 202 {} and the contact is gone from R1, R4 and U3; then 404', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    const carol = await service.signUp()
    const batchId = (await importContacts(alice, [
      { name: 'Bob', guid: 'b', phone_number: compact(bob.phoneNumber) },
      { name: 'Carol', guid: 'c', phone_number: compact(carol.phoneNumber) }
    ])).body.response.batch_id
    const result = await remove(alice, bob.id)
    expect(result.status).toBe(202)
    expect(result.body).toEqual({})
    expect((await list(alice)).body.map((r: { user_id: string }) => r.user_id)).toEqual([carol.id])
    expect((await batch(alice, batchId)).body.map((r: { user_id: string }) => r.user_id)).toEqual([carol.id])
    expect((await service.call('GET', `/v2/users/${bob.id}`, { token: alice.token })).body.relationship).toBeNull()

    const again = await remove(alice, bob.id)
    expect(again.status).toBe(404)
    expect(again.body).toMatchObject({ response: null, meta: { code: 404 } })

    // Added again later, it comes after the others.
    await create(alice, { user_id: bob.id, token: await shareToken(bob) })
    const contacts = (await list(alice)).body
    expect(contacts.map((r: { user_id: string; reason: number }) => [r.user_id, r.reason])).toEqual([[carol.id, 2], [bob.id, 1]])
  })

  it('answers 404 for users who are not contacts, unknown or malformed ids', async () => {
    const alice = await service.signUp()
    const bob = await service.signUp()
    await create(bob, { user_id: alice.id, token: await shareToken(alice) })
    for (const id of [bob.id, alice.id, '999999999', 'abc']) expect((await remove(alice, id)).status, id).toBe(404)
    // Bob's relationship to Alice is untouched.
    expect((await list(bob)).body).toHaveLength(1)
    expect((await service.call('DELETE', `/v4/relationships/${alice.id}`)).status).toBe(401)
  })
})
