import { describe, expect, it } from 'vitest'
import { DEFAULT_SERVICE_CONFIG, resolveServiceConfig } from './service-config'

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
