import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import type { DesktopState } from '@shared/attention'
import { FakeIdle, MemoryPreferences } from '../../../tests/support/memory-platform'
import { Attention, IDLE_CHECK_MS } from './attention'
import { DEFAULT_SETTINGS } from '@shared/settings'

const HOUR = 60 * 60 * 1000
const START = Date.UTC(2026, 5, 10, 12, 0)

function desktopOver(preferences = new MemoryPreferences(), options: { unread?: () => number } = {}) {
  const idle = new FakeIdle()
  const announced: DesktopState[] = []
  const desktop = new Attention({
    preferences,
    idle,
    now: () => Date.now(),
    host: { tray: true, startAtLogin: true },
    unreadCount: options.unread ?? (() => 0),
    changed: (state) => void announced.push(state)
  })
  return { desktop, idle, preferences, announced }
}

describe('Attention', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(START)
  })
  afterEach(() => {
    vi.useRealTimers()
  })

  it('starts Active, unmuted, with the default settings, and announces that once on start', () => {
    const { desktop, announced } = desktopOver()
    desktop.start()
    expect(announced).toEqual([
      { status: 'active', statusIsAutomatic: false, mute: null, unreadCount: 0, settings: DEFAULT_SETTINGS, host: { tray: true, startAtLogin: true } }
    ])
    desktop.stop()
  })

  it('keeps the chosen status, the mute and the settings in the preferences, and a new run restores them', () => {
    const { desktop, preferences } = desktopOver()
    desktop.start()
    desktop.setStatus('dnd')
    desktop.mute('oneHour')
    desktop.updateSettings({ sound: false, theme: 'dark' })
    desktop.stop()
    expect(preferences.get('presence')).toBe('dnd')
    expect(preferences.get('globalMute')).toEqual({ until: START + HOUR })

    const restarted = desktopOver(preferences).desktop
    restarted.start()
    expect(restarted.state).toMatchObject({
      status: 'dnd',
      statusIsAutomatic: false,
      mute: { until: START + HOUR },
      settings: { ...DEFAULT_SETTINGS, sound: false, theme: 'dark' }
    })
    restarted.stop()
  })

  it('ends a timed mute exactly on time, forgets it, and announces the change', () => {
    const { desktop, preferences, announced } = desktopOver()
    desktop.start()
    desktop.mute('oneHour')
    expect(announced.at(-1)?.mute).toEqual({ until: START + HOUR })

    vi.advanceTimersByTime(HOUR - 1)
    expect(announced.at(-1)?.mute).toEqual({ until: START + HOUR })
    vi.advanceTimersByTime(1)
    expect(announced.at(-1)?.mute).toBeNull()
    expect(desktop.state.mute).toBeNull()
    expect(preferences.get('globalMute')).toBeNull()
    desktop.stop()
  })

  it('ends a mute kept from the last run on time after a restart', () => {
    const preferences = new MemoryPreferences()
    preferences.set('globalMute', { until: START + 30 * 60 * 1000 })
    const { desktop, announced } = desktopOver(preferences)
    desktop.start()
    expect(announced.at(-1)?.mute).toEqual({ until: START + 30 * 60 * 1000 })
    vi.advanceTimersByTime(30 * 60 * 1000)
    expect(announced.at(-1)?.mute).toBeNull()
    desktop.stop()
  })

  it('forgets on start a mute that ended while the app was closed', () => {
    const preferences = new MemoryPreferences()
    preferences.set('globalMute', { until: START - 1 })
    const { desktop, announced } = desktopOver(preferences)
    desktop.start()
    expect(announced.at(-1)?.mute).toBeNull()
    expect(preferences.get('globalMute')).toBeNull()
    desktop.stop()
  })

  it('after a sleep through the end of a mute (its timer never fired), ends it on resume', () => {
    const { desktop, preferences, announced } = desktopOver()
    desktop.start()
    desktop.mute('eightHours')
    const before = announced.length
    // The computer sleeps: the clock moves on and no timer runs.
    vi.setSystemTime(START + 9 * HOUR)
    expect(announced).toHaveLength(before)

    desktop.resumed()
    expect(announced).toHaveLength(before + 1)
    expect(announced.at(-1)?.mute).toBeNull()
    expect(preferences.get('globalMute')).toBeNull()
    desktop.stop()
  })

  it('keeps a mute with no end across any time, and a resume does not end it', () => {
    const { desktop } = desktopOver()
    desktop.start()
    desktop.mute('untilTurnedOn')
    vi.advanceTimersByTime(100 * HOUR)
    vi.setSystemTime(START + 1000 * HOUR)
    desktop.resumed()
    expect(desktop.state.mute).toEqual({ until: null })
    desktop.stop()
  })

  it('reaches a mute end further off than the longest timer in steps, and ends it on time', () => {
    const preferences = new MemoryPreferences()
    const until = START + 40 * 24 * HOUR
    preferences.set('globalMute', { until })
    const { desktop, announced } = desktopOver(preferences)
    desktop.start()
    vi.advanceTimersByTime(until - START - 1)
    expect(announced.at(-1)?.mute).toEqual({ until })
    vi.advanceTimersByTime(1)
    expect(announced.at(-1)?.mute).toBeNull()
    desktop.stop()
  })

  it('turns notifications back on by hand, and the old end then announces nothing', () => {
    const { desktop, preferences, announced } = desktopOver()
    desktop.start()
    desktop.mute('oneHour')
    expect(desktop.unmute().mute).toBeNull()
    expect(preferences.get('globalMute')).toBeNull()
    const before = announced.length
    vi.advanceTimersByTime(2 * HOUR)
    expect(announced).toHaveLength(before)
    desktop.stop()
  })

  it('a new mute replaces the old one and its end', () => {
    const { desktop, announced } = desktopOver()
    desktop.start()
    desktop.mute('oneHour')
    desktop.mute('eightHours')
    vi.advanceTimersByTime(HOUR)
    expect(desktop.state.mute).toEqual({ until: START + 8 * HOUR })
    expect(announced.at(-1)?.mute).toEqual({ until: START + 8 * HOUR })
    desktop.stop()
  })

  it('turns Away by itself at the first idle check past the limit, and Active again on activity', () => {
    const { desktop, idle, announced } = desktopOver()
    desktop.start()
    idle.seconds = 10 * 60 - 1
    vi.advanceTimersByTime(IDLE_CHECK_MS)
    expect(desktop.state.status).toBe('active')

    idle.seconds = 10 * 60
    vi.advanceTimersByTime(IDLE_CHECK_MS)
    expect(announced.at(-1)).toMatchObject({ status: 'away', statusIsAutomatic: true })

    desktop.activity()
    expect(idle.activity).toBe(1)
    expect(announced.at(-1)).toMatchObject({ status: 'active', statusIsAutomatic: false })
    desktop.stop()
  })

  it('does not keep an automatic Away over a restart', () => {
    const { desktop, idle, preferences } = desktopOver()
    desktop.start()
    idle.seconds = 3600
    vi.advanceTimersByTime(IDLE_CHECK_MS)
    expect(desktop.state.status).toBe('away')
    desktop.stop()
    expect(desktopOver(preferences).desktop.state.status).toBe('active')
  })

  it('never turns Away by itself with automatic Away off', () => {
    const { desktop, idle } = desktopOver()
    desktop.start()
    desktop.updateSettings({ autoAwayMinutes: 0 })
    idle.seconds = 24 * 3600
    vi.advanceTimersByTime(10 * IDLE_CHECK_MS)
    expect(desktop.state.status).toBe('active')
    desktop.stop()
  })

  it('applies a shorter idle limit at once, not at the next check', () => {
    const { desktop, idle } = desktopOver()
    desktop.start()
    idle.seconds = 6 * 60
    expect(desktop.updateSettings({ autoAwayMinutes: 5 })).toMatchObject({ status: 'away', statusIsAutomatic: true })
    desktop.stop()
  })

  it.each(['away', 'dnd'] as const)('leaves %s chosen by hand alone through idleness, activity and a lock', (status) => {
    const { desktop, idle } = desktopOver()
    desktop.start()
    desktop.setStatus(status)
    idle.seconds = 3600
    vi.advanceTimersByTime(IDLE_CHECK_MS)
    desktop.locked()
    desktop.activity()
    expect(desktop.state).toMatchObject({ status, statusIsAutomatic: false })
    desktop.stop()
  })

  it('turns Away on a lock, and Active again when the user is back after the resume', () => {
    const { desktop } = desktopOver()
    desktop.start()
    desktop.locked()
    expect(desktop.state).toMatchObject({ status: 'away', statusIsAutomatic: true })
    desktop.resumed()
    expect(desktop.state).toMatchObject({ status: 'active', statusIsAutomatic: false })
    desktop.stop()
  })

  it('stops checking idleness once stopped', () => {
    const { desktop, idle, announced } = desktopOver()
    desktop.start()
    desktop.stop()
    const before = announced.length
    idle.seconds = 3600
    vi.advanceTimersByTime(10 * IDLE_CHECK_MS)
    expect(announced).toHaveLength(before)
  })

  it('counts the badge from the unread count, announcing a change and nothing when it stays the same', () => {
    let unread = 0
    const { desktop, announced } = desktopOver(new MemoryPreferences(), { unread: () => unread })
    desktop.start()
    expect(announced.map((state) => state.unreadCount)).toEqual([0])
    desktop.unreadChanged()
    expect(announced).toHaveLength(1)
    unread = 3
    desktop.unreadChanged()
    desktop.unreadChanged()
    expect(announced.map((state) => state.unreadCount)).toEqual([0, 3])
  })

  it('announces an unchanged state once: choosing the same status again says nothing', () => {
    const { desktop, announced } = desktopOver()
    desktop.start()
    desktop.setStatus('away')
    desktop.setStatus('away')
    desktop.updateSettings({ sound: true })
    expect(announced.map((state) => state.status)).toEqual(['active', 'away'])
    desktop.stop()
  })

  it('on sign-out ends an automatic Away but keeps a chosen status and the settings', () => {
    const { desktop, idle } = desktopOver()
    desktop.start()
    idle.seconds = 3600
    desktop.checkIdle()
    desktop.reset()
    expect(desktop.state.status).toBe('active')
    desktop.setStatus('dnd')
    desktop.updateSettings({ sound: false })
    desktop.reset()
    expect(desktop.state).toMatchObject({ status: 'dnd', settings: { sound: false } })
    desktop.stop()
  })
})
