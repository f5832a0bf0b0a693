import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import type { AddressCheck, ServiceSettings } from '@shared/service-settings'
import { issuerOf, type IssuedToken } from '@shared/token-issuer'
import { localServiceConfig, type ServiceConfig } from '../api/service-config'
import type { Log } from '../log/log'
import { ServiceSettingsControl, type SavedServiceSettings } from './service-settings-control'

const silent: Log = { info: () => undefined, warn: () => undefined, error: () => undefined }
const FIRST = localServiceConfig('http://127.0.0.1:8080')
const SECOND = localServiceConfig('http://localhost:9090')

/** A host that answers every request with `status` and notes what came, and with which token. */
interface RecordingHost {
  origin: string
  requests: { method: string; url: string; token: string | null }[]
}

const hosts: Server[] = []

afterEach(async () => {
  for (const host of hosts.splice(0)) await new Promise<void>((resolve) => host.close(() => resolve()))
})

async function recordingHost(status: number): Promise<RecordingHost> {
  const requests: RecordingHost['requests'] = []
  const server = createServer((request, response) => {
    const token = request.headers['x-access-token']
    requests.push({ method: request.method ?? '', url: request.url ?? '', token: typeof token === 'string' ? token : null })
    response.writeHead(status, { 'content-type': 'application/json' }).end('{}')
  })
  hosts.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, requests }
}

/** The token the tests' session holds, issued by the deployment at `config`. */
function tokenOf(config: ServiceConfig): IssuedToken {
  return { token: 'the-token', issuer: issuerOf(config) }
}

function savedIn(initial?: unknown): SavedServiceSettings & { value: unknown } {
  return {
    value: initial,
    get() {
      return this.value
    },
    set(saved) {
      this.value = saved
    }
  }
}

