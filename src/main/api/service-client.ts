// The one place that talks HTTP to the service: picks the host, carries the token, reads the v3
// envelope or a bare body (docs/protocol.md §2.4), and turns every failure into ApiError or
// ServiceUnreachableError. The per-area modules (sessions.ts, groups.ts, …) describe operations;
// this file knows nothing about any of them.
//
// The token goes only where it came from: a request that would carry it to addresses other than
// those of the deployment that issued it is never sent, and no answer's redirect is followed.
import type { z } from 'zod'
import { isIssuedBy, type IssuedToken } from '@shared/token-issuer'
import { ApiError, ServiceRedirectError, ServiceUnreachableError, TokenElsewhereError } from './api-error'
import { failureBody } from './decoders'
import type { ServiceConfig } from './service-config'

/** What a request needs of the settings: where each host is, the app id a token is bound to, and the attestation value. */
export type ClientConfig = Pick<ServiceConfig, 'baseUrl' | 'v2Url' | 'v4Url' | 'imageServiceUrl' | 'pushUrl' | 'pushWsUrl' | 'appId' | 'verifyToken'>

/** Which configured address a path is appended to (§1). `base` is `{base_url}`. */
export type ServiceHost = 'base' | 'v2' | 'v4' | 'image'

/** Bytes sent as they are (I1's picture), rather than as JSON. */
export interface RawBody {
  bytes: Uint8Array
  contentType: string
  /** Told how many bytes have been handed to the connection so far, as they go. */
  onProgress?: (sentBytes: number) => void
}

/** How much of a raw body is handed over at a time: small enough for progress to move smoothly. */
const RAW_CHUNK_BYTES = 64 * 1024

export type QueryValue = string | number | boolean | null | undefined

export interface CallSpec<T> {
  /** Names the operation in errors and logs, e.g. `'MS2 send message'`. */
  operation: string
  method: 'GET' | 'POST' | 'PUT' | 'DELETE'
  host: ServiceHost
  /** Appended to the host's address exactly as given; build it with `path` so ids are encoded. */
  path: string
  /** `null` and `undefined` values are left out. */
  query?: Record<string, QueryValue>
  /** Sent as JSON. */
  body?: unknown
  /** Sent as raw bytes instead of `body`. */
  rawBody?: RawBody
  /** Aborts the request (a cancelled upload); the call then fails as the service being out of reach. */
  signal?: AbortSignal
  /** Overrides the client's timeout, for a request that may rightly take long (an upload). */
  timeoutMs?: number
  /** Decodes the success payload (after the envelope, when there is one). */
  schema: z.ZodType<T>
  /** L1 and V1–V3 take no token (§2.2); everything else sends it. */
  authenticated?: boolean
  /** Sends `X-verify-token` (§2.3) for the few calls marked ATT. */
  attested?: boolean
  /**
   * The operation answers 401 to a caller whose role falls short (MB1, MB6; §16 "Roles"): such an
   * answer is an ApiError like any other refusal, and does not declare the token dead.
   */
  unauthorizedMeansRole?: boolean
  /** The value for an answer with no body (204, or MS1/C2's 304). Without it such an answer is a protocol error. */
  whenEmpty?: () => T
}

export interface ServiceClientOptions {
  /** The addresses; a function is asked again for every request, so the app can move to another deployment. */
  config: ClientConfig | (() => ClientConfig)
  /** The token to send, with the deployment that issued it; asked again for every request. */
  getToken: () => IssuedToken | null
  fetch?: typeof fetch
  /** Per request; the service answers everything but long polls quickly. */
  timeoutMs?: number
}

const DEFAULT_TIMEOUT_MS = 15_000

/**
 * Builds a path with each interpolated value percent-encoded as one segment, so a chat id's `+`
 * travels as `%2B` (§2.1) and no id can add path segments of its own.
 */
export function path(strings: TemplateStringsArray, ...values: (string | number)[]): string {
  return strings.reduce((out, part, index) => {
    const value = values[index - 1]
    return out + encodeURIComponent(String(value)) + part
  })
}

