import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import WebSocket from 'ws'
import { bayeuxBody } from './fuzz/bayeux.js'
import { buildFixture, fixtureUsable, realQueryValues, realValues, seedBodies, seedQueries, type Fixture } from './fuzz/fixture.js'
import { bodyArbitrary, oddString, percentEncode, QUERY_KEYS, toJunk, urlPiece, type WireBody } from './fuzz/junk.js'
import { fuzzOrder, loadRouteTable, paramsOf, routeKey, type DeclaredRoute } from './fuzz/routes.js'
import { responseProblems, send, type RawRequest, type RawResponse } from './fuzz/wire.js'
import { pushExt, RawBayeux, startTestService, type TestService } from './support.js'

/**
 * Property-based junk against every operation the service declares (read from the router, so
 * new routes are covered without being listed) and against the push gateway. What must hold
 * whatever arrives (§2.4, §2.5, §2.7, §18.2, §18.3):
 *
 * - never a 5xx, never a hang;
 * - every failure is exactly `{"response": null, "meta": {"code": status, "errors": [strings…]}}`
 *   (V3's `{"remaining_attempts": n}` excepted), every v3 success is enveloped;
 * - a missing or bad token is 401 whatever the body; a missing attestation is 403 before the body;
 *   an unknown path or method is 404 even without a token;
 * - the service still answers afterwards.
 *
 * fast-check prints the seed and the shrunk request of any failure; re-run with that seed.
 */

/** `FUZZ_SCALE=10 npx vitest run server/test/fuzz.test.ts` for a deeper local run. */
const SCALE = Number(process.env['FUZZ_SCALE'] ?? 1)
const RUNS = { valid: 30 * SCALE, noToken: 8 * SCALE, attestation: 8 * SCALE, unknownPaths: 80 * SCALE, bayeux: 120 * SCALE }
/** §18.30: a larger Bayeux batch is refused (413 over HTTP, a 1009 close over a WebSocket). */
const MAX_BATCH_BYTES = 1024 * 1024

const routes = fuzzOrder(await loadRouteTable())
const tokenRoutes = routes.filter((route) => route.auth === 'token')
const attestedRoutes = routes.filter((route) => route.attestation)

let service: TestService
let fixture: Fixture

beforeAll(async () => {
  // Short idle pings, so that a junk long-polling connect on a real client comes back quickly.
  service = await startTestService({ push: { idlePingMs: 200, serverPingMs: 1000 } })
  fixture = await buildFixture(service, routes)
})

afterAll(async () => {
  await service?.close()
})

async function freshFixture(): Promise<Fixture> {
  if (!(await fixtureUsable(service, fixture))) fixture = await buildFixture(service, routes)
  return fixture
}

/** The service still answers: a dev endpoint, and the router's 401 on a token route. */
async function expectHealthy(): Promise<void> {
  const outbox = await send(service.boundOrigin, { method: 'GET', path: '/dev/outbox?to=%2B0', headers: {}, label: 'health' })
  expect(outbox.status).toBe(200)
  const me = await send(service.boundOrigin, { method: 'GET', path: '/v3/users/me', headers: {}, label: 'health' })
  expect(responseProblems(me, { enveloped: true, status: [401] })).toEqual([])
}

function describeFailure(request: RawRequest, response: RawResponse, problems: string[]): string {
  return `${problems.join('; ')}\n  request: ${request.method} ${request.path.slice(0, 500)}\n  headers: ${JSON.stringify(request.headers)}\n  body: ${request.label}\n  answer: ${response.status} ${response.text.slice(0, 500)}`
}

/** `FUZZ_STATS=1`: print how often each status came back, to see whether the junk gets anywhere. */
const stats = process.env['FUZZ_STATS'] === '1' ? new Map<string, Map<number, number>>() : null
let currentRoute = ''

afterAll(() => {
  if (stats === null) return
  for (const [route, counts] of stats) console.log(route, JSON.stringify(Object.fromEntries([...counts].sort((a, b) => a[0] - b[0]))))
})

async function exchange(request: RawRequest, expectations: Parameters<typeof responseProblems>[1]): Promise<void> {
  let response: RawResponse
  try {
    response = await send(service.boundOrigin, request)
  } catch (error) {
    throw new Error(`${(error as Error).message}\n  request: ${request.method} ${request.path.slice(0, 500)}\n  body: ${request.label}`, { cause: error })
  }
  if (stats !== null) {
    const counts = stats.get(currentRoute) ?? new Map<number, number>()
    counts.set(response.status, (counts.get(response.status) ?? 0) + 1)
    stats.set(currentRoute, counts)
  }
  const problems = responseProblems(response, expectations)
  if (problems.length > 0) throw new Error(describeFailure(request, response, problems))
}

