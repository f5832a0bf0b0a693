import { describe, expect, it } from 'vitest'
import { firstRowInView, NEAR_BOTTOM, ScrollKeeper, type ScrollKeeperOptions } from './scroll-keeper'

const ROW_HEIGHT = 40

/**
 * A history viewport of real elements with a layout of its own, since jsdom lays nothing out:
 * rows `ROW_HEIGHT` high stacked in document order, a viewport `height` high that scrolls them.
 */
function fakeHistory(ids: string[], height = 400) {
  const viewport = document.createElement('div')
  const list = document.createElement('div')
  list.setAttribute('role', 'list')
  viewport.append(list)
  document.body.append(viewport)
  let viewportHeight = height
  let scrollTop = 0
  const rows = (): HTMLElement[] => [...list.querySelectorAll<HTMLElement>('li')]
  const scrollHeight = (): number => Math.max(rows().length * ROW_HEIGHT, viewportHeight)
  Object.defineProperties(viewport, {
    clientHeight: { get: () => viewportHeight },
    scrollHeight: { get: scrollHeight },
    scrollTop: {
      get: () => scrollTop,
      set: (value: number) => (scrollTop = Math.min(Math.max(0, value), scrollHeight() - viewportHeight))
    },
    getBoundingClientRect: { value: () => new DOMRect(0, 0, 800, viewportHeight) }
  })
  const row = (id: string): HTMLElement => {
    const item = document.createElement('li')
    item.dataset['messageId'] = id
    item.tabIndex = -1
    Object.defineProperties(item, {
      offsetHeight: { get: () => ROW_HEIGHT },
      getBoundingClientRect: { value: () => new DOMRect(0, rows().indexOf(item) * ROW_HEIGHT - scrollTop, 800, ROW_HEIGHT) }
    })
    return item
  }
  list.append(...ids.map(row))
  return {
    viewport,
    prepend: (more: string[]) => list.prepend(...more.map(row)),
    append: (more: string[]) => list.append(...more.map(row)),
    /** The message's row replaced by a new element in its place, as when a row is drawn again. */
    redraw: (id: string) => list.querySelector(`li[data-message-id="${id}"]`)?.replaceWith(row(id)),
    resize: (newHeight: number) => (viewportHeight = newHeight),
    /** Where a row stands below the viewport's top. */
    topOf: (id: string) => (list.querySelector<HTMLElement>(`li[data-message-id="${id}"]`)?.getBoundingClientRect().top ?? NaN),
    remove: () => viewport.remove()
  }
}

const ids = (from: number, count: number): string[] => Array.from({ length: count }, (_, index) => `m${from + index}`)

/** A keeper over the fake, with frames run by hand and what it reported recorded. */
function keeperOf(history: ReturnType<typeof fakeHistory>, options: Partial<ScrollKeeperOptions> = {}) {
  const frames: (() => void)[] = []
  const measured: number[] = []
  let settled = 0
  const keeper = new ScrollKeeper(() => history.viewport, {
    showsLatest: () => true,
    onMeasured: (distance) => measured.push(distance),
    onSettled: () => (settled += 1),
    requestFrame: (callback) => frames.push(callback),
    ...options
  })
  return {
    keeper,
    measured,
    settledCount: () => settled,
    queuedFrames: () => frames.length,
    runFrame: () => frames.splice(0).forEach((frame) => frame())
  }
}

