// Test connection (Settings ▸ Service): asks each of the six addresses one question that only the
// service answers in a known way, without a token, and says in words what came back instead. A
// wrong path, another program on the port, a TLS or name failure each read differently, so the
// person can tell which address to fix and how.
import { randomUUID } from 'node:crypto'
import { WebSocket } from 'ws'
import { serviceAddressProblem, type ServiceAddressSetting } from '@shared/service-address'
import { SERVICE_ADDRESS_NAMES, type AddressCheck, type ServiceSettings } from '@shared/service-settings'

export interface ConnectionCheckOptions {
  /** How long each address may take to answer. */
  timeoutMs?: number
  fetch?: typeof fetch
}

const DEFAULT_TIMEOUT_MS = 10_000

/** Checks all six addresses at once; one result per address, in the screen's order. */
export async function checkServiceAddresses(settings: ServiceSettings, options: ConnectionCheckOptions = {}): Promise<AddressCheck[]> {
  return Promise.all(SERVICE_ADDRESS_NAMES.map((setting) => checkAddress(setting, settings[setting], options)))
}

/** Null when the address answered as the service does, or why not. */
type Probe = (address: string, context: ProbeContext) => Promise<string | null>

interface ProbeContext {
  timeoutMs: number
  fetch: typeof fetch
}

/**
 * What each address is asked: for the REST hosts, a read that needs a token and exists on that
 * host alone (C1, T1, R1), which the service answers with 401 and its failure body when no token
 * comes, so an address with another host's path in it is caught too (U1's `/users/me` would not
 * do: v2 answers it as U3). The image service is asked for a picture that cannot exist (I2 takes
 * no token: 404), then for an upload without a token (I1: 401, where a wrong path answers 404).
 * The push gateway is sent a Bayeux handshake, over HTTP or over a WebSocket.
 */
const PROBES: Record<ServiceAddressSetting, Probe> = {
  baseUrl: (address, context) => expectRefusal('GET', joinPath(address, '/chats'), 401, context),
  v2Url: (address, context) => expectRefusal('GET', joinPath(address, '/access_tokens'), 401, context),
  v4Url: (address, context) => expectRefusal('GET', joinPath(address, '/relationships'), 401, context),
  imageServiceUrl: async (address, context) =>
    (await expectRefusal('GET', joinPath(address, `/i/${'0'.repeat(32)}`), 404, context)) ??
    (await expectRefusal('POST', joinPath(address, '/pictures'), 401, context)),
  pushUrl: handshakeOverHttp,
  pushWsUrl: handshakeOverWebSocket
}

async function checkAddress(setting: ServiceAddressSetting, address: string, options: ConnectionCheckOptions): Promise<AddressCheck> {
  // An address the transport rule refuses is not contacted at all: it would not be saved either.
  const refused = serviceAddressProblem(setting, address)
  const problem =
    refused ??
    (await PROBES[setting](address, { timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS, fetch: options.fetch ?? globalThis.fetch }).catch(
      (error: unknown) => unreachable(error, options.timeoutMs ?? DEFAULT_TIMEOUT_MS)
    ))
  return problem === null ? { setting, address, ok: true } : { setting, address, ok: false, problem }
}

