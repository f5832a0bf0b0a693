import { describe, expect, it } from 'vitest'
import { opensUpward } from './menu'

const history = { top: 100, bottom: 700 }

describe('opensUpward', () => {
  it('opens below the button while the menu fits there', () => {
    expect(opensUpward({ top: 200, bottom: 230 }, 300, history)).toBe(false)
  })

  it('opens above a button near the bottom of the area that clips it', () => {
    expect(opensUpward({ top: 620, bottom: 650 }, 300, history)).toBe(true)
  })

  it('stays below when there is even less room above', () => {
    expect(opensUpward({ top: 120, bottom: 150 }, 700, history)).toBe(false)
  })
})
