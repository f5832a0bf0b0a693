import { describe, expect, it } from 'vitest'
import { DEFAULT_SERVICE_CONFIG, environmentOverrides, resolveServiceConfig } from './service-config'

describe('resolveServiceConfig', () => {
  it('uses the defaults when nothing is saved or set', () => {
    expect(resolveServiceConfig(undefined, {})).toEqual(DEFAULT_SERVICE_CONFIG)
    expect(resolveServiceConfig('garbage', {})).toEqual(DEFAULT_SERVICE_CONFIG)
  })

  it('uses the saved settings', () => {
    expect(resolveServiceConfig({ baseUrl: 'https://api.example.com/v3' }, {}).baseUrl).toBe('https://api.example.com/v3')
  })

  it('lets PARLEY_SERVICE_ORIGIN stand for all addresses of the local service, over what was saved', () => {
    const config = resolveServiceConfig({ baseUrl: 'https://api.example.com/v3' }, { PARLEY_SERVICE_ORIGIN: 'http://127.0.0.1:9100' })
    expect(config).toMatchObject({
      baseUrl: 'http://127.0.0.1:9100/v3',
      v2Url: 'http://127.0.0.1:9100/v2',
      pushWsUrl: 'ws://127.0.0.1:9100/faye'
    })
  })

  it('lets a single-address variable override the origin', () => {
    const config = resolveServiceConfig(undefined, {
      PARLEY_SERVICE_ORIGIN: 'http://127.0.0.1:9100',
      PARLEY_IMAGE_SERVICE_URL: 'https://img.example.com/'
    })
    expect(config.imageServiceUrl).toBe('https://img.example.com/')
    expect(config.baseUrl).toBe('http://127.0.0.1:9100/v3')
  })

  it('names the setting that is wrong', () => {
    expect(() => resolveServiceConfig(undefined, { PARLEY_SERVICE_ORIGIN: 'not a url' })).toThrow(/PARLEY_SERVICE_ORIGIN/)
    expect(() => resolveServiceConfig({ baseUrl: 'nope' }, {})).toThrow(/baseUrl/)
  })
})

describe('resolveServiceConfig and the transport rule', () => {
  const REMOTE = {
    baseUrl: 'https://api.chat.example/v3',
    v2Url: 'https://api.chat.example/v2',
    v4Url: 'https://api.chat.example/v4',
    imageServiceUrl: 'https://img.chat.example/',
    pushUrl: 'https://push.chat.example/faye',
    pushWsUrl: 'wss://push.chat.example/faye'
  }

  it('takes a remote deployment over https and wss, saved or from the environment', () => {
    expect(resolveServiceConfig(REMOTE, {})).toMatchObject(REMOTE)
    expect(
      resolveServiceConfig(undefined, {
        PARLEY_BASE_URL: REMOTE.baseUrl,
        PARLEY_V2_URL: REMOTE.v2Url,
        PARLEY_V4_URL: REMOTE.v4Url,
        PARLEY_IMAGE_SERVICE_URL: REMOTE.imageServiceUrl,
        PARLEY_PUSH_URL: REMOTE.pushUrl,
        PARLEY_PUSH_WS_URL: REMOTE.pushWsUrl
      })
    ).toMatchObject(REMOTE)
    expect(resolveServiceConfig(undefined, { PARLEY_SERVICE_ORIGIN: 'https://chat.example' })).toMatchObject({
      baseUrl: 'https://chat.example/v3',
      pushWsUrl: 'wss://chat.example/faye'
    })
  })

  it('refuses a saved cleartext address, naming the setting, the settings file and the reason', () => {
    expect(() => resolveServiceConfig({ ...REMOTE, v2Url: 'http://api.chat.example/v2' }, {})).toThrow(
      'Invalid service setting "v2Url" (from the settings file): http: to api.chat.example would send the access token unencrypted; ' +
        'use https:, or http: only to this computer (127.0.0.1, [::1], localhost)'
    )
  })

  it('refuses a cleartext address from a variable, naming the setting and the variable', () => {
    expect(() => resolveServiceConfig(undefined, { PARLEY_BASE_URL: 'http://chat.example.com/v3' })).toThrow(
      /^Invalid service setting "baseUrl" \(from PARLEY_BASE_URL\): http: to chat\.example\.com would send the access token unencrypted/
    )
    expect(() => resolveServiceConfig(undefined, { PARLEY_PUSH_WS_URL: 'ws://push.chat.example/faye' })).toThrow(
      /^Invalid service setting "pushWsUrl" \(from PARLEY_PUSH_WS_URL\): ws: to push\.chat\.example would send the access token unencrypted; use wss:/
    )
  })

  it('refuses a scheme that does not fit the setting', () => {
    expect(() => resolveServiceConfig({ pushWsUrl: 'https://push.chat.example/faye' }, {})).toThrow(
      /^Invalid service setting "pushWsUrl" \(from the settings file\): a WebSocket address is needed here, not https:/
    )
    expect(() => resolveServiceConfig(undefined, { PARLEY_IMAGE_SERVICE_URL: 'ftp://img.chat.example/' })).toThrow(
      /^Invalid service setting "imageServiceUrl" \(from PARLEY_IMAGE_SERVICE_URL\): an HTTP address is needed here, not ftp:/
    )
  })

  it('refuses a user name or password in an address without repeating it', () => {
    const attempt = (): unknown => resolveServiceConfig({ ...REMOTE, pushUrl: 'https://ada:hunter2@push.chat.example/faye' }, {})
    expect(attempt).toThrow('Invalid service setting "pushUrl" (from the settings file): an address must not carry a user name or password')
    expect(attempt).not.toThrow(/hunter2/)
  })

  it('judges PARLEY_SERVICE_ORIGIN itself, under its own name', () => {
    expect(() => resolveServiceConfig(undefined, { PARLEY_SERVICE_ORIGIN: 'http://chat.example.com' })).toThrow(
      /^Invalid service setting "PARLEY_SERVICE_ORIGIN": http: to chat\.example\.com would send the access token unencrypted/
    )
    expect(() => resolveServiceConfig(undefined, { PARLEY_SERVICE_ORIGIN: 'ws://127.0.0.1:8080' })).toThrow(
      /^Invalid service setting "PARLEY_SERVICE_ORIGIN": an HTTP address is needed here, not ws:/
    )
    expect(resolveServiceConfig(undefined, { PARLEY_SERVICE_ORIGIN: 'http://[::1]:9100' }).pushWsUrl).toBe('ws://[::1]:9100/faye')
  })

  it('judges the value that wins, so a variable can stand in for a refused saved address', () => {
    const config = resolveServiceConfig({ ...REMOTE, baseUrl: 'http://api.chat.example/v3' }, { PARLEY_BASE_URL: REMOTE.baseUrl })
    expect(config.baseUrl).toBe(REMOTE.baseUrl)
  })
})