export class ServiceClient {
  readonly #config: () => ClientConfig
  readonly #getToken: () => IssuedToken | null
  readonly #fetch: typeof fetch
  readonly #timeoutMs: number
  readonly #unauthorizedListeners = new Set<(operation: string) => void>()
  readonly #tokenElsewhereListeners = new Set<(operation: string) => void>()

  constructor(options: ServiceClientOptions) {
    const { config } = options
    this.#config = typeof config === 'function' ? config : () => config
    this.#getToken = options.getToken
    this.#fetch = options.fetch ?? globalThis.fetch
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  }

  get config(): ClientConfig {
    return this.#config()
  }

  /**
   * Calls `listener` whenever a request that carried a token is answered 401: the token is dead,
   * and the session should return to sign-in. Returns a function that removes the listener.
   */
  onUnauthorized(listener: (operation: string) => void): () => void {
    this.#unauthorizedListeners.add(listener)
    return () => this.#unauthorizedListeners.delete(listener)
  }

  /**
   * Calls `listener` whenever a request was not sent because the addresses in force are not those
   * of the deployment that issued the token: the session belongs to a service the app has left.
   */
  onTokenElsewhere(listener: (operation: string) => void): () => void {
    this.#tokenElsewhereListeners.add(listener)
    return () => this.#tokenElsewhereListeners.delete(listener)
  }

