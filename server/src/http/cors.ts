import type { FastifyInstance } from 'fastify'
import { isDevPath } from './dev-guard.js'

/**
 * §2.7 and §18.1: every response allows any origin; OPTIONS on any path, known or not, → 204.
 * Except on `/dev/*` (§18.29): no CORS header at all there, so no web page may read a dev answer.
 */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': 'Content-Type, X-Access-Token, X-verify-token'
} as const

export function registerCors(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!isDevPath(request.url)) reply.header('access-control-allow-origin', '*')
    return payload
  })
  for (const url of ['/', '/*']) {
    app.route({
      method: 'OPTIONS',
      url,
      handler: async (request, reply) => (isDevPath(request.url) ? reply.code(204).send() : reply.code(204).headers(CORS_HEADERS).send())
    })
  }
}