// ── request generators ───────────────────────────────────────────────────────────────────────

/** Query pairs (already encoded): junk keys and values, or a valid query of the route with a value swapped, dropped or doubled. */
const query = (f: Fixture, seeds: readonly Record<string, string>[] = []): fc.Arbitrary<string[]> => {
  const junkPair = fc
    .tuple(fc.constantFrom(...QUERY_KEYS), fc.oneof(fc.constantFrom(...realQueryValues(f)), urlPiece))
    .map(([key, value]) => `${percentEncode(key)}=${value}`)
  const junk = fc.array(junkPair, { maxLength: 4 })
  if (seeds.length === 0) return junk
  const seeded = fc
    .tuple(fc.constantFrom(...seeds), fc.nat(), fc.constantFrom('keep', 'swap', 'drop', 'double'), fc.oneof(fc.constantFrom(...realQueryValues(f)), urlPiece), fc.array(junkPair, { maxLength: 1 }))
    .map(([seed, at, change, value, extra]) => {
      const pairs = Object.entries(seed).map(([key, v]) => `${percentEncode(key)}=${percentEncode(v)}`)
      const i = pairs.length === 0 ? 0 : at % pairs.length
      const key = Object.keys(seed)[i] ?? 'x'
      if (change === 'swap' && pairs.length > 0) pairs[i] = `${percentEncode(key)}=${value}`
      if (change === 'drop') pairs.splice(i, 1)
      if (change === 'double' && pairs.length > 0) pairs.push(`${percentEncode(key)}=${value}`)
      return [...pairs, ...extra]
    })
  return fc.oneof(junk, seeded)
}

/** The concrete path: each parameter a real id of the fixture, or junk. */
const pathOf = (route: DeclaredRoute, f: Fixture, junkSegments: fc.Arbitrary<string>): fc.Arbitrary<string> => {
  const params = paramsOf(route.url)
  return fc
    .tuple(...params.map((param) => fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...realValues(f, param)) }, { weight: 2, arbitrary: junkSegments })))
    .map((values) => {
      let i = 0
      return route.url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, () => values[i++] ?? '')
    })
}

type TokenPlace = 'query' | 'header'

function assemble(
  route: { method: string },
  path: string,
  queryPairs: readonly string[],
  token: { value: string; place: TokenPlace }[],
  body: WireBody | null,
  extraHeaders: Record<string, string> = {}
): RawRequest {
  const pairs = [...queryPairs]
  const headers: Record<string, string> = { ...extraHeaders }
  for (const { value, place } of token) {
    if (place === 'query') pairs.push(`token=${percentEncode(value)}`)
    else headers['x-access-token'] = value
  }
  if (body?.contentType !== undefined) headers['content-type'] = body.contentType
  return {
    method: route.method,
    path: pairs.length === 0 ? path : `${path}?${pairs.join('&')}`,
    headers,
    ...(body === null ? {} : { body: body.bytes }),
    label: body?.label ?? '(none)'
  }
}

const place = fc.constantFrom<TokenPlace>('query', 'header')

function decodable(piece: string): boolean {
  try {
    decodeURIComponent(piece)
    return true
  } catch {
    return false
  }
}

// ── REST ─────────────────────────────────────────────────────────────────────────────────────

describe('every route, with a valid token and junk', () => {
  it('finds the routes of the service', () => {
    expect(routes.length).toBeGreaterThan(20)
    expect(routes.map(routeKey)).toContain('POST /v3/groups/:group_id/messages')
  })

  it.each(routes.map((route) => ({ name: routeKey(route), route })))('$name', { timeout: 90_000 * SCALE }, async ({ route }) => {
    const f = await freshFixture()
    currentRoute = routeKey(route)
    const seeds = (seedBodies(f)[routeKey(route)] ?? []).map(toJunk)
    const remainingAttempts = route.url.endsWith('/verifications/:mfa_id/confirm')
    const arbitrary = fc.record({
      path: pathOf(route, f, urlPiece),
      query: query(f, seedQueries(f)[routeKey(route)]),
      token: fc.option(place, { nil: null }),
      body: bodyArbitrary(seeds)
    })
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ path, query: pairs, token, body }) => {
        // Token-free routes ignore a token (§2.2); token routes always get a live one here.
        const tokens = token === null && route.auth === 'none' ? [] : [{ value: f.owner.token, place: token ?? 'query' }]
        const headers: Record<string, string> = route.attestation ? { 'x-verify-token': service.attestationSecret } : {}
        await exchange(assemble(route, path, pairs, tokens, body, headers), { enveloped: route.enveloped, remainingAttempts })
      }),
      { numRuns: RUNS.valid, interruptAfterTimeLimit: 60_000 * SCALE }
    )
    await expectHealthy()
    // A valid /dev/clock jump moves the clock for every later route: put it back.
    if (route.url === '/dev/clock') expect((await service.call('POST', '/dev/reset')).status).toBe(200)
  })
})

