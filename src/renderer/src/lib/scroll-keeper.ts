// Keeps a message history's scroll position where the reader wants it while its rows change:
// at the newest message for someone reading the newest, on the row they were reading for anyone
// else (rows drawn or older pages put in above it), on a message asked for. It measures before the
// DOM changes and settles the position after, reading the layout as seldom as it can: every read
// after a change makes the browser lay the page out there and then.

/**
 * Within this many pixels of the bottom counts as "reading the latest": arrivals are followed
 * there, and anywhere further up "Jump to latest" is offered instead, so nothing new lands out
 * of view unannounced.
 */
export const NEAR_BOTTOM = 80

/** Where the next settling should leave the scroll position, when not simply where it was. */
export type ScrollTarget = { to: 'bottom' } | { to: 'message'; messageId: string; focus: boolean }

/** A row in view, and how far below the viewport's top it stands. */
export interface RowInView {
  messageId: string
  /** The row itself: the history keeps a message's row while it stays drawn, so nothing need look for it again. */
  row: HTMLElement
  offset: number
}

export interface ScrollKeeperOptions {
  /** The history's newest messages are drawn (its window reaches the end). Must read no reactive state the caller would rerun on. */
  showsLatest: () => boolean
  /** After each measure of the distance to the newest message. */
  onMeasured: (distanceFromBottom: number) => void
  /** After each settling: the history looks whether it should draw more rows. */
  onSettled: () => void
  /** Runs a callback before the next frame is drawn. */
  requestFrame?: (callback: () => void) => void
}

export function fromBottom(element: HTMLElement): number {
  return element.scrollHeight - element.scrollTop - element.clientHeight
}

export class ScrollKeeper {
  readonly #viewport: () => HTMLElement | undefined
  readonly #options: ScrollKeeperOptions
  readonly #requestFrame: (callback: () => void) => void

  #target: ScrollTarget | null = null
  #wasNearBottom = true
  /** The first row in view and how far below the viewport's top it was, before the DOM changed. */
  #anchor: RowInView | null = null
  /** A settling of the scroll is waiting for the next frame (see `settleSoon`). */
  #settleQueued = false
  /** Until it runs, further changes keep the measure the first change took, unless the user scrolls. */
  #holding = false
  /** The scroll position that measure found. */
  #measuredScrollTop = 0
  /** The history's height when last looked at; 0 before it was laid out. */
  #knownHeight = 0
  /** The distance to the newest message the last measure found. */
  #distanceFromBottom = 0

  constructor(viewport: () => HTMLElement | undefined, options: ScrollKeeperOptions) {
    this.#viewport = viewport
    this.#options = options
    this.#requestFrame = options.requestFrame ?? ((callback) => requestAnimationFrame(callback))
  }

  /** Whether the last measure found the user reading the newest messages. */
  get wasNearBottom(): boolean {
    return this.#wasNearBottom
  }

  /** A settling is queued for the next frame, holding the measure the first change of this frame took. */
  get holding(): boolean {
    return this.#holding
  }

  /** A place for the next settling is set. */
  get aimed(): boolean {
    return this.#target !== null
  }

  /** Where the next settling leaves the scroll position. */
  aim(target: ScrollTarget): void {
    this.#target = target
  }

  /**
   * Before the DOM changes: was the user reading the latest messages, and at what? Changes within
   * one frame settle together, from where the first of them found the scroll.
   */
  measure(): void {
    const element = this.#viewport()
    if (!element || this.#holding) return
    // A change of height not reported yet is dealt with first, or this measure would take the
    // newest pushed out of view by a panel for the user scrolling away from them.
    this.#keepNewestOnResize(element)
    this.#measuredScrollTop = element.scrollTop
    this.#wasNearBottom = fromBottom(element) < NEAR_BOTTOM
    this.#anchor = firstRowInView(element)
  }

  /** Puts the scroll position where the last change wants it, or keeps the row in view where it was. */
  settle(): void {
    const element = this.#viewport()
    if (!element) return
    // A change of height first, so that where this change wants the scroll is where it stays.
    this.#keepNewestOnResize(element)
    const target = this.#target
    this.#target = null
    if (target?.to === 'bottom') element.scrollTop = element.scrollHeight
    else if (target?.to === 'message') bringIntoView(element, target.messageId, target.focus)
    else if (this.#anchor !== null) {
      const anchor = this.#anchor
      const row = anchor.row.isConnected ? anchor.row : rowOf(element, anchor.messageId)
      if (row) element.scrollTop += offsetInViewport(element, row) - anchor.offset
    }
    this.#anchor = null
    this.measureFromBottom()
    this.#options.onSettled()
  }

  /**
   * Settles in the next frame, before it is drawn, rather than at once: reading the layout straight
   * after a change makes the browser lay the page out there and then, once per message in a burst.
   * In the frame it is laid out once, and the message shows no later.
   */
  settleSoon(): void {
    this.#holding = true
    if (this.#settleQueued) return
    this.#settleQueued = true
    this.#requestFrame(() => {
      this.#settleQueued = false
      this.#holding = false
      this.settle()
    })
  }

