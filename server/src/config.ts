/**
 * Resolved settings of one service instance: command-line options and environment (§1, §17).
 * Everything else reads these values, never `process.env` directly, so tests can start several
 * services with different settings in one process.
 */
export interface ServiceOptions {
  host?: string
  /** 0 = any free port (default 8080). */
  port?: number
  /** A file path, or ':memory:' (default). */
  db?: string
  dev?: boolean
  seed?: 'demo'
  /** Environment overrides; unset keys fall back to `process.env`. */
  env?: Partial<Record<EnvName, string>>
  /** Test knobs for the push gateway; the defaults are the contract's values. */
  push?: { idlePingMs?: number; serverPingMs?: number }
  /** Also hands every SMS the service "sends" to this function (the CLI prints them in --dev). */
  onSms?: (to: string, text: string) => void
}

export type EnvName =
  | 'SERVICE_PUBLIC_ORIGIN'
  | 'SERVICE_ATTESTATION_SECRET'
  | 'SERVICE_SYSTEM_NUMBER'
  | 'SERVICE_ADD_RESULTS_DELAY_MS'

export interface Config {
  host: string
  port: number
  dbPath: string
  dev: boolean
  seed: 'demo' | null
  /** Unset until the port is bound when the default is used (§18.21). */
  publicOrigin: string | null
  attestationSecret: string
  systemNumber: string
  addResultsDelayMs: number
  push: { idlePingMs: number; serverPingMs: number }
  onSms: ((to: string, text: string) => void) | null
}

export const DEV_ATTESTATION_SECRET = 'local-dev-attestation'
export const DEFAULT_SYSTEM_NUMBER = '+1 5555550199'

export class ConfigError extends Error {}

export function resolveConfig(options: ServiceOptions): Config {
  const env = (name: EnvName): string | undefined => options.env?.[name] ?? process.env[name]
  const dev = options.dev ?? false
  const secret = env('SERVICE_ATTESTATION_SECRET') ?? ''
  if (secret === '' && !dev) {
    throw new ConfigError('SERVICE_ATTESTATION_SECRET must be set when --dev is not given')
  }
  const delay = env('SERVICE_ADD_RESULTS_DELAY_MS')
  const addResultsDelayMs = delay === undefined || delay === '' ? 0 : Number(delay)
  if (!Number.isInteger(addResultsDelayMs) || addResultsDelayMs < 0) {
    throw new ConfigError('SERVICE_ADD_RESULTS_DELAY_MS must be a whole number of milliseconds')
  }
  const port = options.port ?? 8080
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ConfigError(`invalid port ${port}`)
  const origin = env('SERVICE_PUBLIC_ORIGIN')
  return {
    host: options.host ?? '127.0.0.1',
    port,
    dbPath: options.db ?? ':memory:',
    dev,
    seed: options.seed ?? null,
    publicOrigin: origin === undefined || origin === '' ? null : origin.replace(/\/+$/, ''),
    attestationSecret: secret === '' ? DEV_ATTESTATION_SECRET : secret,
    systemNumber: env('SERVICE_SYSTEM_NUMBER') || DEFAULT_SYSTEM_NUMBER,
    addResultsDelayMs,
    onSms: options.onSms ?? null,
    push: {
      idlePingMs: options.push?.idlePingMs ?? 30_000,
      serverPingMs: options.push?.serverPingMs ?? 30_000
    }
  }
}
