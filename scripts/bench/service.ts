/**
 * Measures the local service (`npm run bench:service`) and prints the figures; it asserts nothing.
 *
 * The service runs as a child process (`node --import tsx server/src/cli.ts --dev --port 0`), so
 * the load generator does not share its event loop. On loopback it measures
 *   - request throughput with autocannon: MS2 (every request with its own source_guid), MS1 on a
 *     small and on a large group, U1 and a CORS preflight, against a baseline measured the same way
 *     in the same run: a bare fastify `GET /hello` in its own child process;
 *   - push fan-out: the time from sending MS2 to each subscriber's delivery of its `line.create`,
 *     with 1, 10 and 100 subscribers, each its own user on its own WebSocket subscribed to its
 *     /user channel, all members of one group.
 *
 * Environment: BENCH_DURATION (s per throughput run, default 5), BENCH_CONNECTIONS (default 10),
 * BENCH_SENDS (sends per fan-out size, default 200), BENCH_PARTS (`throughput`, `fan-out`, or
 * both, the default), BENCH_CPU_PROF=1 (the child writes a .cpuprofile on exit into
 * $TMPDIR/service-bench-profiles; open it in Chrome DevTools or speedscope).
 */
import autocannon, { type Request, type Result } from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const DURATION = Number(process.env['BENCH_DURATION'] ?? 5)
const CONNECTIONS = Number(process.env['BENCH_CONNECTIONS'] ?? 10)
const SENDS = Number(process.env['BENCH_SENDS'] ?? 200)
const PROFILE = process.env['BENCH_CPU_PROF'] === '1'
const PROFILE_DIR = join(tmpdir(), 'service-bench-profiles')
const PARTS = (process.env['BENCH_PARTS'] ?? 'throughput,fan-out').split(',')
const FAN_OUT = [1, 10, 100]
const TARGET_RPS = 2000
const TARGET_P99_MS = 50

// ── the service ──────────────────────────────────────────────────────────────────────────────

interface Service {
  origin: string
  secret: string
  child: ChildProcess
}

/** Starts a child and resolves once it printed `listening on <origin>` (and, for the service, its secret). */
function spawnListening(args: string[], needsSecret: boolean): Promise<Service> {
  const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] })
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream })
  return new Promise((resolve, reject) => {
    let origin = ''
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}) before listening`)))
    // Keep reading: the CLI prints every SMS in --dev, and a full pipe would stall the child.
    lines.on('line', (line) => {
      const listening = /^listening on (\S+)/.exec(line)
      if (listening?.[1] !== undefined) origin = listening[1]
      if (origin !== '' && !needsSecret) resolve({ origin, secret: '', child })
      const secret = /^attestation secret: (\S+)/.exec(line)
      if (secret?.[1] !== undefined && origin !== '') resolve({ origin, secret: secret[1], child })
    })
  })
}

function startService(): Promise<Service> {
  const profile = PROFILE ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : []
  return spawnListening([...profile, '--import', 'tsx', 'server/src/cli.ts', '--dev', '--port', '0'], true)
}

/** The baseline: the same framework with nothing in it, under the same loader. */
const HELLO = `
import Fastify from 'fastify'
const app = Fastify({ logger: false })
app.get('/hello', async () => ({ hello: 'world' }))
await app.listen({ host: '127.0.0.1', port: 0 })
console.log('listening on http://127.0.0.1:' + app.server.address().port)
process.once('SIGINT', () => app.close().then(() => process.exit(0)))
`

function startHello(): Promise<Service> {
  return spawnListening(['--import', 'tsx', '--input-type=module', '-e', HELLO], false)
}

async function stopService(service: Service): Promise<void> {
  const exited = new Promise((resolve) => service.child.once('exit', resolve))
  service.child.kill('SIGINT')
  await exited
}

// ── REST helpers ─────────────────────────────────────────────────────────────────────────────

interface User {
  id: string
  email: string
  phone: string
  token: string
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any

async function api(service: Service, method: string, path: string, options: { token?: string; body?: unknown; attest?: boolean } = {}): Promise<{ status: number; body: Json }> {
  const headers: Record<string, string> = {}
  if (options.token !== undefined) headers['x-access-token'] = options.token
  if (options.attest === true) headers['x-verify-token'] = service.secret
  if (options.body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${service.origin}${path}`, {
    method,
    headers,
    ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) })
  })
  const text = await response.text()
  return { status: response.status, body: text === '' ? null : JSON.parse(text) }
}

async function expectStatus(what: string, pending: Promise<{ status: number; body: Json }>, ...statuses: number[]): Promise<Json> {
  const result = await pending
  if (!statuses.includes(result.status)) throw new Error(`${what}: ${result.status} ${JSON.stringify(result.body)}`)
  return result.body
}

