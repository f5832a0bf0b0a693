// Which stretch of a long history is drawn. Thousands of rows in the DOM make every layout and
// style pass slow, so the history draws a window of at most MAX_ROWS messages and moves it as the
// user scrolls. The window is held by message ids, not indexes, so older pages put on top and new
// arrivals at the bottom leave the drawn rows where they were.

/** The most message rows ever drawn at once. */
export const MAX_ROWS = 200
/**
 * How many of the newest messages a conversation opens with, and "Jump to latest" shows: about a
 * window's worth. Each row drawn at opening is paid before its first frame (traced in a fresh page:
 * the task that draws them took 108 ms for a hundred, 71 ms for forty; on opening a stored
 * conversation in a page in use, 33 ms of script and 10 of layout for forty). The rows above come
 * in the frames after, a batch a frame, as they do when the user scrolls towards the top (the view
 * opens near the drawn rows' top, MessageHistory's NEAR_EDGE).
 */
export const LATEST_ROWS = 24
/**
 * How many rows come in at an edge when the user scrolls towards it, at most one batch a frame.
 * Each row costs its drawing, layout and paint in the frame it comes in: with the CPU four times
 * slower, 25 rows made a frame of about 60 ms, 10 rows keep most under 50 (a fast fling then
 * outruns the drawing for a moment, and waits at the drawn rows' top, rather than stalling).
 */
export const STEP_ROWS = 10

export interface HistoryWindow {
  /** The first message drawn; null: as many as LATEST_ROWS before the last one drawn. */
  firstId: string | null
  /** The last message drawn; null: the newest, so arrivals are drawn as they come. */
  lastId: string | null
}

/** Half-open range of indexes into the history. */
export interface HistorySlice {
  start: number
  end: number
}

export const LATEST: HistoryWindow = { firstId: null, lastId: null }

/** The history's message ids in order, with each one's index. */
export class HistoryIds {
  readonly ids: readonly string[]
  readonly #indexes: Map<string, number>

  constructor(ids: readonly string[]) {
    this.ids = ids
    this.#indexes = new Map(ids.map((id, index) => [id, index]))
  }

  get length(): number {
    return this.ids.length
  }

  indexOf(id: string | null): number | undefined {
    return id === null ? undefined : this.#indexes.get(id)
  }

  /** The id at an index, clamped into the history; null for an empty history. */
  at(index: number): string | null {
    return this.ids[Math.min(Math.max(index, 0), this.ids.length - 1)] ?? null
  }
}

export function sliceOf(window: HistoryWindow, history: HistoryIds): HistorySlice {
  const lastIndex = history.indexOf(window.lastId)
  const end = lastIndex === undefined ? history.length : lastIndex + 1
  const firstIndex = history.indexOf(window.firstId)
  const start = firstIndex === undefined ? end - LATEST_ROWS : firstIndex
  return { start: Math.max(0, start, end - MAX_ROWS), end }
}

/** STEP_ROWS more rows on top, letting go of rows at the bottom beyond MAX_ROWS. */
export function widenUp(window: HistoryWindow, history: HistoryIds): HistoryWindow {
  const { start, end } = sliceOf(window, history)
  const newStart = Math.max(0, start - STEP_ROWS)
  const newEnd = Math.min(end, newStart + MAX_ROWS)
  return { firstId: history.at(newStart), lastId: newEnd >= history.length ? null : history.at(newEnd - 1) }
}

/** STEP_ROWS more rows at the bottom, letting go of rows on top beyond MAX_ROWS. */
export function widenDown(window: HistoryWindow, history: HistoryIds): HistoryWindow {
  const { start, end } = sliceOf(window, history)
  const newEnd = Math.min(history.length, end + STEP_ROWS)
  const newStart = Math.max(start, newEnd - MAX_ROWS)
  return { firstId: history.at(newStart), lastId: newEnd >= history.length ? null : history.at(newEnd - 1) }
}

/** A window with the message at `index` in its middle (or as near as the history's ends allow). */
export function around(index: number, history: HistoryIds): HistoryWindow {
  const start = Math.max(0, index - STEP_ROWS)
  const end = Math.min(history.length, index + STEP_ROWS + 1)
  return { firstId: history.at(start), lastId: end >= history.length ? null : history.at(end - 1) }
}

/** The same rows, held by their first message so that pages put on top do not move it. */
export function pinned(window: HistoryWindow, history: HistoryIds): HistoryWindow {
  return { ...window, firstId: history.at(sliceOf(window, history).start) }
}
