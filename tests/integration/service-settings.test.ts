// Settings ▸ Service against real local services: Test connection asks each address as the
// contract says and reports what is wrong in words; Save moves the app to another deployment
// without a restart; and a setting the environment decides is reported and kept.
import { createServer } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import { startTestService, type TestService } from '../../server/test/support'
import { localServiceConfig } from '../../src/main/api/service-config'
import { checkServiceAddresses } from '../../src/main/service/connection-check'

const cleanups: (() => Promise<void> | void)[] = []

afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup()
})

async function serviceFor(): Promise<TestService> {
  const service = await startTestService()
  cleanups.push(() => service.close())
  return service
}

/** A loopback port nothing listens on: taken from the system, then let go. */
async function unusedPort(): Promise<number> {
  const server = createServer()
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  await new Promise<void>((resolve) => server.close(() => resolve()))
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

describe('Test connection', () => {
  it('reports every address of a real local service ok', async () => {
    const service = await serviceFor()
    const checks = await checkServiceAddresses(localServiceConfig(service.origin))
    expect(checks.map(({ setting, ok }) => [setting, ok])).toEqual([
      ['baseUrl', true],
      ['v2Url', true],
      ['v4Url', true],
      ['imageServiceUrl', true],
      ['pushUrl', true],
      ['pushWsUrl', true]
    ])
  })

  it('says nothing answers at an unused port, for HTTP and WebSocket addresses alike', async () => {
    const port = await unusedPort()
    const checks = await checkServiceAddresses(localServiceConfig(`http://127.0.0.1:${port}`))
    for (const check of checks) {
      expect(check).toMatchObject({ ok: false, problem: expect.stringMatching(/^nothing answers at this address \(connection refused\)/) })
    }
  })

  it('says which address has a path the service does not answer, and why', async () => {
    const service = await serviceFor()
    const local = localServiceConfig(service.origin)
    const checks = await checkServiceAddresses({
      ...local,
      baseUrl: `${service.origin}/v2`,
      v4Url: `${service.origin}/v5`,
      imageServiceUrl: `${service.origin}/v3`,
      pushUrl: `${service.origin}/push`,
      pushWsUrl: local.pushWsUrl.replace('/faye', '/push')
    })
    expect(checks).toEqual([
      {
        setting: 'baseUrl',
        address: `${service.origin}/v2`,
        ok: false,
        problem: 'answered 404 (not found) where the service answers 401 to GET /v2/chats without a sign-in; check the address and its path'
      },
      { setting: 'v2Url', address: local.v2Url, ok: true },
      {
        setting: 'v4Url',
        address: `${service.origin}/v5`,
        ok: false,
        problem: 'answered 404 (not found) where the service answers 401 to GET /v5/relationships without a sign-in; check the address and its path'
      },
      {
        setting: 'imageServiceUrl',
        address: `${service.origin}/v3`,
        ok: false,
        problem: 'answered 404 (not found) where the service answers 401 to POST /v3/pictures without a sign-in; check the address and its path'
      },
      {
        setting: 'pushUrl',
        address: `${service.origin}/push`,
        ok: false,
        problem: 'answered 404 (not found) to a push handshake, where the gateway answers 200; check the address and its path'
      },
      {
        setting: 'pushWsUrl',
        address: local.pushWsUrl.replace('/faye', '/push'),
        ok: false,
        problem: 'answered 404 (not found) where the gateway opens a WebSocket; check the address and its path'
      }
    ])
  })

  it('does not contact an address the transport rule refuses', async () => {
    const checks = await checkServiceAddresses({ ...localServiceConfig('http://127.0.0.1:1'), v2Url: 'http://192.0.2.1/v2' })
    expect(checks[1]).toEqual({
      setting: 'v2Url',
      address: 'http://192.0.2.1/v2',
      ok: false,
      problem: 'http: to 192.0.2.1 would send the access token unencrypted; use https:, or http: only to this computer (127.0.0.1, [::1], localhost)'
    })
  })
})
