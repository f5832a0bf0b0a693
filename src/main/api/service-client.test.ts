// The request function against a real HTTP server on a free port, answering canned bodies.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { z } from 'zod'
import { issuerOf, type IssuedToken } from '@shared/token-issuer'
import { ApiError, ServiceRedirectError, ServiceUnreachableError, TokenElsewhereError } from './api-error'
import { listGroupMessages } from './messages'
import { confirmCode, signIn } from './sessions'
import { localServiceConfig } from './service-config'
import { path, ServiceClient } from './service-client'

interface Seen {
  method: string
  url: string
  headers: IncomingMessage['headers']
  body: string
}

/** `hangUps`: how many requests to come have their connection closed instead of an answer. */
type Answer = { status: number; body?: string; contentType?: string; hangUps?: number; location?: string }

let server: Server
let origin: string
let answer: Answer
let seen: Seen[] = []

beforeAll(async () => {
  server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = ''
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')))
    request.on('end', () => {
      seen.push({ method: request.method ?? '', url: request.url ?? '', headers: request.headers, body })
      if ((answer.hangUps ?? 0) > 0) {
        answer.hangUps = (answer.hangUps ?? 0) - 1
        request.socket.destroy()
        return
      }
      if (answer.location !== undefined) response.setHeader('Location', answer.location)
      if (answer.body === undefined) {
        response.writeHead(answer.status).end()
        return
      }
      response.writeHead(answer.status, { 'Content-Type': answer.contentType ?? 'application/json; charset=utf-8' }).end(answer.body)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
})

afterAll(async () => {
  await new Promise((resolve) => server.close(resolve))
})

beforeEach(() => {
  seen = []
  answer = { status: 200, body: '{}' }
})

const envelope = (response: unknown, code = 200) => JSON.stringify({ response, meta: { code, errors: null } })
const failure = (code: number, ...errors: string[]) => JSON.stringify({ response: null, meta: { code, errors } })

/** `token` as the service at `origin` issued it. */
function issuedHere(token: string): IssuedToken {
  return { token, issuer: issuerOf(localServiceConfig(origin)) }
}

function client(token: string | null = 'T'.repeat(40)): ServiceClient {
  const issued = token === null ? null : issuedHere(token)
  return new ServiceClient({ config: localServiceConfig(origin), getToken: () => issued })
}

const thing = z.looseObject({ name: z.string() })

describe('ServiceClient.call', () => {
  it('unwraps the v3 envelope and sends the token as a header', async () => {
    answer = { status: 200, body: envelope({ name: 'enveloped' }) }
    const result = await client().call({ operation: 'test', method: 'GET', host: 'base', path: '/things', query: { page: 2, omit: undefined }, schema: thing })
    expect(result).toEqual({ name: 'enveloped' })
    expect(seen[0]).toMatchObject({ method: 'GET', url: '/v3/things?page=2' })
    expect(seen[0]?.headers['x-access-token']).toBe('T'.repeat(40))
  })

  it('reads bare bodies from v2 and /verifications', async () => {
    answer = { status: 200, body: JSON.stringify({ name: 'bare' }) }
    await expect(client().call({ operation: 'test', method: 'GET', host: 'v2', path: '/x', schema: thing })).resolves.toEqual({ name: 'bare' })
    await expect(client().call({ operation: 'test', method: 'GET', host: 'base', path: '/verifications/abc', schema: thing })).resolves.toEqual({ name: 'bare' })
    expect(seen.map((s) => s.url)).toEqual(['/v2/x', '/v3/verifications/abc'])
  })

  it('sends JSON bodies, encodes path ids and leaves the token off unauthenticated calls', async () => {
    answer = { status: 201, body: envelope({ name: 'ok' }, 201) }
    await client().call({
      operation: 'test',
      method: 'POST',
      host: 'base',
      path: path`/conversations/${'1+2'}/messages`,
      body: { a: 1 },
      schema: thing,
      authenticated: false,
      attested: true
    })
    expect(seen[0]?.url).toBe('/v3/conversations/1%2B2/messages')
    expect(seen[0]?.headers['content-type']).toBe('application/json')
    expect(seen[0]?.headers['x-access-token']).toBeUndefined()
    expect(seen[0]?.headers['x-verify-token']).toBe('local-dev-attestation')
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ a: 1 })
  })

  it('turns a failure body into ApiError with status, errors and body', async () => {
    answer = { status: 403, body: failure(403, 'device verification required') }
    const error = await client()
      .call({ operation: 'G5 create group', method: 'POST', host: 'base', path: '/groups', schema: thing })
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 403, errors: ['device verification required'], body: { response: null } })
    expect(String(error)).toContain('G5 create group failed with 403: device verification required')
  })

  it('fires the unauthorized hook on a 401 to a call that carried a token, and only then', async () => {
    answer = { status: 401, body: failure(401, 'unauthorized') }
    const operations: string[] = []
    const withToken = client()
    const stop = withToken.onUnauthorized((operation) => operations.push(operation))
    await expect(withToken.call({ operation: 'U1 show me', method: 'GET', host: 'base', path: '/users/me', schema: thing })).rejects.toMatchObject({ status: 401 })
    expect(operations).toEqual(['U1 show me'])

    // A wrong password (L1 carries no token) is not a dead session.
    await expect(signIn(withToken, { username: 'a', password: 'b', deviceId: 'd' })).rejects.toMatchObject({ status: 401 })
    expect(operations).toEqual(['U1 show me'])

    const anonymous = client(null)
    anonymous.onUnauthorized((operation) => operations.push(operation))
    await expect(anonymous.call({ operation: 'x', method: 'GET', host: 'base', path: '/users/me', schema: thing })).rejects.toBeInstanceOf(ApiError)
    expect(operations).toEqual(['U1 show me'])

    stop()
    await expect(withToken.call({ operation: 'again', method: 'GET', host: 'base', path: '/users/me', schema: thing })).rejects.toBeInstanceOf(ApiError)
    expect(operations).toEqual(['U1 show me'])
  })

  it('leaves the session alone when a 401 refuses a role, not the token (MB1, MB6)', async () => {
    answer = { status: 401, body: failure(401, 'Only admins and the owner may list members') }
    const operations: string[] = []
    const withToken = client()
    withToken.onUnauthorized((operation) => operations.push(operation))
    const refused = withToken.call({ operation: 'MB1 list members', method: 'GET', host: 'base', path: '/groups/1/members', schema: thing, unauthorizedMeansRole: true })
    await expect(refused).rejects.toMatchObject({ status: 401 })
    expect(operations).toEqual([])
  })

  it('ignores a 401 that answers a token no longer in use', async () => {
    answer = { status: 401, body: failure(401, 'unauthorized') }
    let token = 'A'.repeat(40)
    const switching = new ServiceClient({ config: localServiceConfig(origin), getToken: () => issuedHere(token) })
    const operations: string[] = []
    switching.onUnauthorized((operation) => operations.push(operation))
    // The request leaves with the old token; a new sign-in replaces it before the answer comes back.
    const late = switching.call({ operation: 'old session', method: 'GET', host: 'base', path: '/users/me', schema: thing })
    token = 'B'.repeat(40)
    await expect(late).rejects.toMatchObject({ status: 401 })
    expect(operations).toEqual([])
  })

  it('reads its addresses afresh for every request when given them as a function', async () => {
    answer = { status: 200, body: JSON.stringify({ name: 'moved' }) }
    let config = localServiceConfig(origin)
    const moving = new ServiceClient({ config: () => config, getToken: () => null })
    await moving.call({ operation: 'before', method: 'GET', host: 'v4', path: '/thing', schema: thing })
    config = { ...config, v4Url: `${origin}/elsewhere`, verifyToken: 'moved-secret' }
    await moving.call({ operation: 'after', method: 'GET', host: 'v4', path: '/thing', attested: true, schema: thing })
    expect(seen.map((request) => request.url)).toEqual(['/v4/thing', '/elsewhere/thing'])
    expect(seen[1]?.headers['x-verify-token']).toBe('moved-secret')
    expect(moving.config.v4Url).toBe(`${origin}/elsewhere`)
  })

  it('sends a read again once when its connection is closed under it, but never a write', async () => {
    answer = { status: 200, body: envelope({ name: 'again' }), hangUps: 1 }
    await expect(client().call({ operation: 'read', method: 'GET', host: 'base', path: '/thing', schema: thing })).resolves.toEqual({ name: 'again' })
    expect(seen.map((request) => request.method)).toEqual(['GET', 'GET'])

    seen = []
    answer = { status: 200, body: envelope({ name: 'again' }), hangUps: 1 }
    await expect(client().call({ operation: 'write', method: 'POST', host: 'base', path: '/thing', body: {}, schema: thing })).rejects.toBeInstanceOf(
      ServiceUnreachableError
    )
    expect(seen.map((request) => request.method)).toEqual(['POST'])

    seen = []
    answer = { status: 200, body: envelope({ name: 'again' }), hangUps: 2 }
    await expect(client().call({ operation: 'read', method: 'GET', host: 'base', path: '/thing', schema: thing })).rejects.toBeInstanceOf(
      ServiceUnreachableError
    )
    expect(seen).toHaveLength(2)
  })

  it('answers 304 and 204 with the operation\'s empty value', async () => {
    answer = { status: 304 }
    await expect(listGroupMessages(client(), '1', { anchor: { since: '5' }, limit: 3 })).resolves.toEqual({ count: null, messages: [] })
    expect(seen[0]?.url).toBe('/v3/groups/1/messages?since_id=5&limit=3')
    answer = { status: 204 }
    await expect(client().call({ operation: 'x', method: 'DELETE', host: 'base', path: '/x', schema: z.null(), whenEmpty: () => null })).resolves.toBeNull()
    await expect(client().call({ operation: 'x', method: 'DELETE', host: 'base', path: '/x', schema: thing })).rejects.toBeInstanceOf(ServiceUnreachableError)
  })

  it('treats a refused connection as unreachable', async () => {
    const closed = createServer()
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve))
    const port = (closed.address() as AddressInfo).port
    await new Promise((resolve) => closed.close(resolve))
    const dead = new ServiceClient({ config: localServiceConfig(`http://127.0.0.1:${port}`), getToken: () => null })
    await expect(dead.call({ operation: 'U1', method: 'GET', host: 'base', path: '/users/me', schema: thing })).rejects.toBeInstanceOf(ServiceUnreachableError)
  })

  it('gives up after the timeout', async () => {
    const silent = createServer(() => undefined)
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve))
    const port = (silent.address() as AddressInfo).port
    const slow = new ServiceClient({ config: localServiceConfig(`http://127.0.0.1:${port}`), getToken: () => null, timeoutMs: 100 })
    await expect(slow.call({ operation: 'U1', method: 'GET', host: 'base', path: '/users/me', schema: thing })).rejects.toBeInstanceOf(ServiceUnreachableError)
    silent.closeAllConnections()
    await new Promise((resolve) => silent.close(resolve))
  })

  it('treats an answer that is not JSON, or not the expected shape, as unreachable', async () => {
    answer = { status: 200, body: '<html>captive portal</html>', contentType: 'text/html' }
    await expect(client().call({ operation: 'x', method: 'GET', host: 'base', path: '/x', schema: thing })).rejects.toBeInstanceOf(ServiceUnreachableError)
    answer = { status: 502, body: '<html>bad gateway</html>', contentType: 'text/html' }
    await expect(client().call({ operation: 'x', method: 'GET', host: 'base', path: '/x', schema: thing })).rejects.toBeInstanceOf(ServiceUnreachableError)
    answer = { status: 200, body: envelope({ name: 7 }) }
    await expect(client().call({ operation: 'x', method: 'GET', host: 'base', path: '/x', schema: thing })).rejects.toBeInstanceOf(ServiceUnreachableError)
  })
})

