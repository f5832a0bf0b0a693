import { describe, expect, it } from 'vitest'
import { addressProblem, serviceAddressProblem, type AddressKind } from './service-address'

const ONLY_LOCAL_HTTP = 'use https:, or http: only to this computer (127.0.0.1, [::1], localhost)'
const ONLY_LOCAL_WS = 'use wss:, or ws: only to this computer (127.0.0.1, [::1], localhost)'

describe('addressProblem', () => {
  const accepted: [AddressKind, string][] = [
    ['http', 'https://chat.example.com/v3'],
    ['http', 'HTTPS://CHAT.EXAMPLE.COM:8443/v3'],
    ['http', 'http://127.0.0.1:8080/v3'],
    ['http', 'http://localhost:8080/image'],
    ['http', 'http://LOCALHOST/faye'],
    ['http', 'http://[::1]:8080/v2'],
    // Other spellings of the same two loopback addresses, as the URL parser reads them.
    ['http', 'http://[0:0:0:0:0:0:0:1]/v4'],
    ['http', 'http://127.1:8080/v3'],
    ['http', 'http://0x7f000001/v3'],
    ['websocket', 'wss://push.example.com/faye'],
    ['websocket', 'ws://127.0.0.1:8080/faye'],
    ['websocket', 'ws://localhost:8080/faye'],
    ['websocket', 'ws://[::1]:8080/faye']
  ]
  it.each(accepted)('accepts a %s address %s', (kind, address) => {
    expect(addressProblem(address, kind)).toBeNull()
  })

  const refused: [AddressKind, string, string][] = [
    ['http', 'http://chat.example.com', `http: to chat.example.com would send the access token unencrypted; ${ONLY_LOCAL_HTTP}`],
    ['http', 'http://192.168.1.20:8080/v3', `http: to 192.168.1.20 would send the access token unencrypted; ${ONLY_LOCAL_HTTP}`],
    ['http', 'http://[fe80::1]/v3', `http: to [fe80::1] would send the access token unencrypted; ${ONLY_LOCAL_HTTP}`],
    // Loopback in effect, but outside the three names (see LOOPBACK_HOSTS).
    ['http', 'http://127.0.0.2:8080/v3', `http: to 127.0.0.2 would send the access token unencrypted; ${ONLY_LOCAL_HTTP}`],
    ['http', 'http://[::ffff:127.0.0.1]/v3', `http: to [::ffff:7f00:1] would send the access token unencrypted; ${ONLY_LOCAL_HTTP}`],
    ['http', 'http://0.0.0.0:8080/v3', `http: to 0.0.0.0 would send the access token unencrypted; ${ONLY_LOCAL_HTTP}`],
    ['http', 'http://localhost./v3', `http: to localhost. would send the access token unencrypted; ${ONLY_LOCAL_HTTP}`],
    ['http', 'http://evil.localhost/v3', `http: to evil.localhost would send the access token unencrypted; ${ONLY_LOCAL_HTTP}`],
    ['http', 'http://127.0.0.1.chat.example.com/v3', `http: to 127.0.0.1.chat.example.com would send the access token unencrypted; ${ONLY_LOCAL_HTTP}`],
    ['http', 'ftp://files.example.com/', `an HTTP address is needed here, not ftp:; ${ONLY_LOCAL_HTTP}`],
    ['http', 'file:///etc/passwd', `an HTTP address is needed here, not file:; ${ONLY_LOCAL_HTTP}`],
    ['http', 'wss://chat.example.com/v3', `an HTTP address is needed here, not wss:; ${ONLY_LOCAL_HTTP}`],
    ['http', 'ws://127.0.0.1:8080/v3', `an HTTP address is needed here, not ws:; ${ONLY_LOCAL_HTTP}`],
    ['http', 'https://user:secret@chat.example.com/v3', 'an address must not carry a user name or password'],
    ['http', 'http://localhost@chat.example.com/v3', 'an address must not carry a user name or password'],
    ['http', 'https://:secret@chat.example.com/v3', 'an address must not carry a user name or password'],
    ['http', 'chat.example.com/v3', 'not a URL'],
    ['http', '', 'not a URL'],
    ['websocket', 'ws://push.example.com/faye', `ws: to push.example.com would send the access token unencrypted; ${ONLY_LOCAL_WS}`],
    ['websocket', 'https://push.example.com/faye', `a WebSocket address is needed here, not https:; ${ONLY_LOCAL_WS}`],
    ['websocket', 'http://127.0.0.1:8080/faye', `a WebSocket address is needed here, not http:; ${ONLY_LOCAL_WS}`]
  ]
  it.each(refused)('refuses a %s address %s', (kind, address, reason) => {
    expect(addressProblem(address, kind)).toBe(reason)
  })
})

describe('serviceAddressProblem', () => {
  it('holds the push socket to WebSocket schemes and every other address to HTTP ones', () => {
    expect(serviceAddressProblem('pushWsUrl', 'wss://push.example.com/faye')).toBeNull()
    expect(serviceAddressProblem('pushWsUrl', 'https://push.example.com/faye')).toMatch(/^a WebSocket address is needed here/)
    for (const setting of ['baseUrl', 'v2Url', 'v4Url', 'imageServiceUrl', 'pushUrl'] as const) {
      expect(serviceAddressProblem(setting, 'https://chat.example.com/x'), setting).toBeNull()
      expect(serviceAddressProblem(setting, 'wss://chat.example.com/x'), setting).toMatch(/^an HTTP address is needed here/)
      expect(serviceAddressProblem(setting, 'http://chat.example.com/x'), setting).toMatch(/unencrypted/)
    }
  })
})
