import { describe, expect, it } from 'vitest'
import type { Message } from '@shared/messages'
import { message } from '../testing/fake-api'
import { CHUNK_ROWS, HistoryChunks } from './history-chunks'
import { HistoryIds, STEP_ROWS } from './history-window'
import { StableHistoryLayout } from './message-groups'

function messages(from: number, count: number): Message[] {
  return Array.from({ length: count }, (_, index) => message({ conversationId: 'g', text: `Message ${from + index}`, createdAt: 1_700_000_000 + (from + index) * 60 }))
}

/** The history as the component draws it: rows of `history[start, end)`, cut into chunks. */
function drawer() {
  const layout = new StableHistoryLayout()
  const chunking = new HistoryChunks()
  return (history: Message[], start: number, end = history.length) =>
    chunking.chunk(layout.layout(history, start, end), new HistoryIds(history), start)
}

const textsOf = (chunk: { rows: readonly { message: Message }[] } | undefined): string[] => chunk?.rows.map((row) => row.message.text ?? '') ?? []

describe('HistoryChunks', () => {
  const history = messages(0, 100)

  it(`cuts the rows drawn into chunks of ${CHUNK_ROWS}, counted from the first row drawn`, () => {
    const chunks = drawer()(history, 60)
    expect(chunks.map((chunk) => chunk.key)).toEqual([0, 1, 2, 3])
    expect(chunks.map((chunk) => chunk.rows.length)).toEqual([10, 10, 10, 10])
    expect(textsOf(chunks[0])[0]).toBe('Message 60')
    expect(textsOf(chunks[3]).at(-1)).toBe('Message 99')
  })

  it('makes the batches drawn on top chunks of their own, and hands back every other chunk as it was', () => {
    const draw = drawer()
    const before = draw(history, 60)
    const half = draw(history, 60 - STEP_ROWS)
    const after = draw(history, 60 - 2 * STEP_ROWS)
    expect(half.map((chunk) => chunk.key)).toEqual([-1, 0, 1, 2, 3])
    expect(textsOf(half[0])).toEqual(history.slice(60 - STEP_ROWS, 60).map((m) => m.text))
    expect(after.map((chunk) => chunk.key)).toEqual([-1, 0, 1, 2, 3])
    expect(textsOf(after[0])).toEqual(history.slice(50, 60).map((m) => m.text))
    after.slice(1).forEach((chunk, index) => expect(chunk).toBe(before[index]))
  })

  it('keeps its chunks when a page of older messages goes in above the rows drawn', () => {
    const draw = drawer()
    const before = draw(history, 60)
    const older = messages(-50, 50)
    const after = draw([...older, ...history], 110)
    expect(after).toEqual(before)
    after.forEach((chunk, index) => expect(chunk).toBe(before[index]))
  })

  it('puts arrivals in a chunk after the last full one, and lets go of the rows trimmed off the end', () => {
    const draw = drawer()
    const before = draw(history, 60)
    const arrivals = messages(100, 3)
    const grown = draw([...history, ...arrivals], 60)
    expect(grown.map((chunk) => chunk.rows.length)).toEqual([10, 10, 10, 10, 3])
    grown.slice(0, 4).forEach((chunk, index) => expect(chunk).toBe(before[index]))
    const trimmed = draw([...history, ...arrivals], 60, 95)
    expect(trimmed.map((chunk) => chunk.rows.length)).toEqual([10, 10, 10, 5])
    expect(trimmed[2]).toBe(before[2])
    expect(trimmed[3]).not.toBe(before[3])
  })

  it('counts afresh from the first row drawn when the history no longer holds the message it counted from', () => {
    const draw = drawer()
    draw(history, 60)
    const another = messages(500, 25)
    const chunks = draw(another, 5)
    expect(chunks.map((chunk) => chunk.rows.length)).toEqual([10, 10])
    expect(textsOf(chunks[0])[0]).toBe('Message 505')
  })
})
