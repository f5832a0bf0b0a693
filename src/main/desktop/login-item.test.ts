import { beforeEach, describe, expect, it, vi } from 'vitest'
import { LoginItem, offersStartAtLogin } from './login-item'

const electron = vi.hoisted(() => ({
  openAtLogin: false,
  setLoginItemSettings: vi.fn((settings: { openAtLogin: boolean }) => {
    electron.openAtLogin = settings.openAtLogin
  }),
  getLoginItemSettings: vi.fn(() => ({ openAtLogin: electron.openAtLogin }))
}))

vi.mock('electron', () => ({
  app: { setLoginItemSettings: electron.setLoginItemSettings, getLoginItemSettings: electron.getLoginItemSettings }
}))

beforeEach(() => {
  electron.openAtLogin = false
  electron.setLoginItemSettings.mockClear()
  electron.getLoginItemSettings.mockClear()
})

describe('offersStartAtLogin', () => {
  it('is offered by a packaged app on macOS and Windows only', () => {
    expect(offersStartAtLogin('darwin', true)).toBe(true)
    expect(offersStartAtLogin('win32', true)).toBe(true)
    expect(offersStartAtLogin('linux', true)).toBe(false)
    expect(offersStartAtLogin('freebsd', true)).toBe(false)
    expect(offersStartAtLogin('win32', false)).toBe(false)
  })
})

describe('LoginItem', () => {
  it('turns the login item on and off as the setting says', () => {
    const item = new LoginItem()
    item.follow(true)
    expect(electron.setLoginItemSettings).toHaveBeenLastCalledWith({ openAtLogin: true })
    expect(item.enabled).toBe(true)
    item.follow(false)
    expect(electron.setLoginItemSettings).toHaveBeenLastCalledWith({ openAtLogin: false })
    expect(item.enabled).toBe(false)
  })

  it('does not ask the system again while the setting stays the same', () => {
    const item = new LoginItem()
    item.follow(true)
    item.follow(true)
    expect(electron.setLoginItemSettings).toHaveBeenCalledTimes(1)
    expect(electron.getLoginItemSettings).toHaveBeenCalledTimes(1)
  })

  it('changes nothing where the system already does as the setting says', () => {
    electron.openAtLogin = true
    new LoginItem().follow(true)
    expect(electron.setLoginItemSettings).not.toHaveBeenCalled()
  })

  it('reads what the system does now, which the user may have changed outside the app', () => {
    const item = new LoginItem()
    expect(item.enabled).toBe(false)
    electron.openAtLogin = true
    expect(item.enabled).toBe(true)
  })
})
