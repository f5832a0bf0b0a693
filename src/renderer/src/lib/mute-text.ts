// How a mute reads in the UI, and whether it is still in force. Main ends mutes on time and says
// so, but a list drawn a minute ago must not claim a mute that has just run out.
import type { Mute } from '@shared/attention'

const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' })
const dayAndClock = new Intl.DateTimeFormat(undefined, { weekday: 'short', hour: 'numeric', minute: '2-digit' })
const dateAndClock = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' })

const DAY_MS = 86_400_000

/** `now` and `until` in Unix milliseconds. */
export function isMuted(mute: Mute | null, now: number): boolean {
  return mute !== null && (mute.until === null || now < mute.until)
}

/**
 * When a mute ends, as short as stays unambiguous: "14:30" today, "tomorrow 08:00", "Fri 08:00"
 * within the week, a date beyond. `null` for a mute that lasts until it is turned off.
 */
export function muteEnd(until: number | null, now: number): string | null {
  if (until === null) return null
  const days = Math.round((startOfDay(until) - startOfDay(now)) / DAY_MS)
  if (days <= 0) return clock.format(until)
  if (days === 1) return `tomorrow ${clock.format(until)}`
  if (days < 7) return dayAndClock.format(until)
  return dateAndClock.format(until)
}

/** "Notifications muted until 14:30", or just "Notifications muted" until turned back on. */
export function globalMuteText(mute: Mute, now: number): string {
  const end = muteEnd(mute.until, now)
  return end === null ? 'Notifications muted' : `Notifications muted until ${end}`
}

/** For one conversation: "Muted until 14:30", or "Muted". */
export function conversationMuteText(mute: Mute, now: number): string {
  const end = muteEnd(mute.until, now)
  return end === null ? 'Muted' : `Muted until ${end}`
}

function startOfDay(ms: number): number {
  const date = new Date(ms)
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()
}
