// When and how loudly the app may ask for your attention: your status, the global mute, the
// settings and the badge count (together the DesktopState of the contract), kept in one place that
// the tray and the in-app menus both show and drive, in either host. It keeps what must survive a
// restart in the preferences, ends a timed mute on time (and checks again when the computer wakes,
// since timers sleep with it), and turns Away by itself after idleness.
import type { DesktopState, MuteDuration, PresenceStatus } from '@shared/attention'
import type { Settings, SettingsChanges } from '@shared/settings'
import { inForce, muteFor } from './mute'
import type { IdleSource, Preferences } from './ports'
import { ACTIVE, afterIdle, afterLock, chosen, kept, type Presence } from './presence'
import { readSettings, withChanges } from './settings'

/** How often idleness is looked at: Away comes at most this late. */
export const IDLE_CHECK_MS = 15_000
/** setTimeout's longest delay; a later mute end is reached in steps. */
const LONGEST_TIMER_MS = 2 ** 31 - 1

export interface AttentionDependencies {
  preferences: Preferences
  idle: IdleSource
  /** Unix milliseconds. */
  now: () => number
  /** What this host offers. */
  host: DesktopState['host']
  /** Unread messages in conversations that are not muted. */
  unreadCount: () => number
  changed(state: DesktopState): void
}

export class Attention {
  readonly #deps: AttentionDependencies
  #presence: Presence
  #settings: Settings
  #muteTimer: ReturnType<typeof setTimeout> | null = null
  #idleTimer: ReturnType<typeof setInterval> | null = null
  /** The last state announced, so an unchanged one is not announced again. */
  #announced = ''

  constructor(deps: AttentionDependencies) {
    this.#deps = deps
    this.#presence = chosen(deps.preferences.get('presence') ?? 'active')
    this.#settings = readSettings(deps.preferences.get('settings'))
  }

  get state(): DesktopState {
    return {
      status: this.#presence.status,
      statusIsAutomatic: this.#presence.automatic,
      mute: inForce(this.#deps.preferences.get('globalMute') ?? null, this.#deps.now()),
      unreadCount: this.#deps.unreadCount(),
      settings: this.#settings,
      host: this.#deps.host
    }
  }

  get settings(): Settings {
    return this.#settings
  }

  /** Starts the idle checks and the timer of a mute kept from the last run. */
  start(): void {
    if (this.#idleTimer === null) {
      this.#idleTimer = setInterval(() => this.checkIdle(), IDLE_CHECK_MS)
      this.#idleTimer.unref?.()
    }
    this.#scheduleMuteEnd()
    this.#announce()
  }

  stop(): void {
    if (this.#idleTimer !== null) clearInterval(this.#idleTimer)
    this.#idleTimer = null
    this.#clearMuteTimer()
  }

  setStatus(status: PresenceStatus): DesktopState {
    this.#presence = chosen(status)
    this.#deps.preferences.set('presence', kept(this.#presence))
    return this.#announce()
  }

  mute(duration: MuteDuration): DesktopState {
    this.#deps.preferences.set('globalMute', muteFor(duration, this.#deps.now()))
    this.#scheduleMuteEnd()
    return this.#announce()
  }

  unmute(): DesktopState {
    this.#deps.preferences.set('globalMute', null)
    this.#clearMuteTimer()
    return this.#announce()
  }

  updateSettings(changes: SettingsChanges): DesktopState {
    this.#settings = withChanges(this.#settings, changes)
    this.#deps.preferences.set('settings', this.#settings)
    // A changed idle limit applies now, not at the next check.
    this.checkIdle()
    return this.#announce()
  }

  /** Looks at idleness: Away after the limit, Active again on activity after an automatic Away. */
  checkIdle(): void {
    this.#setPresence(afterIdle(this.#presence, this.#deps.idle.idleSeconds(), this.#settings.autoAwayMinutes))
  }

  /** The page saw input (browser mode); the system reports it itself in Electron. */
  activity(): void {
    this.#deps.idle.noteActivity()
    this.checkIdle()
  }

  /** The screen locked or the computer is going to sleep. */
  locked(): void {
    this.#setPresence(afterLock(this.#presence))
  }

  /** The computer woke or the screen unlocked: a mute may have ended while timers slept. */
  resumed(): void {
    this.#scheduleMuteEnd()
    this.checkIdle()
    this.#announce()
  }

  /** The badge count may have changed: announces the state if anything did. */
  unreadChanged(): void {
    this.#announce()
  }

  /** Signed out: status and settings belong to the device and stay; the badge empties. */
  reset(): void {
    if (this.#presence.automatic) this.#presence = ACTIVE
    this.#announce()
  }

  #setPresence(presence: Presence): void {
    if (presence.status === this.#presence.status && presence.automatic === this.#presence.automatic) return
    this.#presence = presence
    this.#announce()
  }

  #scheduleMuteEnd(): void {
    this.#clearMuteTimer()
    const mute = this.state.mute
    if (mute === null) {
      // Ended while nothing watched (the app was closed, or the computer asleep): forget it.
      if (this.#deps.preferences.get('globalMute')) this.#deps.preferences.set('globalMute', null)
      return
    }
    if (mute.until === null) return
    const wait = Math.min(Math.max(mute.until - this.#deps.now(), 0), LONGEST_TIMER_MS)
    this.#muteTimer = setTimeout(() => {
      this.#muteTimer = null
      this.#scheduleMuteEnd()
      this.#announce()
    }, wait)
    this.#muteTimer.unref?.()
  }

  #clearMuteTimer(): void {
    if (this.#muteTimer !== null) clearTimeout(this.#muteTimer)
    this.#muteTimer = null
  }

  #announce(): DesktopState {
    const state = this.state
    const serialized = JSON.stringify(state)
    if (serialized !== this.#announced) {
      this.#announced = serialized
      this.#deps.changed(state)
    }
    return state
  }
}
