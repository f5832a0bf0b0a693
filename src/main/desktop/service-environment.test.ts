import { describe, expect, it } from 'vitest'
import { DEFAULT_SERVICE_CONFIG, environmentOverrides, resolveServiceConfig } from '../api/service-config'
import { serviceEnvironment } from './service-environment'

const pointedElsewhere = { PARLEY_SERVICE_ORIGIN: 'http://127.0.0.1:9999', PARLEY_APP_ID: 'someone-else', HOME: '/home/ada' }

describe('serviceEnvironment', () => {
  it('gives a packaged build no service setting from the environment, whatever it holds', () => {
    const environment = serviceEnvironment(pointedElsewhere, true)
    expect(resolveServiceConfig({}, environment)).toEqual(DEFAULT_SERVICE_CONFIG)
    expect(environmentOverrides(environment)).toEqual({})
  })

  it('lets a development run take its service from PARLEY_*, as npm start does', () => {
    const environment = serviceEnvironment(pointedElsewhere, false)
    expect(resolveServiceConfig({}, environment)).toMatchObject({ baseUrl: 'http://127.0.0.1:9999/v3', appId: 'someone-else' })
  })
})
