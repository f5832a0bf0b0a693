import { describe, expect, it } from 'vitest'
import type { AddressCheck, ServiceSettings } from '../../shared/service-settings'
import { localServiceConfig } from '../api/service-config'
import type { Log } from '../log/log'
import { ServiceSettingsControl, type SavedServiceSettings } from './service-settings-control'

const silent: Log = { info: () => undefined, warn: () => undefined, error: () => undefined }
const FIRST = localServiceConfig('http://127.0.0.1:8080')
const SECOND = localServiceConfig('http://localhost:9090')

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

  it('keeps the saved value of a setting the environment decides, and saves none where there was none', async () => {
    const saved = savedIn({ appId: 'saved-app' })
    const environment = { PARLEY_APP_ID: 'kiosk', PARLEY_VERIFY_TOKEN: 'from-env' }
    const control = new ServiceSettingsControl({ initial: { ...FIRST, appId: 'kiosk', verifyToken: 'from-env' }, log: silent, saved, environment })
    const { view } = await control.save({ ...SECOND, appId: 'typed', verifyToken: 'typed' }, null)
    expect(saved.value).toEqual({ ...withoutKey(SECOND, 'verifyToken'), appId: 'saved-app' })
    expect(view.settings).toEqual({ ...SECOND, appId: 'kiosk', verifyToken: 'from-env' })
    expect(control.config).toEqual(view.settings)
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
