import type { AddressInfo } from 'node:net'
import { buildService } from './app.js'
import { resolveConfig, type ServiceOptions } from './config.js'
import { seedDemo, type DemoAccount } from './seed/demo.js'

export type { ServiceOptions } from './config.js'
export { DEMO_ACCOUNTS, type DemoAccount } from './seed/demo.js'

/** The six addresses of §1, as the client reads them. */
export interface ServiceUrls {
  baseUrl: string
  v2Url: string
  v4Url: string
  imageServiceUrl: string
  pushUrl: string
  pushWsUrl: string
}

export interface RunningService {
  /**
   * ORIGIN of §1: `SERVICE_PUBLIC_ORIGIN`, else `http://host:port` with the port actually bound
   * (§18.21). Every URL the service generates starts with it.
   */
  origin: string
  /** `http://host:port` where this process listens; equals `origin` unless a public origin is set. */
  boundOrigin: string
  urls: ServiceUrls
  /** The value `X-verify-token` must carry (§2.3). */
  attestationSecret: string
  /** The seeded accounts with `seed: 'demo'`, else empty. */
  demoAccounts: DemoAccount[]
  /** Stops listening and releases the port, every socket (push clients included) and the database. */
  close(): Promise<void>
}

export function urlsFor(origin: string): ServiceUrls {
  const ws = origin.replace(/^http/, 'ws')
  return {
    baseUrl: `${origin}/v3`,
    v2Url: `${origin}/v2`,
    v4Url: `${origin}/v4`,
    imageServiceUrl: `${origin}/image`,
    pushUrl: `${origin}/faye`,
    pushWsUrl: `${ws}/faye`
  }
}

/**
 * Starts the local reference service. For tests: `startService({ port: 0, dev: true })` (an
 * in-memory database), or `db: <file>` to stop and restart on the same state.
 */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const config = resolveConfig(options)
  const service = await buildService(config)
  try {
    await service.app.listen({ host: config.host, port: config.port })
  } catch (error) {
    await service.close()
    throw error
  }
  const address = service.app.server.address() as AddressInfo
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address
  const boundOrigin = `http://${host}:${address.port}`
  service.core.setBoundOrigin(boundOrigin)
  const origin = service.core.origin
  const demoAccounts = config.seed === 'demo' ? await seedDemo(service.core) : []
  return {
    origin,
    boundOrigin,
    urls: urlsFor(origin),
    attestationSecret: config.attestationSecret,
    demoAccounts,
    close: () => service.close()
  }
}