describe('ScrollKeeper', () => {
  it('keeps the row the user was reading in place when rows go in above it', () => {
    const history = fakeHistory(ids(100, 50))
    const { keeper } = keeperOf(history)
    history.viewport.scrollTop = 410
    const before = history.topOf('m110')
    expect(before).toBe(-10)

    keeper.measure()
    history.prepend(ids(75, 25))
    keeper.settle()

    expect(history.topOf('m110')).toBe(before)
    expect(history.viewport.scrollTop).toBe(410 + 25 * ROW_HEIGHT)
  })

  it('keeps the newest message in view when aimed at the bottom, and reports the distance to it', () => {
    const history = fakeHistory(ids(0, 50))
    const { keeper, measured } = keeperOf(history)
    history.viewport.scrollTop = history.viewport.scrollHeight

    keeper.measure()
    expect(keeper.wasNearBottom).toBe(true)
    history.append(ids(50, 3))
    keeper.aim({ to: 'bottom' })
    keeper.settle()

    expect(history.topOf('m52')).toBe(400 - ROW_HEIGHT)
    expect(measured.at(-1)).toBe(0)
    expect(keeper.aimed).toBe(false)
  })

  it('tells a user reading the newest from one who scrolled further up than NEAR_BOTTOM', () => {
    const history = fakeHistory(ids(0, 50))
    const { keeper } = keeperOf(history)
    const bottom = history.viewport.scrollHeight - 400
    history.viewport.scrollTop = bottom - (NEAR_BOTTOM - 1)
    keeper.measure()
    expect(keeper.wasNearBottom).toBe(true)

    history.viewport.scrollTop = bottom - NEAR_BOTTOM
    keeper.measure()
    expect(keeper.wasNearBottom).toBe(false)
  })

  it('brings a requested message to the middle of the view and focuses it', () => {
    const history = fakeHistory(ids(0, 50))
    const { keeper } = keeperOf(history)
    history.viewport.scrollTop = history.viewport.scrollHeight

    keeper.aim({ to: 'message', messageId: 'm10', focus: true })
    keeper.settle()

    expect(history.topOf('m10')).toBe((400 - ROW_HEIGHT) / 2)
    expect(document.activeElement).toBe(history.viewport.querySelector('li[data-message-id="m10"]'))
    history.remove()
  })

  it('opens at the first unread message a quarter down the view, without taking the focus', () => {
    const history = fakeHistory(ids(0, 50))
    const { keeper } = keeperOf(history)
    history.viewport.scrollTop = history.viewport.scrollHeight

    keeper.aim({ to: 'message', messageId: 'm20', focus: false })
    keeper.settle()

    expect(history.topOf('m20')).toBe(100)
    expect(document.activeElement).not.toBe(history.viewport.querySelector('li[data-message-id="m20"]'))
    history.remove()
  })

  it('settles once in the next frame for every change of a burst, from the measure the first change took', () => {
    const history = fakeHistory(ids(0, 50))
    const { keeper, runFrame, queuedFrames, settledCount } = keeperOf(history)
    history.viewport.scrollTop = history.viewport.scrollHeight

    keeper.measure()
    history.append(ids(50, 1))
    keeper.aim({ to: 'bottom' })
    keeper.settleSoon()
    expect(keeper.holding).toBe(true)
    // The second arrival's measure would find the first one's row below the view: it is not taken.
    keeper.measure()
    expect(keeper.wasNearBottom).toBe(true)
    history.append(ids(51, 1))
    keeper.settleSoon()

    expect(queuedFrames()).toBe(1)
    expect(settledCount()).toBe(0)
    runFrame()
    expect(keeper.holding).toBe(false)
    expect(settledCount()).toBe(1)
    expect(history.topOf('m51')).toBe(400 - ROW_HEIGHT)
  })

  it('lets the user scrolling up before a queued settling win over it', () => {
    const history = fakeHistory(ids(0, 50))
    const { keeper, runFrame } = keeperOf(history)
    history.viewport.scrollTop = history.viewport.scrollHeight
    keeper.measure()
    history.append(ids(50, 1))
    keeper.aim({ to: 'bottom' })
    keeper.settleSoon()

    history.viewport.scrollTop = 200
    keeper.scrolled()
    expect(keeper.holding).toBe(false)
    runFrame()

    expect(history.viewport.scrollTop).toBe(200)
  })

  it('keeps a queued settling when a scroll event is not the user moving up', () => {
    const history = fakeHistory(ids(0, 50))
    const { keeper, runFrame } = keeperOf(history)
    history.viewport.scrollTop = history.viewport.scrollHeight
    keeper.measure()
    history.append(ids(50, 1))
    keeper.aim({ to: 'bottom' })
    keeper.settleSoon()

    // The browser reporting the position the last settling left: it has not moved.
    keeper.scrolled()
    expect(keeper.holding).toBe(true)
    runFrame()

    expect(history.topOf('m50')).toBe(400 - ROW_HEIGHT)
  })

  it('keeps the newest in view when the history gets shorter under someone reading them', () => {
    const history = fakeHistory(ids(0, 50))
    const { keeper, measured } = keeperOf(history)
    history.viewport.scrollTop = history.viewport.scrollHeight
    keeper.measureFromBottom()
    expect(measured.at(-1)).toBe(0)

    history.resize(300)
    keeper.measureFromBottom()

    expect(measured.at(-1)).toBe(0)
    expect(history.topOf('m49')).toBe(300 - ROW_HEIGHT)
  })

  it('leaves the place of someone reading further up alone when the history gets shorter, or the newest are not drawn', () => {
    const history = fakeHistory(ids(0, 50))
    const { keeper } = keeperOf(history)
    history.viewport.scrollTop = 400
    keeper.measureFromBottom()
    history.resize(300)
    keeper.measureFromBottom()
    expect(history.viewport.scrollTop).toBe(400)

    const notLatest = fakeHistory(ids(0, 50))
    const other = keeperOf(notLatest, { showsLatest: () => false })
    notLatest.viewport.scrollTop = notLatest.viewport.scrollHeight
    other.keeper.measureFromBottom()
    notLatest.resize(300)
    other.keeper.measureFromBottom()
    expect(notLatest.viewport.scrollTop).toBe(50 * ROW_HEIGHT - 400)
  })

  it('finds the first row in view by its bottom edge, and none in an empty history', () => {
    const history = fakeHistory(ids(0, 50))
    history.viewport.scrollTop = 100
    expect(firstRowInView(history.viewport)).toMatchObject({ messageId: 'm2', offset: -20 })
    history.viewport.scrollTop = 120
    expect(firstRowInView(history.viewport)).toMatchObject({ messageId: 'm3', offset: 0 })
    expect(firstRowInView(fakeHistory([]).viewport)).toBeNull()
  })

  it('finds the first row in view among rows drawn in chunks, and keeps it in place when a chunk goes in above', () => {
    const history = fakeHistory(ids(100, 30))
    const list = history.viewport.querySelector('[role="list"]') as HTMLElement
    const chunkOf = (rows: Element[]): HTMLElement => {
      const chunk = document.createElement('div')
      chunk.setAttribute('data-chunk', '')
      // As tall as its rows, from its first row's top.
      const first = rows[0] as HTMLElement
      Object.defineProperty(chunk, 'getBoundingClientRect', { value: () => new DOMRect(0, first.getBoundingClientRect().top, 800, rows.length * ROW_HEIGHT) })
      chunk.append(...rows)
      return chunk
    }
    const rows = [...list.children]
    list.append(chunkOf(rows.slice(0, 10)), chunkOf(rows.slice(10, 20)), chunkOf(rows.slice(20)))
    const { keeper } = keeperOf(history)
    history.viewport.scrollTop = 450

    expect(firstRowInView(history.viewport)).toMatchObject({ messageId: 'm111', offset: -10 })
    keeper.measure()
    history.prepend(ids(90, 10))
    list.prepend(chunkOf([...list.children].slice(0, 10)))
    keeper.settle()
    expect(history.topOf('m111')).toBe(-10)
  })

  it('takes no unsent message, drawn after the rows, for the first row in view', () => {
    // A viewport one row high, which can scroll every message row out of view above it.
    const history = fakeHistory(ids(0, 12), ROW_HEIGHT)
    const unsent = document.createElement('li')
    Object.defineProperty(unsent, 'getBoundingClientRect', { value: () => new DOMRect(0, 12 * ROW_HEIGHT - history.viewport.scrollTop, 800, ROW_HEIGHT) })
    history.viewport.querySelector('[role="list"]')?.append(unsent)
    history.viewport.scrollTop = 2 * ROW_HEIGHT + 1

    expect(firstRowInView(history.viewport)?.messageId).toBe('m2')
    history.viewport.scrollTop = 12 * ROW_HEIGHT
    expect(firstRowInView(history.viewport)).toBeNull()
  })

  it('keeps the row in place by its message when the row was drawn anew', () => {
    const history = fakeHistory(ids(100, 50))
    const { keeper } = keeperOf(history)
    history.viewport.scrollTop = 410

    keeper.measure()
    history.redraw('m110')
    history.prepend(ids(80, 20))
    keeper.settle()

    expect(history.topOf('m110')).toBe(-10)
  })

  it('does nothing before the history is on the page', () => {
    let settled = 0
    const keeper = new ScrollKeeper(() => undefined, {
      showsLatest: () => true,
      onMeasured: () => {},
      onSettled: () => (settled += 1)
    })
    keeper.measure()
    keeper.settle()
    keeper.scrolled()
    expect(settled).toBe(0)
  })
})