describe('ServiceSettingsControl', () => {
  it('shows the settings in force and which variable decides each overridden one', () => {
    const control = new ServiceSettingsControl({ initial: FIRST, log: silent, environment: { PARLEY_SERVICE_ORIGIN: 'http://127.0.0.1:8080' } })
    expect(control.current()).toEqual({
      settings: FIRST,
      overriddenBy: {
        baseUrl: 'PARLEY_SERVICE_ORIGIN',
        v2Url: 'PARLEY_SERVICE_ORIGIN',
        v4Url: 'PARLEY_SERVICE_ORIGIN',
        imageServiceUrl: 'PARLEY_SERVICE_ORIGIN',
        pushUrl: 'PARLEY_SERVICE_ORIGIN',
        pushWsUrl: 'PARLEY_SERVICE_ORIGIN'
      }
    })
  })

  it('puts saved settings in force at once and keeps them; with nobody signed in there is no session to show', async () => {
    const saved = savedIn()
    const control = new ServiceSettingsControl({ initial: FIRST, log: silent, saved })
    await expect(control.save(SECOND, null)).resolves.toEqual({ view: { settings: SECOND, overriddenBy: {} }, session: 'unknown' })
    expect(control.config).toEqual(SECOND)
    expect(saved.value).toEqual(SECOND)
  })

  it('never sends the token to another origin: it signs out where the token was issued, and says the session cannot go along', async () => {
    const [current, typed] = [await recordingHost(200), await recordingHost(200)]
    const control = new ServiceSettingsControl({ initial: localServiceConfig(current.origin), log: silent })
    const { session } = await control.save(localServiceConfig(typed.origin), tokenOf(localServiceConfig(current.origin)))
    expect(session).toBe('elsewhere')
    expect(typed.requests).toEqual([])
    expect(current.requests).toEqual([{ method: 'POST', url: '/v2/access_tokens/current/destroy', token: 'the-token' }])
    expect(control.config).toEqual(localServiceConfig(typed.origin))
  })

  it('counts another app id as another service: the token was issued for the app id it signed in with', async () => {
    const current = await recordingHost(200)
    const control = new ServiceSettingsControl({ initial: localServiceConfig(current.origin), log: silent })
    const { session } = await control.save({ ...localServiceConfig(current.origin), appId: 'another-app' }, tokenOf(localServiceConfig(current.origin)))
    expect(session).toBe('elsewhere')
    expect(current.requests).toEqual([{ method: 'POST', url: '/v2/access_tokens/current/destroy', token: 'the-token' }])
  })

  it('revokes the token where it was issued, not at the addresses in force, should the two ever differ', async () => {
    const [issuer, inForce, typed] = [await recordingHost(200), await recordingHost(200), await recordingHost(200)]
    const control = new ServiceSettingsControl({ initial: localServiceConfig(inForce.origin), log: silent })
    await control.save(localServiceConfig(typed.origin), tokenOf(localServiceConfig(issuer.origin)))
    expect(issuer.requests).toEqual([{ method: 'POST', url: '/v2/access_tokens/current/destroy', token: 'the-token' }])
    expect(inForce.requests).toEqual([])
    expect(typed.requests).toEqual([])
  })

  it('counts one address at another origin as another service, the rest staying', async () => {
    const [current, typed] = [await recordingHost(200), await recordingHost(200)]
    const control = new ServiceSettingsControl({ initial: localServiceConfig(current.origin), log: silent })
    const { session } = await control.save(
      { ...localServiceConfig(current.origin), imageServiceUrl: `${typed.origin}/image` },
      tokenOf(localServiceConfig(current.origin))
    )
    expect(session).toBe('elsewhere')
    expect(typed.requests).toEqual([])
  })

  it('goes on to another origin even when the service being left cannot sign the token out', async () => {
    const typed = await recordingHost(200)
    const control = new ServiceSettingsControl({ initial: localServiceConfig('http://127.0.0.1:1'), log: silent })
    await expect(control.save(localServiceConfig(typed.origin), tokenOf(localServiceConfig('http://127.0.0.1:1')))).resolves.toMatchObject({
      session: 'elsewhere'
    })
    expect(control.config).toEqual(localServiceConfig(typed.origin))
  })

  it('shows the token to the same origin at its new paths, and reports a refusal', async () => {
    const current = await recordingHost(401)
    const control = new ServiceSettingsControl({ initial: localServiceConfig(current.origin), log: silent })
    const moved = { ...localServiceConfig(current.origin), baseUrl: `${current.origin}/api/v3` }
    await expect(control.save(moved, tokenOf(localServiceConfig(current.origin)))).resolves.toMatchObject({ session: 'refused' })
    expect(current.requests).toEqual([{ method: 'GET', url: '/api/v3/users/me', token: 'the-token' }])
  })

  it('keeps the saved value of a setting the environment decides, and saves none where there was none', async () => {
    const saved = savedIn({ appId: 'saved-app' })
    const environment = { PARLEY_APP_ID: 'kiosk', PARLEY_VERIFY_TOKEN: 'from-env' }
    const control = new ServiceSettingsControl({ initial: { ...FIRST, appId: 'kiosk', verifyToken: 'from-env' }, log: silent, saved, environment })
    const { view } = await control.save({ ...SECOND, appId: 'typed', verifyToken: 'typed' }, null)
    expect(saved.value).toEqual({ ...withoutKey(SECOND, 'verifyToken'), appId: 'saved-app' })
    expect(view.settings).toEqual({ ...SECOND, appId: 'kiosk', verifyToken: 'from-env' })
    expect(control.config).toEqual(view.settings)
  })

  it('puts picture origins in force and keeps them, under PARLEY_SERVICE_ORIGIN too, and shows the token only where it came from', async () => {
    const host = await recordingHost(200)
    const saved = savedIn()
    const environment = { PARLEY_SERVICE_ORIGIN: host.origin }
    const control = new ServiceSettingsControl({ initial: localServiceConfig(host.origin), log: silent, saved, environment })
    const withPictures = { ...localServiceConfig(host.origin), pictureOrigins: 'https://pictures.example.com' }
    const { view, session } = await control.save(withPictures, tokenOf(localServiceConfig(host.origin)))
    // The same deployment, so the session is not ended for it (this host's answer names no user).
    expect(session).toBe('unknown')
    expect(view.settings.pictureOrigins).toBe('https://pictures.example.com')
    expect(control.config.pictureOrigins).toBe('https://pictures.example.com')
    expect(saved.value).toEqual({ pictureOrigins: 'https://pictures.example.com', appId: 'parley-desktop', verifyToken: 'local-dev-attestation' })
    expect(host.requests.map(({ url, token }) => [url, token])).toEqual([['/v3/users/me', 'the-token']])
  })

  it('refuses settings the transport rule does not allow, and changes nothing', async () => {
    const saved = savedIn()
    const control = new ServiceSettingsControl({ initial: FIRST, log: silent, saved })
    await expect(control.save({ ...SECOND, v2Url: 'http://chat.example.com/v2' }, null)).rejects.toThrow(/v2Url/)
    expect(control.config).toEqual(FIRST)
    expect(saved.value).toBeUndefined()
  })

  it('tests the settings given, not those in force', async () => {
    const tried: ServiceSettings[] = []
    const answer: AddressCheck[] = [{ setting: 'baseUrl', address: SECOND.baseUrl, ok: true }]
    const control = new ServiceSettingsControl({
      initial: FIRST,
      log: silent,
      check: async (settings) => {
        tried.push(settings)
        return answer
      }
    })
    await expect(control.test(SECOND)).resolves.toBe(answer)
    expect(tried).toEqual([SECOND])
    expect(control.config).toEqual(FIRST)
  })
})

function withoutKey<K extends keyof ServiceSettings>(settings: ServiceSettings, key: K): Omit<ServiceSettings, K> {
  const { [key]: _left, ...rest } = settings
  return rest
}