describe('token routes without a usable token → 401, whatever the body (§2.5)', () => {
  it.each(tokenRoutes.map((route) => ({ name: routeKey(route), route })))('$name', { timeout: 20_000 * SCALE }, async ({ route }) => {
    const f = await freshFixture()
    const badToken = fc.constantFrom('', 'short', 'A'.repeat(40), `${f.owner.token}x`, f.owner.token.slice(1), f.revokedToken, '\u00e9'.repeat(40))
    // No token; a bad one; or a bad header beside a good query token (the header wins, §2.2).
    type Given = { value: string; place: TokenPlace }[]
    const tokens = fc.oneof(
      fc.constant<Given>([]),
      fc.tuple(badToken, place).map(([value, where]): Given => [{ value, place: where }]),
      badToken.map(
        (value): Given => [
          { value: f.owner.token, place: 'query' },
          { value, place: 'header' }
        ]
      )
    )
    const arbitrary = fc.record({
      // Only segments that decode and keep the path's shape: an undecodable one names no route (404 first).
      path: pathOf(route, f, urlPiece.filter((piece) => decodable(piece) && piece !== '' && piece !== '.' && piece !== '..')),
      query: query(f),
      tokens,
      attest: fc.boolean(),
      body: bodyArbitrary([])
    })
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ path, query: pairs, tokens: given, attest, body }) => {
        const headers: Record<string, string> = attest ? { 'x-verify-token': service.attestationSecret } : {}
        // Header values must be Latin-1 on the wire; the accented token goes by query only.
        const sendable = given.map((t) => (t.place === 'header' && /[^\x20-\x7e]/.test(t.value) ? { ...t, place: 'query' as const } : t))
        await exchange(assemble(route, path, pairs, sendable, body, headers), { enveloped: route.enveloped, status: [401] })
      }),
      { numRuns: RUNS.noToken }
    )
  })
})

describe('attested routes without attestation → 403 before the body (§2.3)', () => {
  it.each(attestedRoutes.map((route) => ({ name: routeKey(route), route })))('$name', { timeout: 20_000 * SCALE }, async ({ route }) => {
    const f = await freshFixture()
    const arbitrary = fc.record({
      // As above: an undecodable segment names no route, and 404 comes first.
      path: pathOf(route, f, urlPiece.filter((piece) => decodable(piece) && piece !== '' && piece !== '.' && piece !== '..')),
      verify: fc.option(fc.constantFrom('', 'nope', `${service.attestationSecret}x`, service.attestationSecret.toUpperCase()), { nil: null }),
      body: bodyArbitrary([])
    })
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ path, verify, body }) => {
        const headers: Record<string, string> = verify === null ? {} : { 'x-verify-token': verify }
        const request = assemble(route, path, [], [{ value: f.owner.token, place: 'query' }], body, headers)
        const response = await send(service.boundOrigin, request)
        const problems = responseProblems(response, { enveloped: route.enveloped, status: [403] })
        if (problems.length === 0 && JSON.stringify((response.json as { meta: { errors: unknown } }).meta.errors) !== '["device verification required"]') {
          problems.push('errors are not ["device verification required"]')
        }
        if (problems.length > 0) throw new Error(describeFailure(request, response, problems))
      }),
      { numRuns: RUNS.attestation }
    )
  })
})

