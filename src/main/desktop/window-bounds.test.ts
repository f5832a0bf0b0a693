import { describe, expect, it } from 'vitest'
import { DEFAULT_SIZE, restoreBounds } from './window-bounds'

const laptop = { x: 0, y: 0, width: 1440, height: 870 }
const externalOnRight = { x: 1440, y: 0, width: 2560, height: 1410 }

describe('restoreBounds', () => {
  it('restores bounds that are on a display', () => {
    const saved = { x: 100, y: 80, width: 1000, height: 700 }
    expect(restoreBounds(saved, [laptop])).toEqual(saved)
  })

  it('restores bounds on a second display while it is connected', () => {
    const saved = { x: 2000, y: 100, width: 1200, height: 800 }
    expect(restoreBounds(saved, [laptop, externalOnRight])).toEqual(saved)
    expect(restoreBounds(saved, [laptop])).toEqual(DEFAULT_SIZE)
  })

  it('falls back when the title bar would be above or beside every screen', () => {
    expect(restoreBounds({ x: 100, y: -500, width: 1000, height: 700 }, [laptop])).toEqual(DEFAULT_SIZE)
    expect(restoreBounds({ x: 1420, y: 100, width: 1000, height: 700 }, [laptop])).toEqual(DEFAULT_SIZE)
  })

  it('ignores malformed or absurd saved values', () => {
    for (const saved of [undefined, null, 'big', { x: 0, y: 0 }, { x: 0, y: 0, width: 10, height: 10 }, { x: 0.5, y: 0, width: 800, height: 600 }]) {
      expect(restoreBounds(saved, [laptop])).toEqual(DEFAULT_SIZE)
    }
  })
})
