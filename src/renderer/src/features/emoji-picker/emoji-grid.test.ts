import { describe, expect, it } from 'vitest'
import { COLUMNS, moveInGrid } from './emoji-grid'

describe('moveInGrid', () => {
  // Two groups: 10 emoji (a full row of 8 and a row of 2), then 3.
  const sizes = [10, 3]

  it('moves left and right along all the emoji, stopping at either end', () => {
    expect(moveInGrid(sizes, 0, 'left')).toBe(0)
    expect(moveInGrid(sizes, 0, 'right')).toBe(1)
    expect(moveInGrid(sizes, 9, 'right')).toBe(10)
    expect(moveInGrid(sizes, 12, 'right')).toBe(12)
  })

  it('moves down a row in the same column, to the last emoji of a shorter row, then into the next group', () => {
    expect(COLUMNS).toBe(8)
    expect(moveInGrid(sizes, 1, 'down')).toBe(9)
    expect(moveInGrid(sizes, 5, 'down')).toBe(9)
    expect(moveInGrid(sizes, 9, 'down')).toBe(11)
    expect(moveInGrid(sizes, 8, 'down')).toBe(10)
    // Column 5 of a group of three: its last.
    expect(moveInGrid([6, 3], 5, 'down')).toBe(8)
    expect(moveInGrid(sizes, 11, 'down')).toBe(11)
  })

  it('moves up a row in the same column, into the last row of the group above at its top', () => {
    expect(moveInGrid(sizes, 9, 'up')).toBe(1)
    expect(moveInGrid(sizes, 10, 'up')).toBe(8)
    expect(moveInGrid(sizes, 12, 'up')).toBe(9)
    expect(moveInGrid(sizes, 3, 'up')).toBe(3)
  })

  it('stays put when there is nothing to move through', () => {
    expect(moveInGrid([], 0, 'down')).toBe(0)
  })
})
