import type { FastifyInstance, FastifyRequest } from 'fastify'
import { forbidden } from './errors.js'

/**
 * §18.29: the dev endpoints create accounts, read every SMS and move the clock, so they are for
 * the local machine's own tools (tests, scripts), never for web pages. A browser announces a page
 * with `Origin` on every cross-origin request (and on any POST), so such a request is refused
 * before anything else; the `Host` check stops a page that rebinds its own name to 127.0.0.1 (DNS
 * rebinding), whose requests would otherwise look same-origin. And `/dev/*` answers carry no CORS
 * headers (see cors.ts), so no browser lets a page read them.
 */

const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '::1']

/** `[v6]:port`, `name:port`, or either without the port. */
const HOST_HEADER = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::[0-9]*)?$/

/** Whether a request path (query allowed, percent-encoding read as the router reads it) is under `/dev`. */
export function isDevPath(url: string): boolean {
  const path = url.split('?', 1)[0] ?? ''
  let decoded = path
  try {
    decoded = decodeURIComponent(path)
  } catch {
    // An undecodable path routes nowhere; judged as written.
  }
  return decoded === '/dev' || decoded.startsWith('/dev/')
}

/** The host name a `Host` header names, lowercased and without brackets or port; null if it is not one. */
function hostNameOf(header: string | undefined): string | null {
  const match = HOST_HEADER.exec((header ?? '').trim().toLowerCase())
  return match === null ? null : (match[1] ?? match[2] ?? null)
}

/** Registered with `--dev` only; `boundHost` is the `--host` value, also acceptable as a `Host`. */
export function registerDevGuard(app: FastifyInstance, boundHost: string): void {
  const allowed = new Set([...LOOPBACK_NAMES, boundHost.toLowerCase().replace(/^\[(.*)\]$/, '$1')])
  app.addHook('onRequest', async (request: FastifyRequest) => {
    if (!isDevPath(request.url) && !(request.routeOptions.url ?? '').startsWith('/dev/')) return
    if (request.headers.origin !== undefined) throw forbidden('The dev endpoints are not for web pages')
    const host = hostNameOf(request.headers.host)
    if (host === null || !allowed.has(host)) throw forbidden('The dev endpoints answer only on a loopback address or the --host value')
  })
}