let serial = 0

/** /dev/users, then the new-device sign-in with the SMS PIN from /dev/outbox. */
async function signUp(service: Service): Promise<User> {
  serial += 1
  const phone = `+1 555${String(process.pid % 1000).padStart(3, '0')}${String(serial).padStart(4, '0')}`
  const email = `bench${process.pid}-${serial}@example.test`
  const password = 'bench password'
  const created = await expectStatus('/dev/users', api(service, 'POST', '/dev/users', { body: { name: `Bench ${serial}`, email, phone_number: phone, password } }), 201)
  const login = { app_id: 'bench', grant_type: 'password', username: email, password, device_id: randomUUID() }
  const challenge = await expectStatus('L1', api(service, 'POST', '/v2/access_tokens', { body: login }), 202)
  const code = challenge.verification.code
  await expectStatus('V2', api(service, 'POST', `/v3/verifications/${code}/initiate`, { body: { verification: { method: 'sms' } } }), 200)
  const outbox = await expectStatus('outbox', api(service, 'GET', `/dev/outbox?to=${encodeURIComponent(phone)}`), 200)
  const pin = /(\d{6})/.exec(outbox.at(-1).text)?.[1]
  await expectStatus('V3', api(service, 'POST', `/v3/verifications/${code}/confirm`, { body: { verification: { pin } } }), 200)
  const granted = await expectStatus('L1 with code', api(service, 'POST', '/v2/access_tokens', { body: { ...login, verification: { code } } }), 200)
  return { id: created.user.id, email, phone, token: granted.access_token }
}

/** Several at once: sign-in is mostly scrypt, which runs on the child's thread pool. */
async function signUpMany(service: Service, count: number): Promise<User[]> {
  const users: User[] = []
  const workers = Array.from({ length: 4 }, async () => {
    while (users.length < count) {
      const slot = users.length
      users.length += 1
      users[slot] = await signUp(service)
    }
  })
  await Promise.all(workers)
  return users
}

async function groupOf(service: Service, owner: User, members: User[]): Promise<string> {
  const group = await expectStatus('G5', api(service, 'POST', '/v3/groups', { token: owner.token, attest: true, body: { name: 'Bench', share: true } }), 201)
  const groupId = String(group.response.id)
  for (let i = 0; i < members.length; i += 100) {
    const batch = members.slice(i, i + 100).map((member, j) => ({ user_id: member.id, nickname: `Member ${i + j}` }))
    await expectStatus('MB2', api(service, 'POST', `/v3/groups/${groupId}/members/add`, { token: owner.token, attest: true, body: { members: batch } }), 202)
  }
  return groupId
}

// ── throughput ───────────────────────────────────────────────────────────────────────────────

interface Throughput {
  name: string
  result: Result
}

async function throughput(service: Service, name: string, request: Request): Promise<Throughput> {
  const result = await autocannon({ url: service.origin, connections: CONNECTIONS, duration: DURATION, requests: [request] })
  return { name, result }
}

// ── push fan-out ─────────────────────────────────────────────────────────────────────────────

/** A Bayeux client over a raw WebSocket, subscribed to its user's channel (§14.1, §14.2). */
class Subscriber {
  readonly #socket: WebSocket
  #clientId = ''
  #nextId = 0
  readonly #waiters = new Map<string, (message: Json) => void>()

  constructor(
    service: Service,
    private readonly user: User,
    private readonly onDelivery: (data: Json, at: number) => void
  ) {
    this.#socket = new WebSocket(`${service.origin.replace(/^http/, 'ws')}/faye`)
    this.#socket.on('message', (raw) => this.#receive(raw.toString()))
  }

  async start(): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      this.#socket.once('open', () => resolve())
      this.#socket.once('error', reject)
    })
    const handshake = await this.#request({ channel: '/meta/handshake', version: '1.0', supportedConnectionTypes: ['websocket'] })
    this.#clientId = handshake.clientId
    const subscribed = await this.#request({
      channel: '/meta/subscribe',
      clientId: this.#clientId,
      subscription: `/user/${this.user.id}`,
      ext: { access_token: this.user.token, timestamp: Math.floor(Date.now() / 1000) }
    })
    if (subscribed.successful !== true) throw new Error(`subscribe: ${JSON.stringify(subscribed)}`)
    this.#connect()
  }

  close(): void {
    this.#socket.close()
  }

  #connect(): void {
    if (this.#socket.readyState !== WebSocket.OPEN) return
    void this.#request({ channel: '/meta/connect', clientId: this.#clientId, connectionType: 'websocket' }).then(() => this.#connect())
  }

  #request(message: Record<string, unknown>): Promise<Json> {
    const id = String(++this.#nextId)
    return new Promise((resolve) => {
      this.#waiters.set(id, resolve)
      this.#socket.send(JSON.stringify([{ ...message, id }]))
    })
  }

  #receive(text: string): void {
    const at = performance.now()
    for (const message of JSON.parse(text) as Json[]) {
      if (typeof message.channel === 'string' && message.channel.startsWith('/meta/')) {
        const wake = this.#waiters.get(message.id)
        this.#waiters.delete(message.id)
        wake?.(message)
      } else if (message.data !== undefined) {
        this.onDelivery(message.data, at)
      }
    }
  }
}

