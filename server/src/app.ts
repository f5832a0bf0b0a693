import Fastify, { type FastifyInstance } from 'fastify'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Duplex } from 'node:stream'
import { Clock } from './clock.js'
import type { Config } from './config.js'
import { Core } from './core.js'
import { MetaStore, openDatabase } from './db/connection.js'
import { PushAccess } from './domain/push-access.js'
import { registerBodyParsers } from './http/body.js'
import { registerCors } from './http/cors.js'
import { registerDevGuard } from './http/dev-guard.js'
import { frameworkErrors, registerFailureHandlers } from './http/failures.js'
import { createRoutes } from './http/router.js'
import { PushGateway } from './push/gateway.js'
import { PushPublisher } from './push/publisher.js'
import { registerRoutes } from './routes/index.js'

/**
 * Wires one service instance: database → clock → core → push gateway → fastify. One plain
 * http.Server carries both: `POST /faye` and WebSocket upgrades on `/faye` go to the gateway,
 * every other request (including `OPTIONS /faye`) to fastify.
 */

const JSON_BODY_LIMIT = 4 * 1024 * 1024
/** Long ids reach the handlers (→ 404 or 401 in §2.5 order) instead of fastify's default 100-character cut. */
const MAX_PARAM_LENGTH = 8 * 1024
const CLOCK_OFFSET_KEY = 'clock_offset_ms'

export interface Service {
  app: FastifyInstance
  core: Core
  gateway: PushGateway
  close(): Promise<void>
}

export async function buildService(config: Config): Promise<Service> {
  const db = openDatabase(config.dbPath)
  const meta = new MetaStore(db)
  const clock = new Clock(Number(meta.get(CLOCK_OFFSET_KEY) ?? 0), (offset) => meta.set(CLOCK_OFFSET_KEY, String(offset)))

  // The publisher and the gateway need each other only at delivery time, long after wiring.
  const publisher = new PushPublisher((channel, data) => gateway.deliverToChannel(channel, data), clock)
  const core = new Core({ db, clock, config, push: publisher })
  const gateway = new PushGateway({
    clock,
    authority: core.use(PushAccess),
    idlePingMs: config.push.idlePingMs,
    serverPingMs: config.push.serverPingMs
  })

  const app = Fastify({
    logger: false,
    bodyLimit: JSON_BODY_LIMIT,
    forceCloseConnections: true,
    // HEAD is no operation of the contract: it is an unknown method like any other (404).
    exposeHeadRoutes: false,
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    frameworkErrors,
    serverFactory: (handler) => {
      const server = createServer((request: IncomingMessage, response: ServerResponse) => {
        if (PushGateway.handles(request)) gateway.handleRequest(request, response)
        else handler(request, response)
      })
      server.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
        if (PushGateway.upgrades(request)) gateway.handleUpgrade(request, socket, head)
        else socket.end('HTTP/1.1 404 Not Found\r\nConnection: close\r\nContent-Length: 0\r\n\r\n')
      })
      return server
    }
  })
  registerBodyParsers(app)
  registerFailureHandlers(app)
  registerCors(app)
  if (config.dev) registerDevGuard(app, config.host)
  registerRoutes(createRoutes(app, core), core)
  await app.ready()

  let closed = false
  return {
    app,
    core,
    gateway,
    async close() {
      if (closed) return
      closed = true
      gateway.close()
      await app.close()
      // A client may open a keep-alive connection while fastify is closing; left open, its next
      // request would meet a closed service instead of the refused connection it can recover from.
      app.server.closeAllConnections()
      db.close()
    }
  }
}
