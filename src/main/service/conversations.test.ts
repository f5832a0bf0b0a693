import { describe, expect, it } from 'vitest'
import { muteMinutes } from './conversations'

describe('muteMinutes', () => {
  it('rounds up to whole minutes, so the mute never ends before the one promised', () => {
    expect(muteMinutes(60_000)).toBe(1)
    expect(muteMinutes(60_001)).toBe(2)
    expect(muteMinutes(8 * 3_600_000)).toBe(480)
  })

  it('asks for at least a minute and at most a year', () => {
    expect(muteMinutes(0)).toBe(1)
    expect(muteMinutes(1)).toBe(1)
    expect(muteMinutes(2 * 365 * 24 * 3_600_000)).toBe(525_600)
  })
})
