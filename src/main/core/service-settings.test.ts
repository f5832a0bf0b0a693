import { describe, expect, it } from 'vitest'
import type { ServiceSettings, ServiceSettingsView } from '@shared/service-settings'
import { issuerOf, type IssuedToken } from '@shared/token-issuer'
import type { DeploymentSwitch, ServiceSettingsPort } from './ports'
import { NEW_SERVICE_REFUSED_SESSION_NOTICE, NEW_SERVICE_SIGN_IN_NOTICE, serviceSettingsHandlers } from './service-settings'

const SETTINGS: ServiceSettings = {
  baseUrl: 'https://chat.example.com/v3',
  v2Url: 'https://chat.example.com/v2',
  v4Url: 'https://chat.example.com/v4',
  imageServiceUrl: 'https://img.example.com/',
  pictureOrigins: '',
  pushUrl: 'https://push.example.com/faye',
  pushWsUrl: 'wss://push.example.com/faye',
  appId: 'parley-desktop',
  verifyToken: ''
}

/** A port that answers saves as told and records what core did around them. */
function setUp(session: DeploymentSwitch['session'], token: IssuedToken | null = { token: 'T'.repeat(40), issuer: issuerOf(SETTINGS) }) {
  const view: ServiceSettingsView = { settings: SETTINGS, overriddenBy: {} }
  const done: string[] = []
  const port: ServiceSettingsPort = {
    current: () => view,
    test: async () => [],
    save: async (settings, shown) => {
      done.push(`save with ${shown === null ? 'no token' : 'the token'}`)
      return { view: { ...view, settings }, session }
    }
  }
  const handlers = serviceSettingsHandlers({
    settings: port,
    token: () => token,
    endSession: async (notice) => {
      done.push(`end: ${notice}`)
    },
    followIssuer: async (issuer) => {
      done.push(`follow the issuer to ${issuer.baseUrl}`)
    },
    followAgain: async () => {
      done.push('follow again')
    }
  })
  return { handlers, done }
}

describe('service:save', () => {
  it('keeps the session and starts push again when the new deployment accepts it', async () => {
    const { handlers, done } = setUp('accepted')
    await expect(handlers['service:save']({ settings: SETTINGS })).resolves.toEqual({ settings: SETTINGS, overriddenBy: {} })
    expect(done).toEqual(['save with the token', 'follow the issuer to https://chat.example.com/v3', 'follow again'])
  })

  it('keeps the session when the new deployment could not say, for push to keep trying there', async () => {
    const { handlers, done } = setUp('unknown')
    await handlers['service:save']({ settings: SETTINGS })
    expect(done).toEqual(['save with the token', 'follow the issuer to https://chat.example.com/v3', 'follow again'])
  })

  it('ends the session saying why when the new deployment refuses it', async () => {
    const { handlers, done } = setUp('refused')
    await handlers['service:save']({ settings: SETTINGS })
    expect(done).toEqual(['save with the token', `end: ${NEW_SERVICE_REFUSED_SESSION_NOTICE}`])
  })

  it('ends the session asking to sign in to the new service when it is at another origin, never shown the token', async () => {
    const { handlers, done } = setUp('elsewhere')
    await expect(handlers['service:save']({ settings: SETTINGS })).resolves.toEqual({ settings: SETTINGS, overriddenBy: {} })
    expect(done).toEqual(['save with the token', `end: ${NEW_SERVICE_SIGN_IN_NOTICE}`])
    expect(NEW_SERVICE_SIGN_IN_NOTICE).toBe('The service settings were saved. Sign in to the new service.')
  })

  it('shows the new deployment no token when nobody is signed in', async () => {
    const { handlers, done } = setUp('unknown', null)
    await handlers['service:save']({ settings: SETTINGS })
    expect(done[0]).toBe('save with no token')
  })

  it('refuses a wrong value in the words of its field, and saves nothing', async () => {
    const { handlers, done } = setUp('accepted')
    await expect(handlers['service:save']({ settings: { ...SETTINGS, imageServiceUrl: 'http://img.example.com/' } })).rejects.toMatchObject({
      code: 'VALIDATION',
      message:
        'Image service address: http: to img.example.com would send the access token unencrypted; use https:, or http: only to this computer (127.0.0.1, [::1], localhost).'
    })
    await expect(handlers['service:save']({ settings: { ...SETTINGS, appId: '' } })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'App id: the service needs an app id to sign in.'
    })
    expect(done).toEqual([])
  })
})
