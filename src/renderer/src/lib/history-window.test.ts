import { describe, expect, it } from 'vitest'
import { HistoryIds, HistoryIndexer, MAX_ROWS, STEP_ROWS, windowRows, type Identified } from './history-window'

const ids = (...names: string[]): Identified[] => names.map((id) => ({ id }))
const range = (from: number, to: number): Identified[] => Array.from({ length: to - from }, (_, index) => ({ id: `m${from + index}` }))

/** Every id's index, and every index's id, as a fresh index of the same messages has them. */
function expectIndexes(history: HistoryIds, messages: readonly Identified[]): void {
  expect(history.length).toBe(messages.length)
  messages.forEach((message, index) => {
    expect(history.indexOf(message.id)).toBe(index)
    expect(history.at(index)).toBe(message.id)
  })
}

describe('HistoryIds', () => {
  it('says where each message stands, and nothing for one it does not hold', () => {
    const history = new HistoryIds(ids('a', 'b', 'c'))
    expectIndexes(history, ids('a', 'b', 'c'))
    expect(history.indexOf('z')).toBeUndefined()
    expect(history.indexOf(null)).toBeUndefined()
  })

  it('clamps an index into the history, and has no id at all when empty', () => {
    const history = new HistoryIds(ids('a', 'b'))
    expect(history.at(-3)).toBe('a')
    expect(history.at(9)).toBe('b')
    expect(new HistoryIds([]).at(0)).toBeNull()
  })
})

describe('HistoryIndexer', () => {
  it('indexes an older page put on top, arrivals at the bottom, and both at once', () => {
    const indexer = new HistoryIndexer()
    indexer.index(range(100, 200))
    expectIndexes(indexer.index(range(0, 200)), range(0, 200))
    expectIndexes(indexer.index(range(0, 203)), range(0, 203))
    expectIndexes(indexer.index([...range(-50, 0), ...range(0, 203), ...range(203, 205)]), range(-50, 205))
  })

  it('leaves the history it grew from as it was', () => {
    const indexer = new HistoryIndexer()
    const before = indexer.index(ids('c', 'd'))
    indexer.index(ids('a', 'b', 'c', 'd', 'e'))
    expectIndexes(before, ids('c', 'd'))
    expect(before.indexOf('a')).toBeUndefined()
    expect(before.indexOf('e')).toBeUndefined()
  })

  it('indexes afresh what is not a growth at the ends: a message gone, an order changed', () => {
    const indexer = new HistoryIndexer()
    indexer.index(ids('a', 'b', 'c'))
    for (const messages of [ids('a', 'c'), ids('x', 'a', 'c'), ids('b', 'a', 'c'), ids('q')]) expectIndexes(indexer.index(messages), messages)
  })

  it('answers for an id twice in the history as a fresh index does', () => {
    for (const messages of [ids('a', 'b', 'c', 'a'), ids('x', 'x', 'a', 'b', 'c')]) {
      const indexer = new HistoryIndexer()
      indexer.index(ids('a', 'b', 'c'))
      const grown = indexer.index(messages)
      const fresh = new HistoryIds(messages)
      for (const id of ['a', 'b', 'c', 'x']) expect(grown.indexOf(id)).toBe(fresh.indexOf(id))
    }
  })

  it('keeps a history made from an older one right when a newer one has grown from that one already', () => {
    const first = new HistoryIds(ids('b'))
    const grown = first.grownTo(ids('a', 'b'))
    const branch = first.grownTo(ids('b', 'c'))
    expectIndexes(grown, ids('a', 'b'))
    expectIndexes(branch, ids('b', 'c'))
    expect(grown.indexOf('c')).toBeUndefined()
  })

  it('takes the same ids in new message objects (an edit, a reaction) for the same history', () => {
    const indexer = new HistoryIndexer()
    indexer.index(ids('a', 'b'))
    expectIndexes(indexer.index(ids('a', 'b')), ids('a', 'b'))
  })
})

describe('windowRows', () => {
  it('holds rows enough to fill the view and the room above and below it at 20 px a row, and a batch to spare at each end', () => {
    expect(windowRows(522, 800)).toBe(Math.ceil((522 + 1_600) / 20) + 2 * STEP_ROWS)
    expect(windowRows(0, 800)).toBe(80 + 2 * STEP_ROWS)
  })

  it(`never holds more than ${MAX_ROWS}, however tall the view`, () => {
    expect(windowRows(4_000, 800)).toBe(MAX_ROWS)
  })
})