describe('resolveServiceConfig and the picture origins', () => {
  it('lists none by default, and takes them from the settings file or PARLEY_PICTURE_ORIGINS', () => {
    expect(resolveServiceConfig(undefined, {}).pictureOrigins).toBe('')
    expect(resolveServiceConfig({ pictureOrigins: 'https://i.example.com' }, {}).pictureOrigins).toBe('https://i.example.com')
    expect(
      resolveServiceConfig({ pictureOrigins: 'https://i.example.com' }, { PARLEY_PICTURE_ORIGINS: 'https://cdn.example.com,http://127.0.0.1:9000' }).pictureOrigins
    ).toBe('https://cdn.example.com,http://127.0.0.1:9000')
  })

  it('keeps the saved ones under PARLEY_SERVICE_ORIGIN, which stands for the addresses only', () => {
    const config = resolveServiceConfig({ pictureOrigins: 'https://i.example.com' }, { PARLEY_SERVICE_ORIGIN: 'http://127.0.0.1:9100' })
    expect(config).toMatchObject({ imageServiceUrl: 'http://127.0.0.1:9100/image', pictureOrigins: 'https://i.example.com' })
    expect(environmentOverrides({ PARLEY_SERVICE_ORIGIN: 'http://127.0.0.1:9100' }).pictureOrigins).toBeUndefined()
  })

  it('refuses one that fails the transport rule or is more than an origin, saying where it came from', () => {
    expect(() => resolveServiceConfig(undefined, { PARLEY_PICTURE_ORIGINS: 'https://i.example.com, http://cdn.example.com' })).toThrow(
      'Invalid service setting "pictureOrigins" (from PARLEY_PICTURE_ORIGINS): http://cdn.example.com: http: to cdn.example.com would load pictures unencrypted; ' +
        'use https:, or http: only to this computer (127.0.0.1, [::1], localhost)'
    )
    expect(() => resolveServiceConfig({ pictureOrigins: 'https://i.example.com/pictures' }, {})).toThrow(
      /^Invalid service setting "pictureOrigins" \(from the settings file\): https:\/\/i\.example\.com\/pictures: an origin only/
    )
  })
})

describe('environmentOverrides', () => {
  it('names no setting when no variable is set, or set empty', () => {
    expect(environmentOverrides({})).toEqual({})
    expect(environmentOverrides({ PARLEY_BASE_URL: '', PARLEY_SERVICE_ORIGIN: '' })).toEqual({})
  })

  it('names the variable that decides each overridden setting, a single-address one over the origin', () => {
    expect(
      environmentOverrides({ PARLEY_SERVICE_ORIGIN: 'http://127.0.0.1:9100', PARLEY_PUSH_WS_URL: 'ws://localhost:9100/faye', PARLEY_APP_ID: 'kiosk' })
    ).toEqual({
      baseUrl: 'PARLEY_SERVICE_ORIGIN',
      v2Url: 'PARLEY_SERVICE_ORIGIN',
      v4Url: 'PARLEY_SERVICE_ORIGIN',
      imageServiceUrl: 'PARLEY_SERVICE_ORIGIN',
      pushUrl: 'PARLEY_SERVICE_ORIGIN',
      pushWsUrl: 'PARLEY_PUSH_WS_URL',
      appId: 'PARLEY_APP_ID'
    })
    expect(environmentOverrides({ PARLEY_PICTURE_ORIGINS: 'https://i.example.com' })).toEqual({ pictureOrigins: 'PARLEY_PICTURE_ORIGINS' })
  })

  it('agrees with resolveServiceConfig on what the environment decides', () => {
    const environment = { PARLEY_V4_URL: 'https://v4.example.com/', PARLEY_VERIFY_TOKEN: 'from-env' }
    const overridden = environmentOverrides(environment)
    const config = resolveServiceConfig({ v4Url: 'https://saved.example.com/v4', verifyToken: 'saved', appId: 'saved-app' }, environment)
    expect(overridden).toEqual({ v4Url: 'PARLEY_V4_URL', verifyToken: 'PARLEY_VERIFY_TOKEN' })
    expect(config).toMatchObject({ v4Url: 'https://v4.example.com/', verifyToken: 'from-env', appId: 'saved-app' })
  })
})