describe('paths and methods nobody declared → 404, even without a token (§2.5)', () => {
  /** Whether some declared route of this method matches the concrete path. */
  const declared = (method: string, path: string): boolean => {
    const segments = path.split('/')
    return routes.some((route) => {
      const pattern = route.url.split('/')
      return route.method === method && pattern.length === segments.length && pattern.every((part, i) => part.startsWith(':') || part === segments[i])
    })
  }

  it('unknown paths on every host', { timeout: 20_000 * SCALE }, async () => {
    const f = await freshFixture()
    const arbitrary = fc.record({
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH'),
      prefix: fc.constantFrom('/v2', '/v3', '/v4', '/image', '/dev', '', '/faye', '/v1', '/V3'),
      segments: fc.array(urlPiece.filter((piece) => !['', '.', '..', '%2e%2e'].includes(piece)), { minLength: 1, maxLength: 3 }),
      token: fc.option(fc.constantFrom(f.owner.token, 'bad'), { nil: null }),
      body: bodyArbitrary([])
    })
    await fc.assert(
      fc.asyncProperty(arbitrary, async ({ method, prefix, segments, token, body }) => {
        const path = `${prefix}/zz-unknown/${segments.join('/')}`
        const request = assemble({ method }, path, [], token === null ? [] : [{ value: token, place: 'query' }], body)
        await exchange(request, { enveloped: false, status: [404] })
      }),
      { numRuns: RUNS.unknownPaths }
    )
  })

  it('known paths with a method they do not have', async () => {
    const f = await freshFixture()
    for (const route of routes) {
      const path = route.url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => realValues(f, name)[0] ?? '1')
      for (const method of ['GET', 'POST', 'PUT', 'DELETE', 'PATCH']) {
        if (declared(method, path)) continue
        await exchange({ method, path, headers: {}, label: '(none)' }, { enveloped: false, status: [404] })
      }
    }
  })
})

describe('bodies over the limit', () => {
  it('get a failure body, not a crash, on every route that takes a body', { timeout: 60_000 }, async () => {
    const f = await freshFixture()
    const huge = Buffer.from(JSON.stringify({ message: { text: 'y'.repeat(5 * 1024 * 1024) } }), 'utf8')
    for (const route of routes.filter((r) => r.method === 'POST' || r.method === 'PUT')) {
      const path = route.url.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, (_, name: string) => realValues(f, name)[0] ?? '1')
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-access-token': f.owner.token }
      if (route.attestation) headers['x-verify-token'] = service.attestationSecret
      await exchange({ method: route.method, path, headers, body: huge, label: '5 MiB JSON' }, { enveloped: route.enveloped })
    }
    await expectHealthy()
  })
})

describe('regressions the fuzzing found in the HTTP layer', () => {
  const call = (method: string, path: string, headers: Record<string, string> = {}, body?: Buffer): Promise<RawResponse> =>
    send(service.boundOrigin, { method, path, headers, ...(body === undefined ? {} : { body }), label: '' })

  it('answers an undecodable path with the 404 failure body, before the token', async () => {
    for (const path of ['/v3/groups/%', '/v3/groups/%ZZ/messages', '/v2/users/%E0%A4%A']) {
      expect(responseProblems(await call('GET', path), { enveloped: false, status: [404] })).toEqual([])
    }
  })

  it('routes long ids to the operation: 401 without a token, 404 with one', async () => {
    const f = await freshFixture()
    const path = `/v3/groups/${'9'.repeat(500)}`
    expect(responseProblems(await call('GET', path), { enveloped: true, status: [401] })).toEqual([])
    expect(responseProblems(await call('GET', `${path}?token=${f.owner.token}`), { enveloped: true, status: [404] })).toEqual([])
  })

  it('checks the token and attestation before an unparsable Content-Type or an oversized body', async () => {
    const f = await freshFixture()
    const junkType = { 'content-type': ';;;' }
    const body = Buffer.from('{}')
    expect(responseProblems(await call('POST', '/v3/groups', junkType, body), { enveloped: true, status: [401] })).toEqual([])
    expect(responseProblems(await call('POST', '/v3/groups', { ...junkType, 'x-access-token': f.owner.token }, body), { enveloped: true, status: [403] })).toEqual([])
    const attested = { ...junkType, 'x-access-token': f.owner.token, 'x-verify-token': service.attestationSecret }
    expect(responseProblems(await call('POST', '/v3/groups', attested, body), { enveloped: true, status: [400] })).toEqual([])
    const huge = Buffer.alloc(5 * 1024 * 1024, 'x')
    const json = { 'content-type': 'application/json' }
    expect(responseProblems(await call('POST', `/v3/groups/${f.groupId}/messages`, json, huge), { enveloped: true, status: [401] })).toEqual([])
    expect(responseProblems(await call('POST', '/v3/groups', { ...json, 'x-access-token': f.owner.token }, huge), { enveloped: true, status: [403] })).toEqual([])
  })

  it('answers an unknown path with 404 before an unparsable Content-Type or an oversized body (§2.5 step 1)', async () => {
    const f = await freshFixture()
    const huge = Buffer.alloc(5 * 1024 * 1024, 'x')
    for (const token of [[], [['x-access-token', f.owner.token]]] as [string, string][][]) {
      const headers = Object.fromEntries(token)
      expect(responseProblems(await call('POST', '/v3/zz-unknown', { ...headers, 'content-type': ';;;' }, Buffer.from('{}')), { enveloped: true, status: [404] })).toEqual([])
      expect(responseProblems(await call('POST', '/v3/zz-unknown', { ...headers, 'content-type': 'application/json' }, huge), { enveloped: true, status: [404] })).toEqual([])
    }
  })
})

