import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService } from '../src/index.js'
import { send, type RawResponse } from './fuzz/wire.js'
import { startTestService, type TestService } from './support.js'

/**
 * §18.29: `/dev/*` is for the local machine's own tools, never for web pages. No CORS headers
 * there; a request with `Origin` → 403 before any other check; a `Host` that is not a loopback
 * name nor the `--host` value → 403. Node's fetch (the tests, the scripts) sends no `Origin`.
 */

let service: TestService

beforeAll(async () => {
  service = await startTestService()
})

afterAll(async () => {
  await service.close()
})

const PAGE = { origin: 'http://example.test' }

/** Every dev operation with a body that would otherwise succeed. */
function devRequests(): { method: string; path: string; body?: unknown }[] {
  return [
    { method: 'GET', path: '/dev/outbox' },
    { method: 'POST', path: '/dev/sms', body: { from: '+1 5550000000', to: '+1 5555550199', text: 'x' } },
    { method: 'POST', path: '/dev/users', body: { name: 'Page', email: `page-${Date.now()}@example.test`, phone_number: '+1 5551230000', password: 'pw' } },
    { method: 'POST', path: '/dev/clock', body: { advance_seconds: 3600 } },
    { method: 'POST', path: '/dev/reset' }
  ]
}

function raw(method: string, path: string, headers: Record<string, string>, body?: unknown): Promise<RawResponse> {
  const bytes = body === undefined ? undefined : Buffer.from(JSON.stringify(body))
  return send(service.boundOrigin, {
    method,
    path,
    headers: bytes === undefined ? headers : { 'content-type': 'application/json', ...headers },
    ...(bytes === undefined ? {} : { body: bytes }),
    label: JSON.stringify(body) ?? ''
  })
}

/** The status of an HTTP/1.0 request without any `Host` header, which HTTP/1.0 allows. */
function withoutHost(path: string): Promise<number> {
  const url = new URL(service.boundOrigin)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname, () => socket.end(`GET ${path} HTTP/1.0\r\n\r\n`))
    let answer = ''
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')))
    socket.on('error', reject)
    socket.on('close', () => resolve(Number(/^HTTP\/1\.[01] (\d{3})/.exec(answer)?.[1] ?? 0)))
  })
}

const corsHeaders = (response: RawResponse | Response): string[] =>
  (response instanceof Response ? [...response.headers.keys()] : Object.keys(response.headers)).filter((name) => name.startsWith('access-control-allow-'))

async function expectForbidden(response: RawResponse): Promise<void> {
  expect(response.status, `${response.path}: ${response.text}`).toBe(403)
  expect(response.json).toEqual({ response: null, meta: { code: 403, errors: [expect.any(String)] } })
  expect(corsHeaders(response)).toEqual([])
}

describe('no CORS headers on /dev/* (§18.29)', () => {
  it('on successes, failures, unknown dev paths and OPTIONS', async () => {
    const outbox = await service.call('GET', '/dev/outbox')
    expect(outbox.status).toBe(200)
    expect(corsHeaders(await fetch(`${service.boundOrigin}/dev/outbox`))).toEqual([])
    const failure = await raw('POST', '/dev/clock', {}, { advance_seconds: -1 })
    expect(failure.status).toBe(400)
    expect(corsHeaders(failure)).toEqual([])
    const unknown = await raw('GET', '/dev/nothing-here', {})
    expect(unknown.status).toBe(404)
    expect(corsHeaders(unknown)).toEqual([])
    for (const path of ['/dev/outbox', '/dev/users', '/dev/nothing-here']) {
      const options = await raw('OPTIONS', path, {})
      expect(options.status).toBe(204)
      expect(options.text).toBe('')
      expect(corsHeaders(options)).toEqual([])
    }
    // Everywhere else §2.7 is unchanged.
    const elsewhere = await raw('OPTIONS', '/v3/groups', PAGE)
    expect(elsewhere.status).toBe(204)
    expect(elsewhere.headers['access-control-allow-origin']).toBe('*')
    expect(elsewhere.headers['access-control-allow-methods']).toBe('GET, POST, PUT, DELETE, OPTIONS')
  })
})