interface FanOut {
  subscribers: number
  deliveries: number[]
  /** Per send: until the last subscriber had it. */
  lastOfSend: number[]
  /** Per send: until the REST answer. */
  answered: number[]
  missing: number
}

async function fanOut(service: Service, owner: User, members: User[]): Promise<FanOut> {
  const groupId = await groupOf(service, owner, members)
  const arrivals = new Map<string, number[]>()
  let wake: (() => void) | null = null
  const subscribers = members.map(
    (member) =>
      new Subscriber(service, member, (data, at) => {
        if (data?.type !== 'line.create') return
        const guid = String(data.subject?.source_guid)
        const list = arrivals.get(guid)
        if (list === undefined) return
        list.push(at)
        if (list.length === members.length) wake?.()
      })
  )
  await Promise.all(subscribers.map((subscriber) => subscriber.start()))

  const outcome: FanOut = { subscribers: members.length, deliveries: [], lastOfSend: [], answered: [], missing: 0 }
  const warmUp = 20
  for (let i = 0; i < SENDS + warmUp; i++) {
    const guid = randomUUID()
    const list: number[] = []
    arrivals.set(guid, list)
    const allThere = new Promise<void>((resolve) => {
      wake = resolve
      setTimeout(resolve, 2000)
    })
    const start = performance.now()
    const sent = api(service, 'POST', `/v3/groups/${groupId}/messages`, { token: owner.token, body: { message: { source_guid: guid, text: `fan-out ${i}` } } })
    const answered = (await sent).status === 201 ? performance.now() - start : NaN
    await allThere
    arrivals.delete(guid)
    if (i < warmUp) continue
    outcome.answered.push(answered)
    outcome.missing += members.length - list.length
    outcome.deliveries.push(...list.map((at) => at - start))
    if (list.length > 0) outcome.lastOfSend.push(Math.max(...list) - start)
  }
  for (const subscriber of subscribers) subscriber.close()
  return outcome
}

// ── report ───────────────────────────────────────────────────────────────────────────────────

function percentile(values: number[], p: number): number {
  const sorted = values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b)
  if (sorted.length === 0) return NaN
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN
}

const fixed = (value: number, digits = 1): string => (Number.isNaN(value) ? '—' : value.toFixed(digits))
const pad = (text: string, width: number): string => text.padStart(width)