// ── push gateway ─────────────────────────────────────────────────────────────────────────────

describe('push gateway junk (POST /faye)', () => {
  it('never fails with a 5xx, answers Bayeux arrays or failure bodies, and keeps working', { timeout: 90_000 * SCALE }, async () => {
    const f = await freshFixture()
    const clients: RawBayeux[] = []
    for (let i = 0; i < 2; i++) {
      const client = new RawBayeux(service)
      await client.handshake()
      clients.push(client)
    }
    const subscribed = await clients[0]?.subscribe(`/user/${f.owner.id}`, pushExt(f.owner.token))
    expect(subscribed.successful).toBe(true)
    const [lo, hi] = f.chatId.split('+')
    const arbitrary = bayeuxBody({
      clientIds: clients.map((client) => client.clientId),
      token: f.owner.token,
      userId: f.owner.id,
      groupId: f.groupId,
      dmChannel: `/direct_message/${lo}_${hi}`
    })
    await fc.assert(
      fc.asyncProperty(arbitrary, async (body) => {
        const request: RawRequest = {
          method: 'POST',
          path: '/faye',
          headers: body.contentType === undefined ? {} : { 'content-type': body.contentType },
          body: body.bytes,
          label: body.label
        }
        const response = await send(service.boundOrigin, request, 20_000)
        const problems = bayeuxProblems(response)
        if (problems.length > 0) throw new Error(describeFailure(request, response, problems))
      }),
      { numRuns: RUNS.bayeux, interruptAfterTimeLimit: 70_000 * SCALE }
    )

    // A well-behaved client still gets its events.
    const healthy = new RawBayeux(service)
    expect((await healthy.handshake()).successful).toBe(true)
    expect((await healthy.subscribe(`/user/${f.owner.id}`, pushExt(f.owner.token))).successful).toBe(true)
    await service.sendGroupMessage(f.owner, f.groupId, 'after the junk')
    const delivered = await healthy.connect()
    expect(delivered.some((message) => message.data?.type === 'line.create')).toBe(true)
    await expectHealthy()
  })
})

function bayeuxProblems(response: RawResponse): string[] {
  const problems: string[] = []
  if (response.status >= 500) problems.push(`status ${response.status}`)
  if (response.headers['access-control-allow-origin'] !== '*') problems.push('no Access-Control-Allow-Origin: *')
  if (response.status !== 200) return [...problems, ...responseProblems(response, { enveloped: false })]
  return [...problems, ...batchProblems(response.json, response.text)]
}

/** A reply batch: an array of replies (with `successful`, and `error` when false) or deliveries, none with `ext`. */
function batchProblems(body: unknown, text: string): string[] {
  if (!Array.isArray(body)) return [`not a JSON array: ${text.slice(0, 200)}`]
  const problems: string[] = []
  for (const message of body as unknown[]) {
    if (typeof message !== 'object' || message === null || Array.isArray(message)) {
      problems.push(`non-object in the reply: ${JSON.stringify(message)}`)
      continue
    }
    const record = message as Record<string, unknown>
    if ('ext' in record) problems.push(`a reply or delivery carries ext: ${JSON.stringify(record).slice(0, 200)}`)
    if ('data' in record) {
      if (typeof record['channel'] !== 'string' || typeof record['id'] !== 'string') problems.push(`delivery without channel or string id: ${JSON.stringify(record).slice(0, 200)}`)
    } else if (typeof record['successful'] !== 'boolean') {
      problems.push(`reply without successful: ${JSON.stringify(record).slice(0, 200)}`)
    } else if (record['successful'] === false && typeof record['error'] !== 'string') {
      problems.push(`unsuccessful reply without error: ${JSON.stringify(record).slice(0, 200)}`)
    }
  }
  return problems
}

