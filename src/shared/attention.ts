// The desktop half of the app: your own status, mute, settings and the badge. Main keeps it
// (core/attention.ts) and sends it whole whenever any of it changes; the tray and the in-app menus
// both show and drive it.
import type { Settings } from './settings'

/** Your own status. The service has no presence, so it lives on this device only. */
export type PresenceStatus = 'active' | 'away' | 'dnd'

/** How long a mute lasts, as the user chose it. `untilTomorrow` ends at the next 08:00 local time. */
export type MuteDuration = 'oneHour' | 'eightHours' | 'untilTomorrow' | 'untilTurnedOn'

/** A mute in force: `until` is Unix milliseconds, or null for "until I turn it back on". */
export interface Mute {
  until: number | null
}

export interface DesktopState {
  status: PresenceStatus
  /** Away came from idleness, not from the user: any activity brings Active back. */
  statusIsAutomatic: boolean
  /** The global notification mute, or null. */
  mute: Mute | null
  /** Unread messages in conversations that are not muted: what the badge shows. */
  unreadCount: number
  settings: Settings
  /** What this host has: a tray to keep running in, a way to start at login. */
  host: { tray: boolean; startAtLogin: boolean }
}
