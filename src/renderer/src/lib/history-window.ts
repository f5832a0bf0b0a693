// Which stretch of a long history is drawn. Thousands of rows in the DOM make every layout and
// style pass slow, so the history draws a window of at most MAX_ROWS messages and moves it as the
// user scrolls. The window is held by message ids, not indexes, so older pages put on top and new
// arrivals at the bottom leave the drawn rows where they were.

/** The most message rows ever drawn at once, however tall the view. */
export const MAX_ROWS = 200
/** The shortest a row can be, in CSS pixels: a line of a system event, a little under a message's. */
const SHORTEST_ROW_PX = 20
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
 * slower, 25 rows made a frame of about 60 ms; in a scroll to the top of ten thousand messages,
 * batches of 10 made frames of 29 ms (median; 48 at the 99th percentile), batches of 5 of 25 ms
 * (39). Five rows a frame is still 300 a second at 60 frames a second, more than any scroll by hand
 * reveals; a fling faster than that waits at the drawn rows' top for a moment rather than stalling.
 */
export const STEP_ROWS = 5

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

/** What a history is made of, as far as its window cares: messages in order, each with its id. */
export interface Identified {
  readonly id: string
}

/**
 * Where each message id stands, counted from a fixed origin, shared by the histories that grew from
 * one another: a page put on top takes the places before the first, arrivals those after the last,
 * and no id already in moves.
 */
interface Places {
  readonly of: Map<string, number>
  /** The history that last grew these places: only it may grow them further. */
  newest: HistoryIds | null
}

/** The history's messages in order, with each one's index by id. */
export class HistoryIds {
  readonly #messages: readonly Identified[]
  readonly #places: Places
  /** The place of this history's first message. */
  readonly #first: number

  /** Indexes `messages` afresh; `HistoryIndexer` reuses the index of the history before when it can. */
  constructor(messages: readonly Identified[], places?: { places: Places; first: number }) {
    this.#messages = messages
    if (places === undefined) {
      this.#places = { of: new Map(messages.map((message, index) => [message.id, index])), newest: null }
      this.#first = 0
    } else {
      this.#places = places.places
      this.#first = places.first
    }
    this.#places.newest = this
  }

  get length(): number {
    return this.#messages.length
  }

  indexOf(id: string | null): number | undefined {
    if (id === null) return undefined
    const place = this.#places.of.get(id)
    if (place === undefined) return undefined
    const index = place - this.#first
    // A place outside this history's is a message that came after it, to a history grown from it.
    return index >= 0 && index < this.#messages.length ? index : undefined
  }

  /** The id at an index, clamped into the history; null for an empty history. */
  at(index: number): string | null {
    return this.#messages[Math.min(Math.max(index, 0), this.#messages.length - 1)]?.id ?? null
  }

  /**
   * `messages` indexed: the very places of this history when they only add to its ends (an older
   * page on top, arrivals at the bottom), which costs the added ids alone; else afresh.
   */
  grownTo(messages: readonly Identified[]): HistoryIds {
    const before = this.#messages
    // Another history grew from this one already: its places may not be this growth's.
    if (this.#places.newest !== this || before.length === 0 || messages.length < before.length) return new HistoryIds(messages)
    const added = messages.length - before.length
    let top = 0
    while (top <= added && messages[top]?.id !== before[0]?.id) top += 1
    if (top > added) return new HistoryIds(messages)
    for (let index = 0; index < before.length; index++) if (messages[top + index]?.id !== before[index]?.id) return new HistoryIds(messages)
    const places = this.#places.of
    const onTop = messages.slice(0, top)
    const below = messages.slice(top + before.length)
    const addedIds = new Set([...onTop, ...below].map((message) => message.id))
    // An id twice in the history: its places would not say its index.
    if (addedIds.size !== added || [...addedIds].some((id) => places.has(id))) return new HistoryIds(messages)
    onTop.forEach((message, index) => places.set(message.id, this.#first - top + index))
    below.forEach((message, index) => places.set(message.id, this.#first + before.length + index))
    return new HistoryIds(messages, { places: this.#places, first: this.#first - top })
  }
}

/**
 * Indexes a history each time its messages change, from the index it made last. At every older page
 * of a long history, indexing thousands of ids afresh made a map of them all and let the last one
 * go: in a throttled scroll to the top of ten thousand messages, the collector's pauses for them
 * were among the longest frames.
 */
export class HistoryIndexer {
  #last: HistoryIds | null = null

  index(messages: readonly Identified[]): HistoryIds {
    this.#last = this.#last === null ? new HistoryIds(messages) : this.#last.grownTo(messages)
    return this.#last
  }
}

/**
 * How many rows a window holds in a view this tall, with `edgeRoom` pixels above and below it where
 * more rows come in: enough to fill all three however short the rows, and a batch to spare at each
 * end, or the window would reach both edges at once and draw at one, then at the other, for ever.
 * No more: each row drawn is walked by every frame of a scroll (layout, pre-paint, paint). In the
 * scroll to the top of ten thousand messages at four times slower, windows of 120 rows made frames
 * of 23 and 24 ms (median; 31 and 36 at the 90th percentile) against 27 (42) for 200, in turn.
 */
export function windowRows(viewportHeight: number, edgeRoom: number): number {
  return Math.min(MAX_ROWS, Math.ceil((viewportHeight + 2 * edgeRoom) / SHORTEST_ROW_PX) + 2 * STEP_ROWS)
}

export function sliceOf(window: HistoryWindow, history: HistoryIds, maxRows: number): HistorySlice {
  const lastIndex = history.indexOf(window.lastId)
  const end = lastIndex === undefined ? history.length : lastIndex + 1
  const firstIndex = history.indexOf(window.firstId)
  const start = firstIndex === undefined ? end - LATEST_ROWS : firstIndex
  return { start: Math.max(0, start, end - maxRows), end }
}

/** STEP_ROWS more rows on top, letting go of rows at the bottom beyond `maxRows`. */
export function widenUp(window: HistoryWindow, history: HistoryIds, maxRows: number): HistoryWindow {
  const { start, end } = sliceOf(window, history, maxRows)
  const newStart = Math.max(0, start - STEP_ROWS)
  const newEnd = Math.min(end, newStart + maxRows)
  return { firstId: history.at(newStart), lastId: newEnd >= history.length ? null : history.at(newEnd - 1) }
}

/** STEP_ROWS more rows at the bottom, letting go of rows on top beyond `maxRows`. */
export function widenDown(window: HistoryWindow, history: HistoryIds, maxRows: number): HistoryWindow {
  const { start, end } = sliceOf(window, history, maxRows)
  const newEnd = Math.min(history.length, end + STEP_ROWS)
  const newStart = Math.max(start, newEnd - maxRows)
  return { firstId: history.at(newStart), lastId: newEnd >= history.length ? null : history.at(newEnd - 1) }
}

/** How many rows a window opened at a message draws on each side of it, before batches come in at its edges. */
const AROUND_ROWS = 10

/** A window with the message at `index` in its middle (or as near as the history's ends allow). */
export function around(index: number, history: HistoryIds): HistoryWindow {
  const start = Math.max(0, index - AROUND_ROWS)
  const end = Math.min(history.length, index + AROUND_ROWS + 1)
  return { firstId: history.at(start), lastId: end >= history.length ? null : history.at(end - 1) }
}

/** The same rows, held by their first message so that pages put on top do not move it. */
export function pinned(window: HistoryWindow, history: HistoryIds, maxRows: number): HistoryWindow {
  return { ...window, firstId: history.at(sliceOf(window, history, maxRows).start) }
}
