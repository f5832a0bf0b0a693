import { homedir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { browserModeDir, defaultDataDir, userDataDir } from './data-dir'

describe('data folders', () => {
  it('keeps browser mode inside the desktop app’s per-user folder', () => {
    const environment = { XDG_CONFIG_HOME: '/xdg', APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }
    expect(defaultDataDir(environment)).toBe(browserModeDir(userDataDir(environment)))
    expect(browserModeDir('/data')).toBe(join('/data', 'browser-mode'))
  })

  it.runIf(process.platform === 'linux')('follows XDG_CONFIG_HOME on Linux, ~/.config without it', () => {
    expect(userDataDir({ XDG_CONFIG_HOME: '/xdg' })).toBe('/xdg/Parley')
    expect(userDataDir({})).toBe(join(homedir(), '.config', 'Parley'))
  })
})