describe('ServiceClient: the token goes only where it came from', () => {
  it.each([301, 302, 303, 307, 308])('never follows a %i: the answer is a redirect error naming where it pointed', async (status) => {
    answer = { status, location: 'https://evil.example/steal?x=1', body: '{}' }
    const call = client().call({ operation: 'U1 read me', method: 'GET', host: 'base', path: '/users/me', schema: thing })
    await expect(call).rejects.toBeInstanceOf(ServiceRedirectError)
    await expect(call).rejects.toMatchObject({ location: 'https://evil.example/steal' })
    expect(seen).toHaveLength(1)
  })

  it('resolves a relative redirect against the request, and does not take it as a session end', async () => {
    answer = { status: 307, location: '/elsewhere/users/me' }
    const operations: string[] = []
    const redirected = client()
    redirected.onUnauthorized((operation) => operations.push(operation))
    await expect(redirected.call({ operation: 'U1', method: 'GET', host: 'base', path: '/users/me', schema: thing })).rejects.toMatchObject({
      location: `${origin}/elsewhere/users/me`
    })
    expect(operations).toEqual([])
  })

  it('sends nothing when the addresses in force are not those of the token’s issuer, and says so', async () => {
    const issuedElsewhere: IssuedToken = { token: 'T'.repeat(40), issuer: issuerOf(localServiceConfig('http://127.0.0.1:1')) }
    const misbound = new ServiceClient({ config: localServiceConfig(origin), getToken: () => issuedElsewhere })
    const held: string[] = []
    misbound.onTokenElsewhere((operation) => held.push(operation))
    await expect(misbound.call({ operation: 'U1 read me', method: 'GET', host: 'base', path: '/users/me', schema: thing })).rejects.toBeInstanceOf(
      TokenElsewhereError
    )
    expect(held).toEqual(['U1 read me'])
    expect(seen).toEqual([])
    // A call that carries no token still goes: signing in anew needs no token.
    await misbound.call({ operation: 'L1', method: 'POST', host: 'v2', path: '/access_tokens', body: {}, schema: z.unknown(), authenticated: false })
    expect(seen).toHaveLength(1)
  })
})

