// Which service this launch talks to. `PARLEY_SERVICE_ORIGIN` (set by `npm start` for the local
// service) stands for all six addresses of one origin; the single-address variables
// (`PARLEY_BASE_URL`…) still override it, and both override what the user saved.
// Used by both hosts, so no Electron import here.
import { localServiceConfig, resolveServiceConfig, type ServiceConfig } from '../api/service-config'

export function chooseServiceConfig(saved: unknown, environment: Record<string, string | undefined>): ServiceConfig {
  const origin = environment.PARLEY_SERVICE_ORIGIN
  if (origin !== undefined && origin !== '') {
    if (!URL.canParse(origin)) throw new Error(`Invalid service setting "PARLEY_SERVICE_ORIGIN": not a URL (${origin})`)
    return resolveServiceConfig(localServiceConfig(origin), environment)
  }
  const savedObject = typeof saved === 'object' && saved !== null && !Array.isArray(saved) ? saved : {}
  return resolveServiceConfig(savedObject, environment)
}