describe('a request with an Origin header → 403, before any other check (§18.29)', () => {
  it('on every dev operation, doing nothing', async () => {
    const before = await service.call('GET', '/dev/outbox')
    const now = (await service.call('POST', '/dev/clock', { body: { advance_seconds: 0 } })).body.now as number
    const requests = devRequests()
    for (const { method, path, body } of requests) await expectForbidden(await raw(method, path, PAGE, body))
    // Nothing happened: the clock did not move, the user was not created, the reset reset nothing.
    expect((await service.call('POST', '/dev/clock', { body: { advance_seconds: 0 } })).body.now).toBeLessThan(now + 600)
    expect((await service.call('GET', '/dev/outbox')).body).toEqual(before.body)
    const user = requests.find((entry) => entry.path === '/dev/users')?.body
    expect((await service.call('POST', '/dev/users', { body: user })).status).toBe(201)
  })

  it('before syntax, unknown paths, OPTIONS and percent-encoded spellings of /dev', async () => {
    for (const origin of ['http://example.test', 'null', `http://127.0.0.1:${new URL(service.boundOrigin).port}`, '']) {
      await expectForbidden(await raw('POST', '/dev/users', { origin }, { name: '' }))
    }
    await expectForbidden(await raw('POST', '/dev/clock', PAGE, 'not an object'))
    await expectForbidden(await raw('GET', '/dev/nothing-here', PAGE))
    await expectForbidden(await raw('OPTIONS', '/dev/outbox', PAGE))
    await expectForbidden(await raw('GET', '/%64ev/outbox', PAGE))
    await expectForbidden(await raw('GET', '/dev/outbox?to=%2B1', PAGE))
  })

  it('and the app’s own tools, which send none, still work (Node’s fetch)', async () => {
    const response = await fetch(`${service.boundOrigin}/dev/outbox`)
    expect(response.status).toBe(200)
    expect(await response.json()).toEqual(expect.any(Array))
  })
})

describe('a Host that is neither a loopback name nor the --host value → 403 (§18.29)', () => {
  it('accepts 127.0.0.1, localhost and [::1] with any port or none, in any case', async () => {
    for (const host of ['127.0.0.1', '127.0.0.1:1', 'localhost', 'LocalHost:8080', '[::1]', '[::1]:443']) {
      const response = await raw('GET', '/dev/outbox', { host })
      expect(response.status, host).toBe(200)
    }
  })

  it('refuses any other name, a lookalike, and a request with no Host at all', async () => {
    for (const host of ['example.test', 'example.test:8080', '127.0.0.2', '127.0.0.1.example.test', 'localhost.example.test', '[::2]:80', 'localhost:80:80', '0.0.0.0']) {
      await expectForbidden(await raw('GET', '/dev/outbox', { host }))
      await expectForbidden(await raw('OPTIONS', '/dev/outbox', { host }))
    }
    expect(await withoutHost('/dev/outbox')).toBe(403)
    // Not on the rest of the service.
    expect((await raw('GET', '/v3/users/me', { host: 'example.test' })).status).toBe(401)
    expect(await withoutHost('/v3/users/me')).toBe(401)
  })

  it('accepts the --host value', async () => {
    const bound = await startService({ host: '127.0.0.2', port: 0, dev: true })
    try {
      const port = new URL(bound.boundOrigin).port
      const direct = await fetch(`${bound.boundOrigin}/dev/outbox`)
      expect(direct.status).toBe(200)
      for (const [host, status] of [
        [`127.0.0.2:${port}`, 200],
        [`localhost:${port}`, 200],
        [`127.0.0.3:${port}`, 403]
      ] as const) {
        const response = await send(bound.boundOrigin, { method: 'GET', path: '/dev/outbox', headers: { host }, label: '' })
        expect(response.status, host).toBe(status)
      }
    } finally {
      await bound.close()
    }
  })
})

describe('without --dev', () => {
  it('has no /dev/* at all: 404, with an Origin too', async () => {
    const prod = await startService({ port: 0, env: { SERVICE_ATTESTATION_SECRET: 'prod-secret' } })
    try {
      for (const headers of [{}, PAGE]) {
        const response = await send(prod.boundOrigin, { method: 'GET', path: '/dev/outbox', headers, label: '' })
        expect(response.status).toBe(404)
      }
    } finally {
      await prod.close()
    }
  })
})