  async call<T>(spec: CallSpec<T>): Promise<T> {
    const config = this.#config()
    const url = urlFor(config, spec)
    const headers: Record<string, string> = { Accept: 'application/json' }
    const issued = spec.authenticated === false ? null : this.#getToken()
    if (issued !== null && !isIssuedBy(issued.issuer, config)) {
      for (const listener of [...this.#tokenElsewhereListeners]) listener(spec.operation)
      throw new TokenElsewhereError(spec.operation)
    }
    const token = issued?.token ?? null
    if (token !== null) headers['X-Access-Token'] = token
    if (spec.attested === true) headers['X-verify-token'] = config.verifyToken
    let body: string | undefined
    if (spec.body !== undefined) {
      headers['Content-Type'] = 'application/json'
      body = JSON.stringify(spec.body)
    }
    if (spec.rawBody !== undefined) headers['Content-Type'] = spec.rawBody.contentType
    const timeout = AbortSignal.timeout(spec.timeoutMs ?? this.#timeoutMs)
    const signal = spec.signal === undefined ? timeout : AbortSignal.any([timeout, spec.signal])

    const send = async (): Promise<{ response: Response; text: string }> => {
      const response = await this.#fetch(url, {
        method: spec.method,
        headers,
        ...(body === undefined ? {} : { body }),
        ...(spec.rawBody === undefined ? {} : rawRequestBody(spec.rawBody)),
        // fetch would carry a custom header such as X-Access-Token along a redirect to any origin,
        // and from https: down to http:; the answer is read as it is instead.
        redirect: 'manual',
        signal
      })
      return { response, text: await response.text() }
    }
    let answer: { response: Response; text: string }
    try {
      answer = await send().catch((error: unknown) => {
        // A kept-alive connection the service has since closed (a restart, an idle timeout) fails
        // the first request sent on it. A read is safe to send again on a fresh connection; a
        // write is not, and is left to its caller (the outbox retries with the same source_guid).
        if (spec.method === 'GET' && isStaleConnection(error)) return send()
        throw error
      })
    } catch (error) {
      throw new ServiceUnreachableError(spec.operation, { cause: error })
    }
    const { response, text } = answer

    const status = response.status
    if (isRedirect(status)) throw new ServiceRedirectError(spec.operation, status, redirectTarget(response, url))
    // Only the token still in use can be declared dead: a late answer to a request made with an
    // earlier token (before a new sign-in) says nothing about the current session.
    if (status === 401 && spec.unauthorizedMeansRole !== true && token !== null && token === this.#getToken()?.token) {
      for (const listener of [...this.#unauthorizedListeners]) listener(spec.operation)
    }

    if (status === 204 || status === 304 || (text.trim() === '' && status >= 200 && status < 300)) {
      if (spec.whenEmpty !== undefined) return spec.whenEmpty()
      throw new ServiceUnreachableError(spec.operation, { cause: new Error(`unexpected empty ${status} answer`) })
    }

    const json = parseJson(text)
    if (status >= 400) throw this.#failure(spec.operation, status, json, text)
    if (json === undefined) {
      throw new ServiceUnreachableError(spec.operation, { cause: new Error(`answer ${status} is not JSON`) })
    }

    const payload = isEnveloped(spec) ? unwrapEnvelope(json) : json
    const decoded = spec.schema.safeParse(payload)
    if (!decoded.success) {
      throw new ServiceUnreachableError(spec.operation, { cause: decoded.error })
    }
    return decoded.data
  }

  #failure(operation: string, status: number, json: unknown, text: string): Error {
    // A gateway in front of the service may answer a 5xx with an HTML page: that is the
    // network failing, not the service refusing.
    if (json === undefined && status >= 500) {
      return new ServiceUnreachableError(operation, { cause: new Error(`answer ${status} is not JSON`) })
    }
    const parsed = failureBody.safeParse(json)
    const errors = parsed.success ? (parsed.data.meta?.errors ?? []) : []
    return new ApiError(operation, status, errors, json === undefined ? text : json)
  }
}

function urlFor(config: ClientConfig, spec: CallSpec<unknown>): string {
  const hosts: Record<ServiceHost, string> = {
    base: config.baseUrl,
    v2: config.v2Url,
    v4: config.v4Url,
    image: config.imageServiceUrl
  }
  const base = hosts[spec.host].replace(/\/+$/, '')
  const query = new URLSearchParams()
  for (const [key, value] of Object.entries(spec.query ?? {})) {
    if (value !== null && value !== undefined) query.append(key, String(value))
  }
  const search = query.toString()
  return `${base}${spec.path}${search === '' ? '' : `?${search}`}`
}

/** 304 is MS1 and C2's "nothing new" (§10), not a redirect. */
function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304
}

/** Where a redirect pointed, without its query (which may hold anything), for the words shown to the person. */
function redirectTarget(response: Response, requestUrl: string): string | null {
  const location = response.headers.get('location')
  if (location === null) return null
  try {
    const target = new URL(location, requestUrl)
    return `${target.origin}${target.pathname}`
  } catch {
    return location.slice(0, 200)
  }
}

/**
 * A raw body as a stream the connection pulls from, so the bytes it has taken can be counted.
 * fetch needs `duplex: 'half'` for a stream body (https://github.com/nodejs/node/issues/46221).
 */
function rawRequestBody({ bytes, onProgress }: RawBody): { body: ReadableStream<Uint8Array>; duplex: 'half' } {
  let sent = 0
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= bytes.length) {
        controller.close()
        return
      }
      const chunk = bytes.subarray(sent, Math.min(sent + RAW_CHUNK_BYTES, bytes.length))
      controller.enqueue(chunk)
      sent += chunk.length
      onProgress?.(sent)
    }
  })
  return { body, duplex: 'half' }
}

/** The connection was closed under the request before any answer came back. */
function isStaleConnection(error: unknown): boolean {
  const cause = error instanceof Error ? error.cause : undefined
  const code = typeof cause === 'object' && cause !== null && 'code' in cause ? cause.code : undefined
  return code === 'UND_ERR_SOCKET' || code === 'ECONNRESET' || code === 'EPIPE'
}

/**
 * §2.4: every `{base_url}` answer is enveloped except `/verifications/*`, which is a bare path
 * under `{base_url}`; v2 (like v4 and the image service) is always bare.
 */
function isEnveloped(spec: CallSpec<unknown>): boolean {
  return spec.host === 'base' && !spec.path.startsWith('/verifications/')
}

function unwrapEnvelope(json: unknown): unknown {
  if (typeof json === 'object' && json !== null && 'response' in json) return json.response
  // Not an envelope at all: hand it on and let the schema decide whether it is usable.
  return json
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown
  } catch {
    return undefined
  }
}
