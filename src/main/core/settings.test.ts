import { describe, expect, it } from 'vitest'
import { DEFAULT_SETTINGS } from '@shared/settings'
import { readSettings, withChanges } from './settings'

describe('readSettings', () => {
  it('starts a new install from the defaults: notifications, sound and text on, Away after 10 minutes, the tray kept, no login item, the system theme, full history kept, 500 MB of pictures', () => {
    expect(readSettings(undefined)).toEqual({
      desktopNotifications: true,
      sound: true,
      showMessageText: true,
      autoAwayMinutes: 10,
      keepRunningInTray: true,
      startAtLogin: false,
      theme: 'system',
      keepFullHistory: true,
      pictureCacheLimitMb: 500
    })
    expect(DEFAULT_SETTINGS).toEqual(readSettings(undefined))
  })

  it.each([null, 'dark', 42, []])('reads a stored value that is not an object (%j) as the defaults', (stored) => {
    expect(readSettings(stored)).toEqual(DEFAULT_SETTINGS)
  })

  it('keeps every valid stored setting', () => {
    const stored = {
      desktopNotifications: false,
      sound: false,
      showMessageText: false,
      autoAwayMinutes: 0,
      keepRunningInTray: false,
      startAtLogin: true,
      theme: 'dark',
      keepFullHistory: false,
      pictureCacheLimitMb: 2000
    }
    expect(readSettings(stored)).toEqual(stored)
  })

  it('falls back to the default of each setting that does not fit, keeping the others', () => {
    const stored = { sound: false, autoAwayMinutes: 7, theme: 'purple', desktopNotifications: 'yes', startAtLogin: true, keepFullHistory: 'no', pictureCacheLimitMb: 123 }
    expect(readSettings(stored)).toEqual({ ...DEFAULT_SETTINGS, sound: false, startAtLogin: true })
  })

  it('ignores keys it does not know (a newer version\'s, say)', () => {
    expect(readSettings({ sound: false, compactMode: true })).toEqual({ ...DEFAULT_SETTINGS, sound: false })
  })

  it.each([0, 5, 10, 30] as const)('accepts %i minutes for automatic Away', (minutes) => {
    expect(readSettings({ autoAwayMinutes: minutes }).autoAwayMinutes).toBe(minutes)
  })
})

describe('withChanges', () => {
  it('changes only the settings named', () => {
    expect(withChanges(DEFAULT_SETTINGS, { theme: 'light', autoAwayMinutes: 30 })).toEqual({ ...DEFAULT_SETTINGS, theme: 'light', autoAwayMinutes: 30 })
  })

  it('leaves a setting given as undefined as it was', () => {
    const changed = withChanges({ ...DEFAULT_SETTINGS, sound: false }, { sound: undefined, showMessageText: false })
    expect(changed).toEqual({ ...DEFAULT_SETTINGS, sound: false, showMessageText: false })
    expect(Object.values(changed)).not.toContain(undefined)
  })

  it('does not change the settings it was given', () => {
    const before = { ...DEFAULT_SETTINGS }
    withChanges(before, { sound: false })
    expect(before).toEqual(DEFAULT_SETTINGS)
  })
})
