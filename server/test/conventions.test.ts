import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService } from '../src/index.js'
import { startTestService, type TestService, type TestUser } from './support.js'

let service: TestService
let alice: TestUser

beforeAll(async () => {
  service = await startTestService()
  alice = await service.signUp({ name: 'Alice' })
})

afterAll(async () => {
  await service.close()
})

function expectFailure(result: { status: number; body: unknown; headers: Headers }, status: number): void {
  expect(result.status).toBe(status)
  expect(result.headers.get('content-type')).toMatch(/^application\/json/)
  expect(result.body).toEqual({ response: null, meta: { code: status, errors: expect.any(Array) } })
  const errors = (result.body as { meta: { errors: unknown[] } }).meta.errors
  expect(errors.length).toBeGreaterThan(0)
  for (const error of errors) expect(typeof error).toBe('string')
}

describe('response bodies (§2.4)', () => {
  it('envelopes v3 successes', async () => {
    const result = await service.call('GET', '/v3/users/me', { token: alice.token })
    expect(result.status).toBe(200)
    expect(result.headers.get('content-type')).toBe('application/json; charset=utf-8')
    expect(result.body.meta).toEqual({ code: 200, errors: null })
    expect(result.body.response.id).toBe(alice.id)
  })

  it('answers bare on v2, verifications and dev', async () => {
    const tokens = await service.call('GET', '/v2/access_tokens', { token: alice.token })
    expect(tokens.status).toBe(200)
    expect(tokens.body.meta).toBeUndefined()
    expect(Array.isArray(tokens.body.access_tokens)).toBe(true)
    const outbox = await service.call('GET', '/dev/outbox')
    expect(Array.isArray(outbox.body)).toBe(true)
  })

  it('uses the failure body on every host', async () => {
    expectFailure(await service.call('GET', '/v3/users/me'), 401)
    expectFailure(await service.call('GET', '/v2/access_tokens'), 401)
    expectFailure(await service.call('GET', '/v4/relationships-nonexistent'), 404)
    expectFailure(await service.call('GET', '/v3/verifications/nope'), 404)
    expectFailure(await service.call('POST', '/dev/clock', { body: { advance_seconds: -1 } }), 400)
  })
})