describe('push gateway junk (WebSocket frames)', () => {
  it('answers every frame with a Bayeux batch, prints nothing, and keeps the socket usable', { timeout: 60_000 * SCALE }, async () => {
    const f = await freshFixture()
    const http = new RawBayeux(service)
    await http.handshake()
    const [lo, hi] = f.chatId.split('+')
    const frames = fc.oneof(
      bayeuxBody({ clientIds: [http.clientId], token: f.owner.token, userId: f.owner.id, groupId: f.groupId, dmChannel: `/direct_message/${lo}_${hi}` }).map(
        (body) => body.bytes.toString('utf8')
      ),
      fc.constantFrom('', 'x', '{', 'null', '1', '"s"', '[null]', '[null,{}]', '\uD800', '["\u0000"]'),
      oddString
    )
    const received: string[] = []
    let wake: (() => void) | null = null
    /** The close code of the socket in use, once it has closed. */
    let closeCode: number | null = null
    const openSocket = async (): Promise<WebSocket> => {
      const opened = new WebSocket(`${service.boundOrigin.replace(/^http/, 'ws')}/faye`)
      await new Promise((resolve, reject) => {
        opened.once('open', resolve)
        opened.once('error', reject)
      })
      closeCode = null
      opened.on('message', (raw) => {
        received.push(raw.toString())
        wake?.()
      })
      // A client still sending when the service closes may see its socket reset.
      opened.on('error', () => undefined)
      opened.once('close', (code) => {
        closeCode = code
        wake?.()
      })
      return opened
    }
    let socket = await openSocket()
    const printed = vi.spyOn(console, 'log')
    let marker = 0
    try {
      await fc.assert(
        fc.asyncProperty(frames, async (frame) => {
          received.length = 0
          // A frame may disconnect the client it names (one of ours, bound to this socket by an
          // earlier connect frame); faye then rightly closes that client's socket: start a new one.
          if (socket.readyState !== WebSocket.OPEN) socket = await openSocket()
          socket.send(frame)
          // A batch over the limit closes the socket with 1009 instead (§18.30).
          if (Buffer.byteLength(frame, 'utf8') > MAX_BATCH_BYTES) {
            await vi.waitFor(() => expect(closeCode).toBe(1009), { timeout: 10_000, interval: 20 })
            return
          }
          // A handshake right behind the junk: its reply proves the junk was processed and the socket still works.
          const id = `marker-${++marker}`
          socket.send(JSON.stringify([{ channel: '/meta/handshake', version: '1.0', supportedConnectionTypes: ['websocket'], id }]))
          const deadline = Date.now() + 10_000
          while (!received.some((text) => text.includes(`"${id}"`))) {
            if (socket.readyState !== WebSocket.OPEN && frame.includes('/meta/disconnect')) return
            if (Date.now() > deadline) throw new Error(`no handshake reply after the frame ${JSON.stringify(frame.slice(0, 300))}`)
            await new Promise<void>((resolve) => {
              wake = resolve
              setTimeout(resolve, 100)
            })
          }
          for (const text of received) {
            let body: unknown
            try {
              body = JSON.parse(text)
            } catch {
              body = undefined
            }
            const problems = batchProblems(body, text)
            if (problems.length > 0) throw new Error(`${problems.join('; ')}\n  frame: ${frame.slice(0, 300)}`)
          }
          expect(printed).not.toHaveBeenCalled()
        }),
        {
          numRuns: RUNS.bayeux,
          interruptAfterTimeLimit: 50_000 * SCALE,
          // Frames that once stalled the socket or made faye throw: malformed messages and types.
          examples: [
            ['{"advice":-1}'],
            ['[{"id":"1"}]'],
            ['{"channel":{"toString":""}}'],
            ['[{"channel":"/meta/subscribe","id":{"valueOf":"x"}}]'],
            ['[{"channel":"/meta/handshake","version":"1.0","supportedConnectionTypes":[{"toString":null}]}]'],
            ['[{"channel":"/meta/connect","clientId":"x","connectionType":{"toString":null}}]']
          ]
        }
      )
    } finally {
      printed.mockRestore()
      socket.terminate()
    }
    await expectHealthy()
  })
})
