// Where the service lives and how this app introduces itself to it. Each of the six addresses is a
// setting of its own (docs/protocol.md §1): a deployment may put them on different hosts, so none is
// ever derived from another. Each must pass the transport rule (shared/service-address.ts), since
// the access token travels to all of them.
import { z } from 'zod'
import { pictureOriginsProblem } from '@shared/picture-origins'
import { addressProblem, serviceAddressProblem, type ServiceAddressSetting } from '@shared/service-address'

function serviceAddress(setting: ServiceAddressSetting) {
  return z.string().superRefine((value, context) => {
    const problem = serviceAddressProblem(setting, value)
    if (problem !== null) context.addIssue({ code: 'custom', message: problem })
  })
}

export const serviceConfigSchema = z.object({
  baseUrl: serviceAddress('baseUrl'),
  v2Url: serviceAddress('v2Url'),
  v4Url: serviceAddress('v4Url'),
  imageServiceUrl: serviceAddress('imageServiceUrl'),
  /** Where else pictures may load from (shared/picture-origins.ts); no token goes there. */
  pictureOrigins: z.string().superRefine((value, context) => {
    const problem = pictureOriginsProblem(value)
    if (problem !== null) context.addIssue({ code: 'custom', message: problem })
  }),
  pushUrl: serviceAddress('pushUrl'),
  pushWsUrl: serviceAddress('pushWsUrl'),
  appId: z.string().min(1),
  /** Sent as `X-verify-token` on the few calls that need device attestation (§2.3). */
  verifyToken: z.string()
})

export type ServiceConfig = z.infer<typeof serviceConfigSchema>

/** The local service's addresses for an origin such as `http://127.0.0.1:8080`. */
export function localServiceConfig(origin: string): ServiceConfig {
  const url = new URL(origin)
  const wsScheme = url.protocol === 'https:' ? 'wss:' : 'ws:'
  return {
    baseUrl: `${url.origin}/v3`,
    v2Url: `${url.origin}/v2`,
    v4Url: `${url.origin}/v4`,
    imageServiceUrl: `${url.origin}/image`,
    pictureOrigins: '',
    pushUrl: `${url.origin}/faye`,
    pushWsUrl: `${wsScheme}//${url.host}/faye`,
    appId: 'parley-desktop',
    verifyToken: 'local-dev-attestation'
  }
}

export const DEFAULT_SERVICE_CONFIG = localServiceConfig('http://127.0.0.1:8080')

/** Environment variables that override single settings, so a deployment can be chosen per launch. */
const ENVIRONMENT_KEYS = {
  baseUrl: 'PARLEY_BASE_URL',
  v2Url: 'PARLEY_V2_URL',
  v4Url: 'PARLEY_V4_URL',
  imageServiceUrl: 'PARLEY_IMAGE_SERVICE_URL',
  pictureOrigins: 'PARLEY_PICTURE_ORIGINS',
  pushUrl: 'PARLEY_PUSH_URL',
  pushWsUrl: 'PARLEY_PUSH_WS_URL',
  appId: 'PARLEY_APP_ID',
  verifyToken: 'PARLEY_VERIFY_TOKEN'
} as const satisfies Record<keyof ServiceConfig, string>

/**
 * Which service this launch talks to: the saved settings over the defaults, then the environment
 * over both. `PARLEY_SERVICE_ORIGIN` (how `npm start` points the app at the local service) stands
 * for all six addresses of one origin; each single-address variable still overrides its own.
 * Throws a readable error naming the offending setting, where its value came from and what is
 * wrong with it when the result is not usable.
 */
export function resolveServiceConfig(saved: unknown, environment: Record<string, string | undefined>): ServiceConfig {
  let merged: Record<string, unknown> = { ...DEFAULT_SERVICE_CONFIG }
  /** Where each setting's value came from, for the error; a default needs no mention. */
  const sources = new Map<string, string>()
  const take = (values: Record<string, unknown>, source: string): void => {
    merged = { ...merged, ...values }
    for (const key of Object.keys(values)) sources.set(key, source)
  }

  take(asRecord(saved), 'the settings file')
  const origin = environment.PARLEY_SERVICE_ORIGIN
  if (origin !== undefined && origin !== '') {
    // Judged as given: the six addresses derived from it would each fail the same way, under
    // names the person never typed.
    const problem = addressProblem(origin, 'http')
    if (problem !== null) throw new Error(`Invalid service setting "PARLEY_SERVICE_ORIGIN": ${problem}`)
    // Not the picture origins, which are no address of the service: they stay as saved.
    const { pictureOrigins: _notAnAddress, ...local } = localServiceConfig(origin)
    take(local, 'PARLEY_SERVICE_ORIGIN')
  }
  for (const [key, variable] of Object.entries(ENVIRONMENT_KEYS)) {
    const value = environment[variable]
    if (value !== undefined && value !== '') take({ [key]: value }, variable)
  }

  const parsed = serviceConfigSchema.safeParse(merged)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const key = issue?.path.join('.') ?? '?'
    const source = sources.has(key) ? ` (from ${sources.get(key)})` : ''
    throw new Error(`Invalid service setting "${key}"${source}: ${issue?.message ?? 'unknown problem'}`)
  }
  return parsed.data
}

/**
 * Which settings the environment decides for this launch, each with the variable that does, as
 * `resolveServiceConfig` applies them: a saved value for one of these has no effect until the
 * variable is gone.
 */
export function environmentOverrides(environment: Record<string, string | undefined>): Partial<Record<keyof ServiceConfig, string>> {
  const overrides: Partial<Record<keyof ServiceConfig, string>> = {}
  const origin = environment.PARLEY_SERVICE_ORIGIN
  if (origin !== undefined && origin !== '') {
    for (const key of ADDRESS_KEYS) overrides[key] = 'PARLEY_SERVICE_ORIGIN'
  }
  for (const [key, variable] of Object.entries(ENVIRONMENT_KEYS) as [keyof ServiceConfig, string][]) {
    const value = environment[variable]
    if (value !== undefined && value !== '') overrides[key] = variable
  }
  return overrides
}

const ADDRESS_KEYS = ['baseUrl', 'v2Url', 'v4Url', 'imageServiceUrl', 'pushUrl', 'pushWsUrl'] as const satisfies readonly (keyof ServiceConfig)[]

/** Saved settings come from a file the user may have edited: anything but an object counts as none. */
function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}