async function expectRefusal(method: 'GET' | 'POST', url: string, expected: 401 | 404, { timeoutMs, fetch }: ProbeContext): Promise<string | null> {
  const response = await fetch(url, { method, headers: { Accept: 'application/json' }, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' })
  const text = await response.text()
  const status = response.status
  if (status !== expected) {
    const asked = expected === 401 ? `${method} ${new URL(url).pathname} without a sign-in` : 'a picture that does not exist'
    return `answered ${status}${statusHint(status)} where the service answers ${expected} to ${asked}; check the address and its path`
  }
  if (!isFailureBody(parseJson(text), status)) {
    return `answered ${status}, but not with the service's error body: something other than the service answers here`
  }
  return null
}

/** POST {push_url} with a handshake; the gateway answers a JSON array with a successful reply. */
async function handshakeOverHttp(address: string, { timeoutMs, fetch }: ProbeContext): Promise<string | null> {
  const response = await fetch(address, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
    body: JSON.stringify([handshake(['long-polling'])]),
    signal: AbortSignal.timeout(timeoutMs),
    redirect: 'manual'
  })
  const text = await response.text()
  if (response.status !== 200) {
    return `answered ${response.status}${statusHint(response.status)} to a push handshake, where the gateway answers 200; check the address and its path`
  }
  return handshakeProblem(parseJson(text))
}

/** Opens a WebSocket to {push_ws_url} and sends a handshake on it. */
function handshakeOverWebSocket(address: string, { timeoutMs }: ProbeContext): Promise<string | null> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(address, { handshakeTimeout: timeoutMs })
    const finish = (outcome: () => void): void => {
      clearTimeout(timer)
      socket.removeAllListeners()
      // Swallows the error a socket still connecting reports when terminated.
      socket.on('error', () => undefined)
      socket.terminate()
      outcome()
    }
    const timer = setTimeout(() => finish(() => resolve(`no answer to a push handshake within ${seconds(timeoutMs)}`)), timeoutMs)
    socket.on('unexpected-response', (_request, response) => {
      const status = response.statusCode ?? 0
      finish(() => resolve(`answered ${status}${statusHint(status)} where the gateway opens a WebSocket; check the address and its path`))
    })
    socket.on('open', () => socket.send(JSON.stringify([handshake(['websocket'])])))
    socket.on('message', (data) => finish(() => resolve(handshakeProblem(parseJson(String(data))))))
    socket.on('close', () => finish(() => resolve('the WebSocket opened, then closed without answering a push handshake')))
    socket.on('error', (error) => finish(() => reject(error)))
  })
}

function handshake(connectionTypes: string[]): Record<string, unknown> {
  return { channel: '/meta/handshake', version: '1.0', supportedConnectionTypes: connectionTypes, id: randomUUID() }
}

function handshakeProblem(reply: unknown): string | null {
  const first: unknown = Array.isArray(reply) ? reply[0] : undefined
  if (!isRecord(first) || first.channel !== '/meta/handshake') return 'answered, but not as a push gateway: no handshake reply came back'
  if (first.successful !== true) return `the push gateway refused the handshake${typeof first.error === 'string' ? ` (${first.error})` : ''}`
  return null
}

/** A failure to get any answer at all, in words. */
function unreachable(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError')) return `no answer within ${seconds(timeoutMs)}`
  const code = errorCode(error)
  switch (code) {
    case 'ECONNREFUSED':
      return 'nothing answers at this address (connection refused): is the service running, and is the port right?'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'the host name could not be found'
    case 'ECONNRESET':
    case 'UND_ERR_SOCKET':
      return 'the connection was closed before any answer came'
    case 'ETIMEDOUT':
    case 'UND_ERR_CONNECT_TIMEOUT':
      return 'the connection timed out'
    default:
      if (code !== null && /CERT|TLS|SSL/.test(code)) return `the secure connection failed (${code}): the certificate is not trusted for this host`
      return `could not connect${code === null ? '' : ` (${code})`}`
  }
}

/** Node's error code, on the error itself (ws) or on its cause (fetch). */
function errorCode(error: unknown): string | null {
  for (let current: unknown = error, depth = 0; isRecord(current) && depth < 3; current = current.cause, depth += 1) {
    if (typeof current.code === 'string') return current.code
  }
  return null
}

function statusHint(status: number): string {
  if (status === 404) return ' (not found)'
  if (status >= 300 && status < 400) return ' (a redirect)'
  return ''
}

/** §2.4: `{"response": null, "meta": {"code": N, "errors": ["…"]}}`, with N the HTTP status. */
function isFailureBody(body: unknown, status: number): boolean {
  if (!isRecord(body) || body.response !== null || !isRecord(body.meta)) return false
  const { code, errors } = body.meta
  return code === status && Array.isArray(errors) && errors.length > 0 && errors.every((error) => typeof error === 'string')
}

function joinPath(address: string, path: string): string {
  return `${address.replace(/\/+$/, '')}${path}`
}

function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null
}
