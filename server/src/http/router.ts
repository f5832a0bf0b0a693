import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { IncomingHttpHeaders } from 'node:http'
import type { Core } from '../core.js'
import { AccessTokens, type Caller } from '../domain/access-tokens.js'
import { constantTimeEqual } from '../domain/secrets.js'
import { ATTESTATION_ERROR, HttpError, unauthorized } from './errors.js'
import { envelope, JSON_CONTENT_TYPE, type Reply } from './replies.js'
import type { RawQuery } from './validation.js'

/**
 * How every operation is declared. A route names its host (`v2`, `v3`, `v4`, `image`, `dev`), its
 * path under that host, and whether it needs a token (the default) or attestation. The router
 * applies the §2.5 order around the handler: routing (404) → token (401) → attestation (403) →
 * handler (syntax 400, existence 404, role, state), and shapes the reply: enveloped on v3 unless
 * `bare`, bare everywhere else.
 */

export type Host = 'v2' | 'v3' | 'v4' | 'image' | 'dev'

const PREFIX: Record<Host, string> = { v2: '/v2', v3: '/v3', v4: '/v4', image: '/image', dev: '/dev' }

export interface RequestContext {
  params: Record<string, string>
  query: RawQuery
  /** The parsed body as received; validate it with `parseBody` / `parseArrayBody`. */
  body: unknown
  headers: IncomingHttpHeaders
  request: FastifyRequest
}

export interface AuthedContext extends RequestContext {
  caller: Caller
}

type Result = Reply | Promise<Reply>

export interface RouteOptions {
  /** Needs `X-verify-token` (ATT, §2.3). */
  attestation?: boolean
  /** v3 only: answer without the envelope (the verification endpoints). */
  bare?: boolean
  /** Bytes; the default suits JSON bodies. */
  bodyLimit?: number
}

export interface DefineRoute {
  (path: string, handler: (ctx: AuthedContext) => Result): void
  (path: string, options: RouteOptions & { auth?: 'token' }, handler: (ctx: AuthedContext) => Result): void
  (path: string, options: RouteOptions & { auth: 'none' }, handler: (ctx: RequestContext) => Result): void
}

export interface HostRoutes {
  get: DefineRoute
  post: DefineRoute
  put: DefineRoute
  delete: DefineRoute
}

export type Routes = Record<Host, HostRoutes>

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

/** One declared operation as the router registered it, for tests that walk every route. */
export interface DeclaredRoute {
  method: Method
  host: Host
  /** The path under the host, with fastify's `:param` segments (`/groups/:group_id`). */
  path: string
  /** The full URL pattern (`/v3/groups/:group_id`). */
  url: string
  auth: 'token' | 'none'
  attestation: boolean
  /** Whether a success is wrapped in the v3 envelope. */
  enveloped: boolean
}

const declared = new WeakMap<FastifyInstance, DeclaredRoute[]>()

/** Every operation declared through `createRoutes` on this app, in declaration order. */
export function declaredRoutes(app: FastifyInstance): readonly DeclaredRoute[] {
  return [...(declared.get(app) ?? [])]
}

/** The token of a request: the `X-Access-Token` header wins over the `token` query parameter. */
export function requestToken(request: FastifyRequest): string | null {
  const header = request.headers['x-access-token']
  if (header !== undefined) return typeof header === 'string' ? header : null
  const query = (request.query as RawQuery)['token']
  return typeof query === 'string' ? query : null
}

export function createRoutes(app: FastifyInstance, core: Core): Routes {
  const tokens = core.use(AccessTokens)
  const listing: DeclaredRoute[] = []
  declared.set(app, listing)

  function define(host: Host, method: Method): DefineRoute {
    return ((path: string, ...rest: unknown[]) => {
      const [options, handler] = (rest.length === 1 ? [{}, rest[0]] : rest) as [
        RouteOptions & { auth?: 'token' | 'none' },
        (ctx: AuthedContext | RequestContext) => Result
      ]
      const needsToken = options.auth !== 'none'
      const enveloped = host === 'v3' && options.bare !== true
      listing.push({
        method,
        host,
        path,
        url: `${PREFIX[host]}${path}`,
        auth: needsToken ? 'token' : 'none',
        attestation: options.attestation === true,
        enveloped
      })

      // Token and attestation are checked before the body is read (preParsing), so that a bad
      // token on an oversized, mistyped or malformed body is still 401 (§2.5 steps 2–3 before 4).
      const callers = new WeakMap<FastifyRequest, Caller>()
      app.route({
        method,
        url: `${PREFIX[host]}${path}`,
        ...(options.bodyLimit === undefined ? {} : { bodyLimit: options.bodyLimit }),
        preParsing: async (request: FastifyRequest) => {
          if (needsToken) {
            const token = requestToken(request)
            const caller = token === null ? null : tokens.authenticate(token)
            if (caller === null) throw unauthorized('A valid access token is required')
            callers.set(request, caller)
          }
          const attestation = request.headers['x-verify-token']
          // A secret: compared in constant time, so timing tells nothing of how much of it matched.
          if (options.attestation === true && !(typeof attestation === 'string' && constantTimeEqual(attestation, core.config.attestationSecret))) {
            throw new HttpError(403, ATTESTATION_ERROR)
          }
        },
        handler: async (request: FastifyRequest, reply: FastifyReply) => {
          const base: RequestContext = {
            params: request.params as Record<string, string>,
            query: request.query as RawQuery,
            body: request.body,
            headers: request.headers,
            request
          }
          let ctx: RequestContext | AuthedContext = base
          if (needsToken) {
            const caller = callers.get(request)
            if (caller === undefined) throw unauthorized('A valid access token is required')
            ctx = { ...base, caller }
          }
          const result = await handler(ctx)
          reply.code(result.status)
          // Stored bytes go out as the type they were stored with, which the browser must not second-guess (§18.31).
          if (result.raw !== undefined) return reply.type(result.raw.contentType).header('x-content-type-options', 'nosniff').send(result.raw.bytes)
          if (result.payload === undefined) return reply.send()
          const body = enveloped ? envelope(result.status, result.payload) : result.payload
          return reply.type(JSON_CONTENT_TYPE).send(JSON.stringify(body))
        }
      })
    }) as DefineRoute
  }

  const hostRoutes = (host: Host): HostRoutes => ({
    get: define(host, 'GET'),
    post: define(host, 'POST'),
    put: define(host, 'PUT'),
    delete: define(host, 'DELETE')
  })

  return { v2: hostRoutes('v2'), v3: hostRoutes('v3'), v4: hostRoutes('v4'), image: hostRoutes('image'), dev: hostRoutes('dev') }
}
