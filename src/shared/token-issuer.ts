// An access token is good only at the deployment that issued it, and must never reach another: a
// server that receives it can act as the person. So the token is always kept, and always handed
// around, with the addresses and app id it was issued for, and every request that would carry it
// first checks that the addresses in force are still those.
import type { ServiceSettings } from './service-settings'
import { SERVICE_ADDRESS_NAMES } from './service-settings'

/** The deployment that issued a token: its six addresses and the app id it signed in as. */
export type TokenIssuer = Pick<ServiceSettings, (typeof SERVICE_ADDRESS_NAMES)[number] | 'appId'>

/** An access token with the deployment it belongs to. */
export interface IssuedToken {
  readonly token: string
  readonly issuer: TokenIssuer
}

/** Just the issuer's part of a fuller set of settings. */
export function issuerOf(settings: TokenIssuer): TokenIssuer {
  const { baseUrl, v2Url, v4Url, imageServiceUrl, pushUrl, pushWsUrl, appId } = settings
  return { baseUrl, v2Url, v4Url, imageServiceUrl, pushUrl, pushWsUrl, appId }
}

/**
 * `settings` still name the deployment that issued the token: every address keeps its origin
 * (scheme, host and port; the deployment may move its paths) and the app id is the same. One
 * address elsewhere would hand the token to whoever runs that host, since it travels to all six.
 */
export function isIssuedBy(issuer: TokenIssuer, settings: TokenIssuer): boolean {
  return (
    issuer.appId === settings.appId &&
    SERVICE_ADDRESS_NAMES.every((name) => {
      const origin = originOf(issuer[name])
      return origin !== null && origin === originOf(settings[name])
    })
  )
}

/** An address that does not parse has no origin, and so matches nothing, itself included. */
function originOf(address: string): string | null {
  try {
    const { origin } = new URL(address)
    return origin === 'null' ? null : origin
  } catch {
    return null
  }
}
