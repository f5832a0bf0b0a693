// How times read in the UI: short where space is tight, complete where someone hovers.

const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' })
const weekday = new Intl.DateTimeFormat(undefined, { weekday: 'short' })
const shortDate = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short' })
const yearDate = new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', year: 'numeric' })
const calendar = new Intl.DateTimeFormat(undefined, { dateStyle: 'long' })
const longDate = new Intl.DateTimeFormat(undefined, { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' })
const full = new Intl.DateTimeFormat(undefined, { dateStyle: 'full', timeStyle: 'short' })

function startOfDay(date: Date): number {
  return new Date(date.getFullYear(), date.getMonth(), date.getDate()).getTime()
}

function daysAgo(seconds: number, now: Date): number {
  return Math.round((startOfDay(now) - startOfDay(new Date(seconds * 1000))) / 86_400_000)
}

/** For the conversation list: "14:05", "Yesterday", "Tue", "3 Mar". */
export function listTime(seconds: number, now = new Date()): string {
  const days = daysAgo(seconds, now)
  if (days <= 0) return clock.format(seconds * 1000)
  if (days === 1) return 'Yesterday'
  if (days < 7) return weekday.format(seconds * 1000)
  return shortDate.format(seconds * 1000)
}

/** For a search result, which may be years old: "14:05", "Yesterday", "3 Mar", "3 Mar 2021". */
export function resultTime(seconds: number, now = new Date()): string {
  if (new Date(seconds * 1000).getFullYear() === now.getFullYear()) return listTime(seconds, now)
  return yearDate.format(seconds * 1000)
}

/** A day without its weekday: "3 March 2024". */
export function calendarDay(seconds: number): string {
  return calendar.format(seconds * 1000)
}

/** For a message: the time of day; the day itself is on the divider above. */
export function messageTime(seconds: number): string {
  return clock.format(seconds * 1000)
}

/** For the divider between days in the history. */
export function dayLabel(seconds: number, now = new Date()): string {
  const days = daysAgo(seconds, now)
  if (days === 0) return 'Today'
  if (days === 1) return 'Yesterday'
  return longDate.format(seconds * 1000)
}

export function fullTime(seconds: number): string {
  return full.format(seconds * 1000)
}

export function isoTime(seconds: number): string {
  return new Date(seconds * 1000).toISOString()
}

export function sameDay(a: number, b: number): boolean {
  return startOfDay(new Date(a * 1000)) === startOfDay(new Date(b * 1000))
}
