// When a mute ends, and whether one is still in force. Pure: the caller passes the time.
import type { Mute, MuteDuration } from '@shared/attention'

const HOUR_MS = 60 * 60 * 1000
/**
 * How much longer the service's mute of a group may last than the end chosen here: MU1 counts
 * whole minutes from the service's own clock, rounded up so it never ends early, and the request
 * takes a moment to arrive.
 */
const SERVICE_MUTE_SLACK_MS = 2 * 60 * 1000
/** "Until tomorrow" ends at this hour of local time. */
const MORNING_HOUR = 8

/**
 * The mute a choice makes at `now` (Unix ms). "Until tomorrow" ends at the next 08:00 local time:
 * muted at 23:00 or at 01:00, the morning after the night in between.
 */
export function muteFor(duration: MuteDuration, now: number): Mute {
  switch (duration) {
    case 'oneHour':
      return { until: now + HOUR_MS }
    case 'eightHours':
      return { until: now + 8 * HOUR_MS }
    case 'untilTomorrow':
      return { until: nextMorning(now) }
    case 'untilTurnedOn':
      return { until: null }
  }
}

/** The mute if it is still in force at `now`, else null: a mute ends exactly at its `until`. */
export function inForce(mute: Mute | null, now: number): Mute | null {
  if (mute === null) return null
  return mute.until === null || now < mute.until ? mute : null
}

/**
 * A group's mute from what the service says (muted or not: it shows no end time) and the end this
 * device chose when it muted the group (undefined when it did not). The service's word decides
 * whether; the end chosen here says until when, as long as it can still be the same mute: an end
 * well past while the service still says muted means the group was muted again elsewhere, with
 * an end this device cannot know, so it reads as a mute with no end.
 */
export function groupMute(mutedOnService: boolean, endChosenHere: number | undefined, now: number): Mute | null {
  if (!mutedOnService) return null
  if (endChosenHere !== undefined && now < endChosenHere + SERVICE_MUTE_SLACK_MS) return { until: endChosenHere }
  return { until: null }
}

function nextMorning(now: number): number {
  const morning = new Date(now)
  morning.setHours(MORNING_HOUR, 0, 0, 0)
  if (morning.getTime() <= now) {
    // The next day's 08:00, set again after the date so a clock change overnight cannot shift it.
    morning.setDate(morning.getDate() + 1)
    morning.setHours(MORNING_HOUR, 0, 0, 0)
  }
  return morning.getTime()
}
