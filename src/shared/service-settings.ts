// Settings ▸ Service: the nine settings that say which deployment the app talks to, as the person
// sees and edits them. Main keeps them (the settings file, or browser mode's store), lets the
// environment override single ones, checks that each address answers like the service, and
// switches to them without a restart; the renderer shows them and checks them as they are typed.
import { pictureOriginsProblem } from './picture-origins'
import { SERVICE_ADDRESS_KINDS, serviceAddressProblem, type ServiceAddressSetting } from './service-address'

/**
 * The six addresses (docs/protocol.md §1), the other origins the deployment serves pictures from,
 * the app id sent at sign-in, and the attestation value (§2.3).
 */
export interface ServiceSettings {
  baseUrl: string
  v2Url: string
  v4Url: string
  imageServiceUrl: string
  /**
   * Origins besides the image service's that pictures may load from, separated by commas; empty
   * for none (shared/picture-origins.ts). Never an address of the service: no token goes there.
   */
  pictureOrigins: string
  pushUrl: string
  pushWsUrl: string
  appId: string
  verifyToken: string
}

export type ServiceSettingName = keyof ServiceSettings

/** In the order the screen shows them. */
export const SERVICE_SETTING_NAMES = [
  'baseUrl',
  'v2Url',
  'v4Url',
  'imageServiceUrl',
  'pictureOrigins',
  'pushUrl',
  'pushWsUrl',
  'appId',
  'verifyToken'
] as const satisfies readonly ServiceSettingName[]

/** The six that are addresses, in the order Test connection reports them. */
export const SERVICE_ADDRESS_NAMES = SERVICE_SETTING_NAMES.filter((name): name is ServiceAddressSetting => Object.hasOwn(SERVICE_ADDRESS_KINDS, name))

/** Each setting's name on the screen, which is also its field's accessible name. */
export const SERVICE_SETTING_LABELS: Record<ServiceSettingName, string> = {
  baseUrl: 'Base address',
  v2Url: 'v2 address',
  v4Url: 'v4 address',
  imageServiceUrl: 'Image service address',
  pictureOrigins: 'Picture origins',
  pushUrl: 'Push address',
  pushWsUrl: 'Push WebSocket address',
  appId: 'App id',
  verifyToken: 'Attestation value'
}

/** The longest value main accepts for any setting: far beyond any real address or secret. */
export const MAX_SERVICE_SETTING_LENGTH = 2048

/** The settings in force, and which of them an environment variable sets (variable name by setting). */
export interface ServiceSettingsView {
  settings: ServiceSettings
  overriddenBy: Partial<Record<ServiceSettingName, string>>
}

/** What Test connection found at one address. */
export type AddressCheck =
  | { setting: ServiceAddressSetting; address: string; ok: true }
  | { setting: ServiceAddressSetting; address: string; ok: false; problem: string }

/** Why `value` cannot be this setting's value, in the person's words, or null when it can. */
export function serviceSettingProblem(name: ServiceSettingName, value: string): string | null {
  if (value.length > MAX_SERVICE_SETTING_LENGTH) return `at most ${MAX_SERVICE_SETTING_LENGTH} characters`
  switch (name) {
    case 'appId':
      return value.trim() === '' ? 'the service needs an app id to sign in' : null
    case 'verifyToken':
      // Empty is allowed: a deployment without attestation refuses only G5, MB2 and R3.
      return null
    case 'pictureOrigins':
      return pictureOriginsProblem(value)
    default:
      return serviceAddressProblem(name, value)
  }
}

/** Every setting that is wrong, with why; empty when all can be saved. */
export function serviceSettingsProblems(settings: ServiceSettings): Partial<Record<ServiceSettingName, string>> {
  const problems: Partial<Record<ServiceSettingName, string>> = {}
  for (const name of SERVICE_SETTING_NAMES) {
    const problem = serviceSettingProblem(name, settings[name])
    if (problem !== null) problems[name] = problem
  }
  return problems
}