describe('CORS (§2.7, §18.1)', () => {
  it('answers OPTIONS on any path with 204 and the headers', async () => {
    for (const path of ['/', '/v3/groups', '/no/such/path', '/faye']) {
      const result = await service.call('OPTIONS', path)
      expect(result.status).toBe(204)
      expect(result.text).toBe('')
      expect(result.headers.get('access-control-allow-origin')).toBe('*')
      expect(result.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, DELETE, OPTIONS')
      expect(result.headers.get('access-control-allow-headers')).toBe('Content-Type, X-Access-Token, X-verify-token')
    }
  })

  it('allows any origin on successes, failures and push replies', async () => {
    const origin = { headers: { origin: 'http://elsewhere.test' } }
    expect((await service.call('GET', '/v3/users/me', { token: alice.token, ...origin })).headers.get('access-control-allow-origin')).toBe('*')
    expect((await service.call('GET', '/v3/nothing', origin)).headers.get('access-control-allow-origin')).toBe('*')
    const push = await service.call('POST', '/faye', {
      ...origin,
      body: [{ channel: '/meta/handshake', version: '1.0', supportedConnectionTypes: ['long-polling'], id: '1' }]
    })
    expect(push.status).toBe(200)
    expect(push.headers.get('access-control-allow-origin')).toBe('*')
  })
})

describe('tokens (§2.2)', () => {
  it('takes the token from the query or the X-Access-Token header, the header winning', async () => {
    expect((await service.call('GET', '/v3/users/me', { tokenHeader: alice.token })).status).toBe(200)
    expect((await service.call('GET', '/v3/users/me', { token: 'x'.repeat(40), tokenHeader: alice.token })).status).toBe(200)
    expect((await service.call('GET', '/v3/users/me', { token: alice.token, tokenHeader: 'y'.repeat(40) })).status).toBe(401)
  })

  it('refuses malformed and unknown tokens', async () => {
    for (const token of ['', 'short', 'A'.repeat(40), `${alice.token}x`]) {
      expectFailure(await service.call('GET', '/v3/users/me', { token }), 401)
    }
  })
})

describe('order of checks (§2.5)', () => {
  it('answers an unknown path or method with 404 before checking the token', async () => {
    expectFailure(await service.call('GET', '/v3/no-such-thing'), 404)
    expectFailure(await service.call('DELETE', '/v3/users/me'), 404)
    // HEAD is no operation of the contract, even beside a GET one.
    expect((await service.call('HEAD', '/v3/users/me')).status).toBe(404)
    expectFailure(await service.call('PATCH', '/v3/groups', { token: alice.token }), 404)
    expectFailure(await service.call('GET', '/elsewhere'), 404)
  })

  it('answers a bad token before a bad body (401, not 400)', async () => {
    const bad = { body: '{"message": ', headers: { 'content-type': 'application/json' } }
    expectFailure(await service.call('POST', '/v3/groups/1/messages', bad), 401)
    expectFailure(await service.call('POST', '/v3/groups', { ...bad, token: 'z'.repeat(40) }), 401)
  })

  it('checks attestation after the token and before the body', async () => {
    expectFailure(await service.call('POST', '/v3/groups', { body: '{' }), 401)
    const noAttestation = await service.call('POST', '/v3/groups', { token: alice.token, body: '{' })
    expectFailure(noAttestation, 403)
    expect(noAttestation.body.meta.errors).toEqual(['device verification required'])
    const wrong = await service.call('POST', '/v3/groups', { token: alice.token, body: {}, headers: { 'x-verify-token': 'nope' } })
    expectFailure(wrong, 403)
    expectFailure(await service.call('POST', '/v3/groups', { token: alice.token, body: '{', attest: true }), 400)
  })

  it('answers syntax (400) before existence (404)', async () => {
    expectFailure(await service.call('POST', '/v3/groups/999999/messages', { token: alice.token, body: { message: {} } }), 400)
    expectFailure(
      await service.call('POST', '/v3/groups/999999/messages', { token: alice.token, body: { message: { source_guid: 'g', text: 'hi' } } }),
      404
    )
  })
})

describe('bad input never breaks the service (§18.2, §18.3)', () => {
  const send = (body: unknown, headers: Record<string, string> = {}) =>
    service.call('POST', '/v3/groups', { token: alice.token, attest: true, body, headers })

  it('refuses malformed JSON and non-object bodies with 400', async () => {
    for (const body of ['{', '{"name": "x",}', 'nul', '[1,2]', '"text"', '42', 'true', '\u0000']) {
      expectFailure(await send(body), 400)
    }
  })

  it('treats an empty body and a top-level null as absent', async () => {
    const empty = await send('')
    expectFailure(empty, 400)
    expect(empty.body.meta.errors.join(' ')).toMatch(/name/)
    const none = await send('null')
    expectFailure(none, 400)
    expect(none.body.meta.errors.join(' ')).toMatch(/name/)
  })

  it('refuses wrong types, oversize strings and huge numbers with 400', async () => {
    expectFailure(await send({ name: 42 }), 400)
    expectFailure(await send({ name: ['a'] }), 400)
    expectFailure(await send({ name: 'x'.repeat(1_000_000) }), 400)
    expectFailure(await send({ name: 'ok', share: 'yes' }), 400)
    expectFailure(await service.call('POST', '/dev/clock', { body: '{"advance_seconds": 1e400}' }), 400)
    expectFailure(await service.call('POST', '/dev/clock', { body: '{"advance_seconds": 12345678901234567890}' }), 400)
    expectFailure(await service.call('POST', '/dev/clock', { body: { advance_seconds: 1.5 } }), 400)
    // Past 2200 message ids outgrow their 18 digits, and far enough out dates stop existing.
    expectFailure(await service.call('POST', '/dev/clock', { body: { advance_seconds: 8_640_000_000_000 } }), 400)
  })

  it('refuses wrong content types with a 4xx failure body', async () => {
    const text = await send('{"name":"x"}', { 'content-type': 'text/plain' })
    expectFailure(text, 400)
    const form = await send('name=x', { 'content-type': 'application/x-www-form-urlencoded' })
    expectFailure(form, 400)
    const garbage = await send('{"name":"x"}', { 'content-type': '%%%' })
    expect(garbage.status).toBeGreaterThanOrEqual(400)
    expect(garbage.status).toBeLessThan(500)
    expect(garbage.body.response).toBeNull()
  })

  it('refuses NUL and lone surrogates, and stores other odd Unicode as given', async () => {
    expectFailure(await send('{"name":"a\\u0000b"}'), 400)
    expectFailure(await send('{"name":"a\\ud800b"}'), 400)
    expectFailure(await send('{"name":"a\\udc00"}'), 400)
    const odd = '\u202e\u200b👩‍👩‍👧 ǅ \ufeff'
    const group = await service.createGroup(alice, { name: odd })
    expect(group.name).toBe(odd)
  })

  it('counts lengths in code points', async () => {
    expect((await send({ name: '😀'.repeat(140) })).status).toBe(201)
    expectFailure(await send({ name: '😀'.repeat(141) }), 400)
  })

  it('refuses oversize bodies with a 4xx failure body and keeps answering', async () => {
    const huge = JSON.stringify({ name: 'x'.repeat(6 * 1024 * 1024) })
    const result = await send(huge)
    expectFailure(result, 413)
    expect((await service.call('GET', '/v3/users/me', { token: alice.token })).status).toBe(200)
  })

  it('refuses odd query values with 400', async () => {
    for (const query of [{ page: '0' }, { page: '-1' }, { page: '1.5' }, { per_page: '101' }, { page: '١' }, { page: '99999999999999999999999' }]) {
      expectFailure(await service.call('GET', '/v3/groups', { token: alice.token, query }), 400)
    }
    const twice = await service.call('GET', '/v3/groups?page=1&page=2', { token: alice.token })
    expectFailure(twice, 400)
  })
})

describe('dev endpoints and configuration (§1, §17)', () => {
  it('has no /dev endpoints without --dev', async () => {
    const prod = await startService({ port: 0, env: { SERVICE_ATTESTATION_SECRET: 'prod-secret' } })
    try {
      for (const path of ['/dev/outbox', '/dev/users', '/dev/reset']) {
        const result = await fetch(`${prod.origin}${path}`, { method: path === '/dev/outbox' ? 'GET' : 'POST' })
        expect(result.status).toBe(404)
        expect(await result.json()).toEqual({ response: null, meta: { code: 404, errors: expect.any(Array) } })
      }
      expect(prod.attestationSecret).toBe('prod-secret')
    } finally {
      await prod.close()
    }
  })

  it('refuses to start without --dev when the attestation secret is empty', async () => {
    await expect(startService({ port: 0, env: { SERVICE_ATTESTATION_SECRET: '' } })).rejects.toThrow(/SERVICE_ATTESTATION_SECRET/)
  })

  it('defaults the attestation secret in --dev and reports the bound port', async () => {
    expect(service.attestationSecret).toBe('local-dev-attestation')
    expect(service.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(service.origin).not.toMatch(/:0$/)
    expect(service.urls).toEqual({
      baseUrl: `${service.origin}/v3`,
      v2Url: `${service.origin}/v2`,
      v4Url: `${service.origin}/v4`,
      imageServiceUrl: `${service.origin}/image`,
      pushUrl: `${service.origin}/faye`,
      pushWsUrl: `${service.origin.replace('http', 'ws')}/faye`
    })
  })

  it('uses SERVICE_PUBLIC_ORIGIN for generated URLs', async () => {
    const other = await startTestService({ env: { SERVICE_PUBLIC_ORIGIN: 'https://chat.example.test/' } })
    try {
      expect(other.origin).toBe('https://chat.example.test')
      expect(other.urls.pushWsUrl).toBe('wss://chat.example.test/faye')
      const user = await other.createUser()
      const me = await other.call('POST', '/dev/users', {
        body: { name: 'B', email: 'b@example.test', phone_number: '+44 7700900123', password: 'x' }
      })
      expect(me.body.user.share_url).toMatch(/^https:\/\/chat\.example\.test\/contact\/\d+\/[A-Za-z0-9]{8}$/)
      expect(user.id).toMatch(/^[1-9][0-9]*$/)
    } finally {
      await other.close()
    }
  })
})
