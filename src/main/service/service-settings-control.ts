// Settings ▸ Service on main's side: which settings are in force and where each comes from, Test
// connection, and Save, which keeps the settings and puts them in force: the REST client reads them
// for every request, and push when it starts again (core restarts it). The host
// keeps the saved settings (Electron's settings file, browser mode's store) and its environment
// overrides them, as at start-up (api/service-config.ts): the two never disagree about what is
// in force, before or after a save.
import type { AddressCheck, ServiceSettings, ServiceSettingsView } from '@shared/service-settings'
import { isIssuedBy, type IssuedToken } from '@shared/token-issuer'
import { ApiError } from '../api/api-error'
import { ServiceClient } from '../api/service-client'
import { environmentOverrides, resolveServiceConfig, type ServiceConfig } from '../api/service-config'
import { revokeAtIssuer } from '../api/sessions'
import { getMe } from '../api/users'
import type { DeploymentSwitch, ServiceSettingsPort } from '../core/ports'
import type { Log } from '../log/log'
import { checkServiceAddresses } from './connection-check'

/** Where the host keeps the saved settings: the `service` entry of its settings store. */
export interface SavedServiceSettings {
  get(): unknown
  set(saved: Partial<ServiceSettings>): void
}

export interface ServiceSettingsControlOptions {
  /** In force at start-up: what the composition root resolved from the saved settings and the environment. */
  initial: ServiceConfig
  /** Without one, saved settings last as long as the app (tests). */
  saved?: SavedServiceSettings
  /** Variables that override saved settings (PARLEY_*); none by default. */
  environment?: Record<string, string | undefined>
  log: Log
  check?: (settings: ServiceSettings) => Promise<AddressCheck[]>
}

export class ServiceSettingsControl implements ServiceSettingsPort {
  readonly #options: ServiceSettingsControlOptions
  readonly #environment: Record<string, string | undefined>
  readonly #saved: SavedServiceSettings
  #config: ServiceConfig

  constructor(options: ServiceSettingsControlOptions) {
    this.#options = options
    this.#environment = options.environment ?? {}
    this.#saved = options.saved ?? memorySaved()
    this.#config = options.initial
  }

  /** The settings in force now: the REST client reads them for every request, push whenever it starts. */
  get config(): ServiceConfig {
    return this.#config
  }

  current(): ServiceSettingsView {
    return { settings: { ...this.#config }, overriddenBy: environmentOverrides(this.#environment) }
  }

  test(settings: ServiceSettings): Promise<AddressCheck[]> {
    return (this.#options.check ?? checkServiceAddresses)(settings)
  }

  async save(settings: ServiceSettings, token: IssuedToken | null): Promise<DeploymentSwitch> {
    const overriddenBy = environmentOverrides(this.#environment)
    const before = asRecord(this.#saved.get())
    // A setting the environment decides keeps its saved value: the screen shows the variable's
    // value read-only, and the saved one takes over again once the variable is gone.
    const saved: Partial<ServiceSettings> = {}
    for (const [name, value] of Object.entries(settings) as [keyof ServiceSettings, string][]) {
      if (overriddenBy[name] === undefined) saved[name] = value
      else if (typeof before[name] === 'string') saved[name] = before[name]
    }
    const config = resolveServiceConfig(saved, this.#environment)
    let session: DeploymentSwitch['session'] = 'unknown'
    if (token !== null) session = isIssuedBy(token.issuer, config) ? await this.#showToken(config, token) : await this.#signOut(token)
    this.#saved.set(saved)
    this.#config = config
    this.#options.log.info('moved to the service settings just saved', { baseUrl: config.baseUrl, session })
    return { view: this.current(), session }
  }

  /**
   * Asks the new deployment who the token belongs to (U1) before anything else goes there, on a
   * client of its own: a refusal here must not end the session as a 401 on the app's client would,
   * with the generic notice, before core can say why.
   */
  async #showToken(config: ServiceConfig, token: IssuedToken): Promise<DeploymentSwitch['session']> {
    try {
      await getMe(new ServiceClient({ config, getToken: () => token }))
      return 'accepted'
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) return 'refused'
      this.#options.log.warn('could not show the session to the service just saved; it is kept', error)
      return 'unknown'
    }
  }

  /**
   * Leaving the deployment that issued the token: the session ends, so its token is revoked (T3)
   * there, rather than left live with nobody holding it.
   */
  async #signOut(token: IssuedToken): Promise<'elsewhere'> {
    try {
      await revokeAtIssuer(token)
    } catch (error) {
      this.#options.log.warn('could not sign out of the service being left; its token outlives the session there', error)
    }
    return 'elsewhere'
  }
}

function memorySaved(): SavedServiceSettings {
  let saved: unknown
  return {
    get: () => saved,
    set: (value) => {
      saved = value
    }
  }
}

function asRecord(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {}
}
