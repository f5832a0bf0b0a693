// The one rule for an address of the service: every request and push message to it carries the
// access token, so the address must be encrypted (https:, wss:) unless it never leaves this computer
// (http:, ws: to a loopback host). Start-up applies it to the six configured addresses; anything that
// lets a person set an address applies the same function, in main or in the renderer.

/** A REST or long-polling address is HTTP; the push gateway's socket is a WebSocket. */
export type AddressKind = 'http' | 'websocket'

/** Which kind each of the six address settings is (docs/protocol.md §1). */
export const SERVICE_ADDRESS_KINDS = {
  baseUrl: 'http',
  v2Url: 'http',
  v4Url: 'http',
  imageServiceUrl: 'http',
  pushUrl: 'http',
  pushWsUrl: 'websocket'
} as const satisfies Record<string, AddressKind>

export type ServiceAddressSetting = keyof typeof SERVICE_ADDRESS_KINDS

const SCHEMES: Record<AddressKind, { encrypted: string; plain: string }> = {
  http: { encrypted: 'https:', plain: 'http:' },
  websocket: { encrypted: 'wss:', plain: 'ws:' }
}

/**
 * The hosts an unencrypted address may name, as the URL parser writes them (lower case, IPv6 in
 * brackets; `http://[0:0::1]` and `http://0x7f.1` arrive here as `[::1]` and `127.0.0.1`).
 * Exactly the three names the local service and its tools use (`localhost` comes from the hosts
 * file, as browsers trust it for a secure context), and deliberately no more:
 * - not `localhost.` or `*.localhost`: the resolver may send a name with a dot to DNS, and then
 *   whoever answers for it, possibly someone on the network, picks where the token goes;
 * - not the rest of 127.0.0.0/8 nor IPv4-mapped `[::ffff:7f00:1]`: those never leave the machine
 *   either, so they would be safe, but nothing here listens on them and every extra spelling is
 *   one more case to get right for no one's benefit;
 * - not `0.0.0.0` or `[::]`, which some systems route to this computer and others refuse.
 */
export const LOOPBACK_HOSTS: readonly string[] = ['127.0.0.1', '[::1]', 'localhost']

const LOOPBACK_LIST = LOOPBACK_HOSTS.join(', ')

/** Why `address` cannot serve as an address of this kind, or null when it can. */
export function addressProblem(address: string, kind: AddressKind): string | null {
  let url: URL
  try {
    url = new URL(address)
  } catch {
    return 'not a URL'
  }
  const { encrypted, plain } = SCHEMES[kind]
  const allowed = `use ${encrypted}, or ${plain} only to this computer (${LOOPBACK_LIST})`
  if (url.protocol !== encrypted && url.protocol !== plain) {
    return `${kind === 'http' ? 'an HTTP' : 'a WebSocket'} address is needed here, not ${url.protocol}; ${allowed}`
  }
  // The service takes its credentials from the sign-in. A user name or password in the address
  // would be shown and logged wherever the address is, and `http://localhost@host` reads as local.
  if (url.username !== '' || url.password !== '') return 'an address must not carry a user name or password'
  if (url.protocol === plain && !LOOPBACK_HOSTS.includes(url.hostname)) {
    return `${plain} to ${url.hostname} would send the access token unencrypted; ${allowed}`
  }
  return null
}

/** Why `address` cannot be the value of this setting, or null when it can. */
export function serviceAddressProblem(setting: ServiceAddressSetting, address: string): string | null {
  return addressProblem(address, SERVICE_ADDRESS_KINDS[setting])
}
