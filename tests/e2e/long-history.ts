// Long histories, shared by the end-to-end check (`long-history.test.ts`) and the benchmark
// (`npm run bench:history`): seeding thousands of messages through the service's REST interface,
// and scrolling a page's history to its very top while watching the DOM and the frames.
import type { Page } from 'playwright-core'
import type { EndToEnd } from './support'

/** How many sends are on their way at once while seeding. */
const SEND_CONCURRENCY = 16

/** A few lines long every seventh message, so rows differ in height as real ones do. */
export function seededText(index: number): string {
  const text = `Message ${index}`
  return index % 7 === 3 ? `${text}: ${'a longer message that wraps onto further lines, '.repeat(6).trim()}` : text
}

/** What seeding needs of the service: the end-to-end world, or the benchmark's own client. */
export type SeedingService = Pick<EndToEnd, 'account' | 'restToken' | 'get' | 'sendGroupMessage'>

/**
 * Writes `Message <from>` … `Message <from + count - 1>` into the group, in that order of ids, as
 * `senderFirstName`.
 */
export async function seedHistory(world: SeedingService, groupName: string, count: number, senderFirstName: string, from = 0): Promise<void> {
  const token = await world.restToken(world.account(senderFirstName), `seed-${senderFirstName}`)
  const groups = await world.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', token)
  const group = groups.response.find((candidate) => candidate.name === groupName)
  if (!group) throw new Error(`${senderFirstName} is not in ${groupName}`)
  const send = (index: number): Promise<void> => world.sendGroupMessage(token, group.id, seededText(index), `seed-${group.id}-${index}`)
  // Batches one after another keep the ids in the order of the texts' numbers, batch by batch.
  for (let first = from; first < from + count; first += SEND_CONCURRENCY) {
    const batch = Array.from({ length: Math.min(SEND_CONCURRENCY, from + count - first) }, (_, offset) => first + offset)
    await Promise.all(batch.map(send))
  }
}

export interface ScrollToTopReport {
  /** The history's very beginning was drawn before the time ran out. */
  reachedTop: boolean
  /** The most message rows in the DOM at any frame. */
  peakRows: number
  /** Every `Message <n>` number drawn at some frame (when asked to collect them). */
  seen: number[]
  frames: number
  /** Frames that took over 50 ms, the point at which scrolling visibly stalls. */
  longFrames: number
  worstFrameMs: number
  /**
   * Frames whose part on the page's main thread, from their first task to the end of their
   * rendering, took over 50 ms (Chromium's Long Animation Frames): the part of `longFrames` the
   * page's own code and rendering account for, without the compositor and the machine's other
   * processes. Null where the browser does not report them.
   */
  mainThreadLongFrames: number | null
  elapsedMs: number
}

// A string, not a function: tsx and vitest may wrap a compiled function in helpers (`__name`) the
// page does not have.
const SCROLL_TO_TOP_IN_PAGE = `async ({ step, collect, timeoutMs }) => {
  const viewport = document.querySelector('[role="region"][aria-label="Message history"]')
  if (!viewport) throw new Error('no message history on the page')
  const rows = () => viewport.querySelectorAll('li[data-message-id]')
  const atTop = () => [...viewport.querySelectorAll('p')].some((p) => p.textContent.includes('This is the beginning of the conversation.'))
  const seen = new Set()
  let peakRows = rows().length
  let frames = 0
  let longFrames = 0
  let worstFrameMs = 0
  const started = performance.now()
  let last = started
  let reachedTop = false
  const watchesLongFrames = PerformanceObserver.supportedEntryTypes.includes('long-animation-frame')
  let mainThreadLongFrames = watchesLongFrames ? 0 : null
  const longFramesWatch = new PerformanceObserver((list) => (mainThreadLongFrames += list.getEntries().length))
  if (watchesLongFrames) longFramesWatch.observe({ type: 'long-animation-frame' })
  while (performance.now() - started < timeoutMs) {
    viewport.scrollTop -= step
    await new Promise((resolve) => requestAnimationFrame(resolve))
    const now = performance.now()
    const frame = now - last
    last = now
    frames += 1
    if (frame > 50) longFrames += 1
    worstFrameMs = Math.max(worstFrameMs, frame)
    const drawn = rows()
    peakRows = Math.max(peakRows, drawn.length)
    if (collect) for (const row of drawn) {
      const number = /Message (\\d+)/.exec(row.textContent)
      if (number) seen.add(Number(number[1]))
    }
    if (viewport.scrollTop === 0 && atTop()) {
      reachedTop = true
      break
    }
  }
  const elapsedMs = performance.now() - started
  if (watchesLongFrames) {
    // The last frames' entries are delivered after them.
    await new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
    mainThreadLongFrames += longFramesWatch.takeRecords().length
    longFramesWatch.disconnect()
  }
  return { reachedTop, peakRows, seen: [...seen], frames, longFrames, worstFrameMs, mainThreadLongFrames, elapsedMs }
}`

/**
 * Scrolls the open conversation's history up by `step` pixels a frame until its first message is
 * drawn (or `timeoutMs` passes), measuring each frame in the page with requestAnimationFrame.
 */
export function scrollToTop(page: Page, options: { step: number; collect: boolean; timeoutMs: number }): Promise<ScrollToTopReport> {
  return page.evaluate(`(${SCROLL_TO_TOP_IN_PAGE})(${JSON.stringify(options)})`) as Promise<ScrollToTopReport>
}

/** How many message rows the page's history has in its DOM right now. */
export function drawnRows(page: Page): Promise<number> {
  return page.locator('[aria-label="Message history"] li[data-message-id]').count()
}
