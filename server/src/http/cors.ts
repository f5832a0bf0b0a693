import type { FastifyInstance } from 'fastify'

/** §2.7 and §18.1: every response allows any origin; OPTIONS on any path, known or not, → 204. */
export const CORS_HEADERS = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, DELETE, OPTIONS',
  'access-control-allow-headers': 'Content-Type, X-Access-Token, X-verify-token'
} as const

export function registerCors(app: FastifyInstance): void {
  app.addHook('onSend', async (_request, reply, payload) => {
    reply.header('access-control-allow-origin', '*')
    return payload
  })
  for (const url of ['/', '/*']) {
    app.route({
      method: 'OPTIONS',
      url,
      handler: async (_request, reply) => reply.code(204).headers(CORS_HEADERS).send()
    })
  }
}
