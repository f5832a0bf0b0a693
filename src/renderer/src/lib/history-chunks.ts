// Cuts the drawn rows of a history into chunks of CHUNK_ROWS, each drawn as a box painted apart.
// When rows go in above the view, Chromium walks every painted box below them again (pre-paint,
// paint and layerizing, even for boxes whose painting it keeps): a chunk of ten rows is one box to
// walk, not ten. At four times slower: on a static copy of the page, a frame that puts ten rows on
// top of two hundred took 26 to 38 ms with the rows in chunks, 44 to 47 with each row apart; in the
// app's throttled scroll to the top, the page's main thread worked 42 ms a frame, from 47 (traced).
//
// A chunk holds the same messages for as long as the history is drawn: chunks are counted from one
// message (the first drawn), so older pages put on top and arrivals at the bottom leave every chunk
// as it was, and the batches of rows drawn at an edge fill chunks of their own.
import { STEP_ROWS, type HistoryIds } from './history-window'
import type { HistoryRow } from './message-groups'

/** Rows a chunk holds: two batches drawn at an edge, which so fill a chunk of their own. */
export const CHUNK_ROWS = 2 * STEP_ROWS

export interface HistoryChunk {
  /** Which chunk, counted from the anchor message's (0), older ones negative. */
  key: number
  rows: readonly HistoryRow[]
}

export class HistoryChunks {
  /** The message chunk 0 starts at. */
  #anchorId: string | null = null
  #last = new Map<number, HistoryChunk>()

  /**
   * The chunks of `rows`, the history's rows from index `start` on. A chunk whose rows are the very
   * rows of the last call is the very object of the last call, so that nothing in it is drawn again.
   */
  chunk(rows: readonly HistoryRow[], history: HistoryIds, start: number): HistoryChunk[] {
    let anchor = history.indexOf(this.#anchorId)
    if (anchor === undefined) {
      // The first rows drawn, or a history that no longer holds the anchor: counted afresh from here.
      this.#anchorId = history.at(start)
      anchor = start
    }
    const chunks: HistoryChunk[] = []
    for (let offset = 0; offset < rows.length; ) {
      const key = Math.floor((start + offset - anchor) / CHUNK_ROWS)
      const end = Math.min(rows.length, anchor + (key + 1) * CHUNK_ROWS - start)
      const chunkRows = rows.slice(offset, end)
      const before = this.#last.get(key)
      chunks.push(before !== undefined && sameRows(before.rows, chunkRows) ? before : { key, rows: chunkRows })
      offset = end
    }
    this.#last = new Map(chunks.map((chunk) => [chunk.key, chunk]))
    return chunks
  }
}

function sameRows(a: readonly HistoryRow[], b: readonly HistoryRow[]): boolean {
  return a.length === b.length && a.every((row, index) => row === b[index])
}
