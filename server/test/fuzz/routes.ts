import { buildService } from '../../src/app.js'
import { resolveConfig } from '../../src/config.js'
import { declaredRoutes, type DeclaredRoute } from '../../src/http/router.js'

export type { DeclaredRoute } from '../../src/http/router.js'

/**
 * The operations the service declares, read from the service itself (`--dev`, so `/dev/*` too):
 * routes added by any area are fuzzed without anyone listing them here.
 */
export async function loadRouteTable(): Promise<DeclaredRoute[]> {
  const service = await buildService(resolveConfig({ dev: true, port: 0 }))
  try {
    return [...declaredRoutes(service.app)]
  } finally {
    await service.close()
  }
}

export const routeKey = (route: Pick<DeclaredRoute, 'method' | 'url'>): string => `${route.method} ${route.url}`

/** The `:name` parameters of a URL pattern, in order. */
export const paramsOf = (url: string): string[] => [...url.matchAll(/:([A-Za-z_][A-Za-z0-9_]*)/g)].map((match) => match[1] ?? '')

/**
 * The order to fuzz in: routes that wipe or skew shared state (the dev clock, `/dev/reset`) last,
 * so that they cost at most one rebuild of the fixture.
 */
export function fuzzOrder(routes: readonly DeclaredRoute[]): DeclaredRoute[] {
  const rank = (route: DeclaredRoute): number => (route.url === '/dev/reset' ? 3 : route.url === '/dev/clock' ? 2 : route.host === 'dev' ? 1 : 0)
  return [...routes].sort((a, b) => rank(a) - rank(b))
}
