import { Agent, request, type IncomingHttpHeaders } from 'node:http'

/**
 * Raw HTTP for the fuzz tests. `fetch` would refuse a GET with a body, normalize `..` out of
 * paths and re-encode what it dislikes; node:http sends exactly the method, path, headers and
 * bytes it is given, which is what hostile input needs.
 */

export interface RawRequest {
  method: string
  /** Already percent-encoded, query included. */
  path: string
  headers: Record<string, string>
  body?: Buffer
  /** What to print when this request exposes a bug (the body may be a megabyte). */
  label: string
}

export interface RawResponse {
  /** The path the request was sent to, query included. */
  path: string
  status: number
  headers: IncomingHttpHeaders
  text: string
  /** The parsed body; `undefined` when the body is empty or not JSON. */
  json: unknown
}

const agent = new Agent({ keepAlive: true, maxSockets: 8 })

export function send(origin: string, req: RawRequest, timeoutMs = 15_000): Promise<RawResponse> {
  const url = new URL(origin)
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        host: url.hostname,
        port: url.port,
        method: req.method,
        path: req.path,
        agent,
        headers: { ...req.headers, ...(req.body === undefined ? {} : { 'content-length': String(req.body.length) }) }
      },
      (response) => {
        const chunks: Buffer[] = []
        response.on('data', (chunk: Buffer) => chunks.push(chunk))
        response.on('error', reject)
        response.on('end', () => {
          clearTimeout(timer)
          const text = Buffer.concat(chunks).toString('utf8')
          let json: unknown
          try {
            json = text === '' ? undefined : JSON.parse(text)
          } catch {
            json = undefined
          }
          resolve({ path: req.path, status: response.statusCode ?? 0, headers: response.headers, text, json })
        })
      }
    )
    const timer = setTimeout(() => {
      outgoing.destroy(new Error(`no answer within ${timeoutMs} ms`))
    }, timeoutMs)
    outgoing.on('error', (error) => {
      clearTimeout(timer)
      reject(error)
    })
    outgoing.end(req.body)
  })
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

const sameKeys = (value: Record<string, unknown>, keys: string[]): boolean =>
  Object.keys(value).length === keys.length && keys.every((key) => Object.hasOwn(value, key))

/** Why `body` is not exactly `{"response": null, "meta": {"code": status, "errors": [strings…]}}` (§2.4), or null. */
export function failureBodyProblem(status: number, body: unknown): string | null {
  if (!isRecord(body) || !sameKeys(body, ['response', 'meta'])) return 'not {response, meta}'
  if (body['response'] !== null) return 'response is not null'
  const meta = body['meta']
  if (!isRecord(meta) || !sameKeys(meta, ['code', 'errors'])) return 'meta is not {code, errors}'
  if (meta['code'] !== status) return `meta.code ${String(meta['code'])} ≠ status ${status}`
  const errors = meta['errors']
  if (!Array.isArray(errors) || errors.length === 0) return 'errors is not a non-empty array'
  if (!errors.every((error) => typeof error === 'string' && error.length > 0)) return 'errors holds a non-string or empty string'
  return null
}

export interface Expectations {
  /** The v3 envelope on successes. */
  enveloped: boolean
  /** V3 may answer 400 `{"remaining_attempts": n}` (§2.4). */
  remainingAttempts?: boolean
  /** Only these statuses are acceptable (e.g. exactly 401); default: anything below 500. */
  status?: readonly number[]
}

/** What is wrong with a response's CORS headers: `*` everywhere (§2.7), none at all under `/dev` (§18.29). */
export function corsProblem(response: RawResponse): string | null {
  if (/^\/dev(\/|\?|$)/.test(response.path)) {
    const cors = Object.keys(response.headers).filter((name) => name.startsWith('access-control-allow-'))
    return cors.length === 0 ? null : `CORS headers under /dev: ${cors.join(', ')}`
  }
  return response.headers['access-control-allow-origin'] === '*' ? null : 'no Access-Control-Allow-Origin: *'
}

/** Everything wrong with a response under §2.4 and §2.7, as readable lines. */
export function responseProblems(response: RawResponse, expect: Expectations): string[] {
  const problems: string[] = []
  const { status } = response
  if (status >= 500) problems.push(`status ${status}`)
  if (expect.status !== undefined && !expect.status.includes(status)) problems.push(`status ${status}, expected ${expect.status.join(' or ')}`)
  const cors = corsProblem(response)
  if (cors !== null) problems.push(cors)

  if (status === 204 || status === 304) {
    if (response.text !== '') problems.push(`${status} with a body`)
    return problems
  }
  const contentType = String(response.headers['content-type'] ?? '')
  if (status >= 200 && status < 300) {
    // I2 answers stored bytes with their own type; everything else is JSON.
    if (!contentType.startsWith('application/json')) return problems
    if (response.json === undefined) problems.push('2xx body is not JSON')
    else if (expect.enveloped) {
      const body = response.json
      if (!isRecord(body) || !isRecord(body['meta']) || body['meta']['code'] !== status || body['meta']['errors'] !== null) {
        problems.push('2xx without the v3 envelope')
      } else if (body['response'] === null || body['response'] === undefined) problems.push('envelope with a null response')
    }
    return problems
  }
  if (!contentType.startsWith('application/json')) problems.push(`failure with content-type "${contentType}"`)
  const body = response.json
  if (
    expect.remainingAttempts === true &&
    status === 400 &&
    isRecord(body) &&
    sameKeys(body, ['remaining_attempts']) &&
    Number.isInteger(body['remaining_attempts'])
  ) {
    return problems
  }
  const problem = failureBodyProblem(status, body)
  if (problem !== null) problems.push(`failure body: ${problem}: ${response.text.slice(0, 300)}`)
  return problems
}
