// Your own status, and how idleness moves it. Pure: the caller says how long the user has been
// idle and what the setting is; nothing here reads a clock. The rules:
// - Away comes by itself after the chosen minutes of idleness, on lock or on suspend, but only
//   over Active: it never replaces Away or Do not disturb chosen by hand.
// - An automatic Away returns to Active on the first activity; a chosen one stays.
import type { PresenceStatus } from '@shared/attention'
import type { AutoAwayMinutes } from '@shared/settings'

export interface Presence {
  status: PresenceStatus
  /** Away came from idleness: activity ends it. */
  automatic: boolean
}

export const ACTIVE: Presence = { status: 'active', automatic: false }
const AUTOMATIC_AWAY: Presence = { status: 'away', automatic: true }

export function chosen(status: PresenceStatus): Presence {
  return { status, automatic: false }
}

/** The status once the user has been idle this long, under this setting (0: never by itself). */
export function afterIdle(presence: Presence, idleSeconds: number, autoAwayMinutes: AutoAwayMinutes): Presence {
  const idleEnough = autoAwayMinutes > 0 && idleSeconds >= autoAwayMinutes * 60
  if (idleEnough) return presence.status === 'active' ? AUTOMATIC_AWAY : presence
  return presence.automatic ? ACTIVE : presence
}

/** The screen locked or the computer went to sleep: the user has plainly stepped away. */
export function afterLock(presence: Presence): Presence {
  return presence.status === 'active' ? AUTOMATIC_AWAY : presence
}

/** What a restart brings back: a status chosen by hand, not an Away the idle timer set. */
export function kept(presence: Presence): PresenceStatus {
  return presence.automatic ? 'active' : presence.status
}