describe('sessions over HTTP', () => {
  it('tells a token from a challenge', async () => {
    answer = { status: 202, body: JSON.stringify({ verification: { code: 'a-b', methods: { sms: '99' }, status: 'unverified', type: 'force' } }) }
    const challenged = await signIn(client(null), { username: 'u', password: 'p', deviceId: 'dev', verificationCode: 'c' })
    expect(challenged).toMatchObject({ kind: 'verification', verification: { code: 'a-b' } })
    expect(JSON.parse(seen[0]?.body ?? '')).toEqual({ app_id: 'parley-desktop', grant_type: 'password', username: 'u', password: 'p', device_id: 'dev', verification: { code: 'c' } })
    expect(seen[0]?.url).toBe('/v2/access_tokens')

    answer = { status: 200, body: JSON.stringify({ access_token: 'x'.repeat(40), user_id: '1', user_name: 'U', expires_at: null, user: { id: '1', name: 'U' } }) }
    await expect(signIn(client(null), { username: 'u', password: 'p', deviceId: null })).resolves.toMatchObject({ kind: 'token', result: { access_token: 'x'.repeat(40) } })
    expect(JSON.parse(seen[1]?.body ?? '')).not.toHaveProperty('device_id')
  })

  it('reads a wrong pin from V3\'s bare 400 and keeps other 400s as errors', async () => {
    answer = { status: 400, body: JSON.stringify({ remaining_attempts: 3 }) }
    await expect(confirmCode(client(null), 'a-b', '000000')).resolves.toEqual({ kind: 'wrongCode', remainingAttempts: 3 })
    expect(seen[0]?.url).toBe('/v3/verifications/a-b/confirm')
    answer = { status: 400, body: failure(400, 'already verified') }
    await expect(confirmCode(client(null), 'a-b', '000000')).rejects.toMatchObject({ status: 400, errors: ['already verified'] })
    answer = { status: 200, body: JSON.stringify({ status: 20000 }) }
    await expect(confirmCode(client(null), 'a-b', '123456')).resolves.toEqual({ kind: 'verified' })
  })
})
