import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { groupMute, inForce, muteFor } from './mute'

const HOUR = 60 * 60 * 1000

/**
 * Runs the tests of this block in a time zone of their own. Node reads TZ again whenever it is
 * assigned, so this takes effect in the test's own process; `beforeEach` checks that it did, so
 * the tests can never pass by accident in the machine's zone.
 */
function inTimeZone(zone: string, probe: { utc: number; localHour: number }): void {
  let previous: string | undefined
  beforeEach(() => {
    previous = process.env.TZ
    process.env.TZ = zone
    expect(new Date(probe.utc).getHours(), `TZ=${zone} took effect`).toBe(probe.localHour)
  })
  afterEach(() => {
    if (previous === undefined) delete process.env.TZ
    else process.env.TZ = previous
  })
}

describe('muteFor', () => {
  const now = Date.UTC(2026, 5, 10, 12, 34, 56, 789)

  it('mutes for exactly one hour or eight hours from now', () => {
    expect(muteFor('oneHour', now)).toEqual({ until: now + HOUR })
    expect(muteFor('eightHours', now)).toEqual({ until: now + 8 * HOUR })
  })

  it('mutes with no end until turned back on', () => {
    expect(muteFor('untilTurnedOn', now)).toEqual({ until: null })
  })
})

describe('muteFor untilTomorrow, in Europe/Berlin', () => {
  // 2026-06-10 12:00 UTC is 14:00 summer time in Berlin.
  inTimeZone('Europe/Berlin', { utc: Date.UTC(2026, 5, 10, 12), localHour: 14 })

  it('ends at the next morning\'s 08:00 local time when muted in the evening', () => {
    const evening = new Date(2026, 5, 10, 23, 0).getTime()
    expect(muteFor('untilTomorrow', evening)).toEqual({ until: new Date(2026, 5, 11, 8, 0).getTime() })
    expect(muteFor('untilTomorrow', evening).until).toBe(Date.UTC(2026, 5, 11, 6, 0))
  })

  it('ends at 08:00 the same day when muted after midnight: the morning after the night in between', () => {
    const night = new Date(2026, 5, 11, 1, 0).getTime()
    expect(muteFor('untilTomorrow', night).until).toBe(Date.UTC(2026, 5, 11, 6, 0))
  })

  it('ends the same day when muted a moment before 08:00, and the next day when muted at 08:00 exactly', () => {
    expect(muteFor('untilTomorrow', new Date(2026, 5, 11, 8, 0).getTime()).until).toBe(Date.UTC(2026, 5, 12, 6, 0))
    expect(muteFor('untilTomorrow', new Date(2026, 5, 11, 7, 59, 59, 999).getTime()).until).toBe(Date.UTC(2026, 5, 11, 6, 0))
  })

  it('ends at 08:00 summer time after the night the clocks go forward (8 hours from 23:00 winter time, not 9)', () => {
    // 2026-03-29 02:00 CET becomes 03:00 CEST.
    const evening = Date.UTC(2026, 2, 28, 22, 0) // 23:00 CET
    expect(new Date(evening).getHours()).toBe(23)
    const until = muteFor('untilTomorrow', evening).until
    expect(until).toBe(Date.UTC(2026, 2, 29, 6, 0)) // 08:00 CEST
    expect(new Date(until ?? 0).getHours()).toBe(8)
    expect((until ?? 0) - evening).toBe(8 * HOUR)
  })

  it('ends at 08:00 winter time after the night the clocks go back (10 hours from 23:00 summer time)', () => {
    // 2026-10-25 03:00 CEST becomes 02:00 CET.
    const evening = Date.UTC(2026, 9, 24, 21, 0) // 23:00 CEST
    const until = muteFor('untilTomorrow', evening).until
    expect(until).toBe(Date.UTC(2026, 9, 25, 7, 0)) // 08:00 CET
    expect((until ?? 0) - evening).toBe(10 * HOUR)
  })

  it('ends at 08:00 the same morning when muted in the hour the clocks go back', () => {
    const repeatedHour = Date.UTC(2026, 9, 25, 1, 30) // 02:30 CET, the second time round
    expect(muteFor('untilTomorrow', repeatedHour).until).toBe(Date.UTC(2026, 9, 25, 7, 0))
  })
})

describe('muteFor untilTomorrow, west of Greenwich', () => {
  // 2026-06-10 12:00 UTC is 08:00 daylight time in New York.
  inTimeZone('America/New_York', { utc: Date.UTC(2026, 5, 10, 12), localHour: 8 })

  it('counts 08:00 in local time, not in UTC', () => {
    const evening = Date.UTC(2026, 5, 11, 2, 0) // 22:00 on the 10th in New York
    expect(muteFor('untilTomorrow', evening).until).toBe(Date.UTC(2026, 5, 11, 12, 0))
  })
})

describe('inForce', () => {
  const until = Date.UTC(2026, 5, 10, 13, 0)

  it('holds until the last millisecond before `until`, and ends exactly at it', () => {
    expect(inForce({ until }, until - 1)).toEqual({ until })
    expect(inForce({ until }, until)).toBeNull()
    expect(inForce({ until }, until + 1)).toBeNull()
  })

  it('holds a mute with no end forever', () => {
    expect(inForce({ until: null }, Number.MAX_SAFE_INTEGER)).toEqual({ until: null })
  })

  it('reads no mute as none', () => {
    expect(inForce(null, until)).toBeNull()
  })
})

describe('groupMute', () => {
  const now = Date.UTC(2026, 5, 10, 12, 0)

  it('is no mute while the service says the group is not muted, whatever end this device remembers', () => {
    expect(groupMute(false, undefined, now)).toBeNull()
    expect(groupMute(false, now + HOUR, now)).toBeNull()
  })

  it('ends when this device chose, for a mute it made', () => {
    expect(groupMute(true, now + HOUR, now)).toEqual({ until: now + HOUR })
  })

  it('has no end this device can know when it was muted elsewhere', () => {
    expect(groupMute(true, undefined, now)).toEqual({ until: null })
  })

  it('reads as ended in the minute or two the service\'s mute outlasts the end chosen here', () => {
    const justEnded = groupMute(true, now - 30_000, now)
    expect(justEnded).toEqual({ until: now - 30_000 })
    expect(inForce(justEnded, now)).toBeNull()
  })

  it('reads as muted again elsewhere, with no end, when the end chosen here is long past', () => {
    expect(groupMute(true, now - HOUR, now)).toEqual({ until: null })
  })
})
