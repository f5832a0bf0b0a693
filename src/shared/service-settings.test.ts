import { describe, expect, it } from 'vitest'
import { MAX_SERVICE_SETTING_LENGTH, SERVICE_ADDRESS_NAMES, serviceSettingProblem, serviceSettingsProblems, type ServiceSettings } from './service-settings'

const LOCAL: ServiceSettings = {
  baseUrl: 'http://127.0.0.1:8080/v3',
  v2Url: 'http://127.0.0.1:8080/v2',
  v4Url: 'http://127.0.0.1:8080/v4',
  imageServiceUrl: 'http://127.0.0.1:8080/image',
  pictureOrigins: '',
  pushUrl: 'http://127.0.0.1:8080/faye',
  pushWsUrl: 'ws://127.0.0.1:8080/faye',
  appId: 'parley-desktop',
  verifyToken: 'local-dev-attestation'
}

describe('serviceSettingProblem', () => {
  it('holds each address to the transport rule of its kind', () => {
    expect(serviceSettingProblem('baseUrl', 'https://chat.example.com/v3')).toBeNull()
    expect(serviceSettingProblem('baseUrl', 'http://chat.example.com/v3')).toMatch(/would send the access token unencrypted/)
    expect(serviceSettingProblem('pushWsUrl', 'wss://push.example.com/faye')).toBeNull()
    expect(serviceSettingProblem('pushWsUrl', 'ws://push.example.com/faye')).toMatch(/would send the access token unencrypted/)
    expect(serviceSettingProblem('pushWsUrl', 'https://push.example.com/faye')).toMatch(/a WebSocket address is needed here/)
    expect(serviceSettingProblem('pushUrl', 'wss://push.example.com/faye')).toMatch(/an HTTP address is needed here/)
    expect(serviceSettingProblem('v4Url', 'chat.example.com')).toBe('not a URL')
  })

  it('needs an app id, and allows an empty attestation value', () => {
    expect(serviceSettingProblem('appId', '  ')).toBe('the service needs an app id to sign in')
    expect(serviceSettingProblem('appId', 'parley-desktop')).toBeNull()
    expect(serviceSettingProblem('verifyToken', '')).toBeNull()
  })

  it('takes picture origins separated by commas, each held to the transport rule, and none at all', () => {
    expect(serviceSettingProblem('pictureOrigins', '')).toBeNull()
    expect(serviceSettingProblem('pictureOrigins', 'https://i.example.com, http://127.0.0.1:9000')).toBeNull()
    expect(serviceSettingProblem('pictureOrigins', 'https://i.example.com, http://cdn.example.com')).toMatch(/^http:\/\/cdn\.example\.com: http: to cdn\.example\.com would load pictures unencrypted/)
    expect(serviceSettingProblem('pictureOrigins', 'https://i.example.com/pictures')).toMatch(/an origin only/)
  })

  it('refuses a value longer than any setting needs', () => {
    expect(serviceSettingProblem('verifyToken', 'x'.repeat(MAX_SERVICE_SETTING_LENGTH + 1))).toBe(`at most ${MAX_SERVICE_SETTING_LENGTH} characters`)
  })
})

describe('serviceSettingsProblems', () => {
  it('finds nothing wrong with the local service', () => {
    expect(serviceSettingsProblems(LOCAL)).toEqual({})
  })

  it('names every setting that is wrong', () => {
    const problems = serviceSettingsProblems({ ...LOCAL, v2Url: 'http://10.0.0.2/v2', appId: '' })
    expect(Object.keys(problems)).toEqual(['v2Url', 'appId'])
  })

  it('knows the six addresses, which the picture origins are not', () => {
    expect(SERVICE_ADDRESS_NAMES).toEqual(['baseUrl', 'v2Url', 'v4Url', 'imageServiceUrl', 'pushUrl', 'pushWsUrl'])
  })
})
