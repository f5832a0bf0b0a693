import { describe, expect, it } from 'vitest'
import { ACTIVE, afterIdle, afterLock, chosen, kept, type Presence } from './presence'

const AUTOMATIC_AWAY: Presence = { status: 'away', automatic: true }
const TEN_MINUTES = 10 * 60

describe('afterIdle', () => {
  it('stays Active until the idle limit, and turns Away by itself exactly at it', () => {
    expect(afterIdle(ACTIVE, TEN_MINUTES - 1, 10)).toEqual(ACTIVE)
    expect(afterIdle(ACTIVE, TEN_MINUTES, 10)).toEqual(AUTOMATIC_AWAY)
  })

  it.each([5, 10, 30] as const)('counts the limit in minutes (%i)', (minutes) => {
    expect(afterIdle(ACTIVE, minutes * 60 - 1, minutes)).toEqual(ACTIVE)
    expect(afterIdle(ACTIVE, minutes * 60, minutes)).toEqual(AUTOMATIC_AWAY)
  })

  it('never turns Away by itself when the setting is 0, however long the idleness', () => {
    expect(afterIdle(ACTIVE, 365 * 24 * 3600, 0)).toEqual(ACTIVE)
  })

  it('returns to Active on activity after an automatic Away', () => {
    expect(afterIdle(AUTOMATIC_AWAY, 0, 10)).toEqual(ACTIVE)
  })

  it('returns to Active from an automatic Away once the setting is turned off', () => {
    expect(afterIdle(AUTOMATIC_AWAY, TEN_MINUTES * 10, 0)).toEqual(ACTIVE)
  })

  it('keeps an automatic Away while the user stays idle', () => {
    expect(afterIdle(AUTOMATIC_AWAY, TEN_MINUTES + 60, 10)).toEqual(AUTOMATIC_AWAY)
  })

  it.each(['away', 'dnd'] as const)('never replaces %s chosen by hand, idle or active', (status) => {
    expect(afterIdle(chosen(status), TEN_MINUTES * 10, 10)).toEqual(chosen(status))
    expect(afterIdle(chosen(status), 0, 10)).toEqual(chosen(status))
  })
})

describe('afterLock', () => {
  it('turns Active into an automatic Away, whatever the idle setting', () => {
    expect(afterLock(ACTIVE)).toEqual(AUTOMATIC_AWAY)
  })

  it.each(['away', 'dnd'] as const)('leaves %s chosen by hand alone', (status) => {
    expect(afterLock(chosen(status))).toEqual(chosen(status))
  })

  it('ends, like any automatic Away, on the next activity', () => {
    expect(afterIdle(afterLock(ACTIVE), 0, 0)).toEqual(ACTIVE)
  })
})

describe('kept', () => {
  it('keeps a status chosen by hand across a restart', () => {
    expect(kept(chosen('active'))).toBe('active')
    expect(kept(chosen('away'))).toBe('away')
    expect(kept(chosen('dnd'))).toBe('dnd')
  })

  it('does not keep an Away that idleness set: the next run starts Active', () => {
    expect(kept(AUTOMATIC_AWAY)).toBe('active')
  })
})
