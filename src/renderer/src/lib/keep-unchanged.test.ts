import { describe, expect, it } from 'vitest'
import { keepUnchanged, sameData } from './keep-unchanged'

describe('keepUnchanged', () => {
  const byId = (item: { id: string }): string => item.id

  it('hands back the previous object of every entry whose data did not change', () => {
    const previous = [
      { id: 'a', unread: 0, preview: { text: 'hi' } },
      { id: 'b', unread: 1, preview: { text: 'yo' } }
    ]
    const next = [
      { id: 'b', unread: 2, preview: { text: 'yo' } },
      { id: 'a', unread: 0, preview: { text: 'hi' } },
      { id: 'c', unread: 0, preview: { text: 'new' } }
    ]
    const kept = keepUnchanged(previous, next, byId)
    expect(kept).toEqual(next)
    expect(kept[0]).toBe(next[0])
    expect(kept[1]).toBe(previous[0])
    expect(kept[2]).toBe(next[2])
  })
})

describe('sameData', () => {
  it('compares JSON-shaped data deeply', () => {
    expect(sameData({ a: [1, { b: null }] }, { a: [1, { b: null }] })).toBe(true)
    expect(sameData({ a: [1, 2] }, { a: [1, 2, 3] })).toBe(false)
    expect(sameData({ a: 1 }, { a: 1, b: undefined })).toBe(false)
    expect(sameData({ a: 1, b: undefined }, { a: 1, c: undefined })).toBe(false)
    expect(sameData([], {})).toBe(false)
    expect(sameData({ mute: null }, { mute: { until: 1 } })).toBe(false)
  })
})