async function main(): Promise<void> {
  // Other work on the machine skews every figure; the load average says how much there was.
  const load = (): string => loadavg().map((value) => value.toFixed(2)).join(' ')
  console.log(`service bench — Node ${process.version}, ${cpus().length} CPUs (${cpus()[0]?.model ?? '?'}), load average ${load()}`)
  console.log(`service: child process (node --import tsx server/src/cli.ts --dev --port 0), in-memory SQLite, loopback`)
  const service = await startService()
  try {
    console.log(`listening on ${service.origin}; creating users…`)
    const setupStart = performance.now()
    const [owner, ...others] = await signUpMany(service, 1 + Math.max(...FAN_OUT) + 1)
    if (owner === undefined) throw new Error('no users')
    const peer = others.pop()
    if (peer === undefined) throw new Error('no peer')
    const groupId = await groupOf(service, owner, [peer])
    console.log(`${others.length + 2} users and the groups ready in ${fixed((performance.now() - setupStart) / 1000)} s\n`)

    const json = { 'content-type': 'application/json', 'x-access-token': owner.token }
    const runs: Throughput[] = []
    if (PARTS.includes('throughput')) {
      const hello = await startHello()
      try {
        runs.push(await throughput(hello, 'baseline: bare fastify GET /hello (own process)', { method: 'GET', path: '/hello' }))
      } finally {
        await stopService(hello)
      }
      runs.push(await throughput(service, 'OPTIONS /v3/groups (CORS preflight, no handler)', { method: 'OPTIONS', path: '/v3/groups' }))
      runs.push(await throughput(service, 'GET /v3/users/me (U1: token + one row)', { method: 'GET', path: '/v3/users/me', headers: { 'x-access-token': owner.token } }))
      for (let i = 0; i < 100; i++) {
        await expectStatus('MS2', api(service, 'POST', `/v3/groups/${groupId}/messages`, { token: owner.token, body: { message: { source_guid: randomUUID(), text: `history ${i}` } } }), 201)
      }
      const ms1 = (label: string): Promise<Throughput> =>
        throughput(service, `GET /v3/groups/:id/messages?limit=20 (MS1, ${label})`, {
          method: 'GET',
          path: `/v3/groups/${groupId}/messages?limit=20`,
          headers: { 'x-access-token': owner.token }
        })
      runs.push(await ms1('100 messages'))
      runs.push(
        await throughput(service, 'POST /v3/groups/:id/messages (MS2)', {
          method: 'POST',
          path: `/v3/groups/${groupId}/messages`,
          headers: json,
          setupRequest: (request) => ({ ...request, body: JSON.stringify({ message: { source_guid: randomUUID(), text: 'bench message' } }) })
        })
      )
      const total = (await expectStatus('MS1', api(service, 'GET', `/v3/groups/${groupId}/messages?limit=1`, { token: owner.token }), 200)).response.count
      runs.push(await ms1(`${total} messages`))
    }

    const baseline = runs[0]?.result.requests.mean ?? NaN
    console.log(`throughput: autocannon, ${CONNECTIONS} connections, ${DURATION} s per row`)
    console.log(`${'operation'.padEnd(58)}${pad('req/s', 9)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('non-2xx', 9)}${pad('errors', 8)}${pad('vs base', 9)}`)
    for (const { name, result } of runs) {
      const ratio = `${fixed((result.requests.mean / baseline) * 100, 0)}%`
      console.log(
        `${name.padEnd(58)}${pad(fixed(result.requests.mean, 0), 9)}${pad(fixed(result.latency.p50), 8)}${pad(fixed(result.latency.p99), 8)}${pad(String(result.non2xx), 9)}${pad(String(result.errors + result.timeouts), 8)}${pad(ratio, 9)}`
      )
    }

    console.log(`\npush fan-out: MS2 sent → line.create delivered on each subscriber's WebSocket, ${SENDS} sends per size (after 20 warm-up)`)
    console.log(`${'subscribers'.padEnd(12)}${pad('deliveries', 11)}${pad('missing', 8)}${pad('p50 ms', 8)}${pad('p99 ms', 8)}${pad('last p50', 9)}${pad('last p99', 9)}${pad('REST p50', 9)}${pad('REST p99', 9)}`)
    const fanOuts: FanOut[] = []
    for (const size of PARTS.includes('fan-out') ? FAN_OUT : []) {
      const outcome = await fanOut(service, owner, others.slice(0, size))
      fanOuts.push(outcome)
      console.log(
        `${String(size).padEnd(12)}${pad(String(outcome.deliveries.length), 11)}${pad(String(outcome.missing), 8)}${pad(fixed(percentile(outcome.deliveries, 50)), 8)}${pad(fixed(percentile(outcome.deliveries, 99)), 8)}${pad(fixed(percentile(outcome.lastOfSend, 50)), 9)}${pad(fixed(percentile(outcome.lastOfSend, 99)), 9)}${pad(fixed(percentile(outcome.answered, 50)), 9)}${pad(fixed(percentile(outcome.answered, 99)), 9)}`
      )
    }

    const ms2Run = runs.find((run) => run.name.includes('MS2'))
    const ms1Runs = runs.filter((run) => run.name.includes('MS1'))
    const widest = fanOuts.at(-1)
    const p99 = widest === undefined ? NaN : percentile(widest.deliveries, 99)
    const verdict = (ok: boolean): string => (ok ? 'met' : 'MISSED')
    console.log(`\nload average at the end: ${load()}`)
    console.log('targets')
    for (const run of [...(ms2Run === undefined ? [] : [ms2Run]), ...ms1Runs]) {
      const rps = run.result.requests.mean
      console.log(`  ${run.name} ≥ ${TARGET_RPS} req/s: ${fixed(rps, 0)} req/s = ${fixed((rps / baseline) * 100, 0)}% of the baseline — ${verdict(rps >= TARGET_RPS)}`)
    }
    if (widest !== undefined) {
      console.log(`  fan-out p99 < ${TARGET_P99_MS} ms at ${widest.subscribers} subscribers: ${fixed(p99)} ms — ${verdict(p99 < TARGET_P99_MS)}`)
    }
  } finally {
    await stopService(service)
    if (PROFILE) console.log(`\nCPU profile of the service written to ${PROFILE_DIR}`)
  }
}

await main()