  /**
   * The history scrolled. When the user scrolled up, away from the newest message, before a queued
   * settling ran, where they went wins. Other scroll events are not theirs: the one the last
   * settling caused (the position has not moved since), and the browser keeping the position in
   * range as rows come and go (which leaves it at the bottom).
   */
  scrolled(): void {
    const element = this.#viewport()
    if (!this.#holding || !element || element.scrollTop >= this.#measuredScrollTop || fromBottom(element) < NEAR_BOTTOM) return
    this.#holding = false
    this.#target = null
    this.#anchor = null
  }

  /** Where the newest messages are, handed to `onMeasured`. */
  measureFromBottom(): void {
    const element = this.#viewport()
    if (!element) return
    this.#keepNewestOnResize(element)
    this.#distanceFromBottom = fromBottom(element)
    this.#options.onMeasured(this.#distanceFromBottom)
  }

  /**
   * The history's box changes height when a panel opens or closes above it, the composer grows,
   * or the window is resized. Someone reading the newest messages keeps them in view; anyone else
   * keeps their place. Whatever measures first after such a change (a resize observer, a scroll,
   * an arrival) deals with it before measuring: a measure taken in between would find the newest
   * pushed out of view and take it for the user having scrolled away from them.
   */
  #keepNewestOnResize(element: HTMLElement): void {
    const height = element.clientHeight
    if (height === this.#knownHeight) return
    const laidOutBefore = this.#knownHeight > 0
    this.#knownHeight = height
    // The last measure was taken before the change: it says whether the user was reading the newest.
    if (laidOutBefore && this.#options.showsLatest() && this.#distanceFromBottom < NEAR_BOTTOM) element.scrollTop = element.scrollHeight
  }
}

function bringIntoView(element: HTMLElement, messageId: string, focus: boolean): void {
  const row = rowOf(element, messageId)
  if (!row) return
  if (focus) {
    element.scrollTop += offsetInViewport(element, row) - (element.clientHeight - row.offsetHeight) / 2
    row.focus({ preventScroll: true })
  } else {
    // The divider goes near the top, with a little of what was read above it.
    element.scrollTop += offsetInViewport(element, row) - element.clientHeight / 4
  }
}

function offsetInViewport(element: HTMLElement, row: HTMLElement): number {
  return row.getBoundingClientRect().top - element.getBoundingClientRect().top
}

/**
 * The history's list. Its children stand top to bottom: message rows, or chunks of them painted
 * apart (`data-chunk`, see history-chunks.ts), then the rows of the user's unsent messages.
 */
function listOf(element: HTMLElement): Element | null {
  return element.querySelector(':scope > [role="list"]')
}

function isChunk(element: Element): boolean {
  return element.hasAttribute('data-chunk')
}

function rowOf(element: HTMLElement, messageId: string): HTMLElement | undefined {
  for (const row of listOf(element)?.querySelectorAll<HTMLElement>('li[data-message-id]') ?? []) if (row.dataset['messageId'] === messageId) return row
  return undefined
}

/** The first message row whose bottom is below the viewport's top. */
export function firstRowInView(element: HTMLElement): RowInView | null {
  const list = listOf(element)
  if (!list) return null
  const top = element.getBoundingClientRect().top
  // The chunk (or row) first below the top, then the row first below it within that chunk.
  const child = firstBelow(list.children, top)
  const row = child !== undefined && isChunk(child) ? firstBelow(child.children, top) : child
  const messageId = row instanceof HTMLElement ? row.dataset['messageId'] : undefined
  return row instanceof HTMLElement && messageId !== undefined ? { messageId, row, offset: offsetInViewport(element, row) } : null
}

/**
 * The first of `elements` whose bottom is below `top`, anything but a message row or a chunk of them
 * (an unsent message's row) counting as below. They stand in document order, top to bottom: a binary
 * search measures a handful of them, not the hundred and more above the view at the newest message,
 * and the live collection spares a copy of them all.
 */
function firstBelow(elements: HTMLCollection, top: number): Element | undefined {
  let low = 0
  let high = elements.length
  while (low < high) {
    const middle = (low + high) >>> 1
    const element = elements[middle]
    const below = !(element instanceof HTMLElement) || (element.dataset['messageId'] === undefined && !isChunk(element)) || element.getBoundingClientRect().bottom > top
    if (below) high = middle
    else low = middle + 1
  }
  return elements[low]
}
