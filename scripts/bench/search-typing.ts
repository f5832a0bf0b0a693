// Typing a search as a person does: a 12-letter query at 10 letters a second into `Search messages`,
// every frame of the page timed with requestAnimationFrame meanwhile, results updating as it goes.
// Its baseline is the same letters typed into the open conversation's `Message` box, which searches
// nothing: what typing alone costs the page on this machine.
import type { Locator, Page } from 'playwright-core'

/** Twelve letters; every prefix from `long` on matches the seeded long messages, so each keystroke finds a page of results. */
export const TYPED_QUERY = 'longer lines'
const LETTERS_PER_SECOND = 10

export interface TypingFrames {
  frames: number
  /** Frames over 50 ms, the point at which typing visibly stalls. */
  longFrames: number
  worstFrameMs: number
}

// A string, not a function: tsx may wrap a compiled function in helpers the page does not have.
const START_WATCH = `() => {
  const watch = { frames: 0, longFrames: 0, worstFrameMs: 0, stopped: false }
  let last = performance.now()
  const tick = (now) => {
    if (watch.stopped) return
    const frame = now - last
    last = now
    watch.frames += 1
    if (frame > 50) watch.longFrames += 1
    watch.worstFrameMs = Math.max(watch.worstFrameMs, frame)
    requestAnimationFrame(tick)
  }
  requestAnimationFrame((now) => { last = now; requestAnimationFrame(tick) })
  window.__typingWatch = watch
}`

const STOP_WATCH = `(() => {
  const watch = window.__typingWatch
  watch.stopped = true
  return { frames: watch.frames, longFrames: watch.longFrames, worstFrameMs: watch.worstFrameMs }
})()`

/** Types `TYPED_QUERY` into `box` at the set pace and reports the page's frames until it settles. */
export async function typingFrames(page: Page, box: Locator): Promise<TypingFrames> {
  await box.fill('')
  await box.focus()
  await page.waitForTimeout(300)
  await page.evaluate(`(${START_WATCH})()`)
  await box.pressSequentially(TYPED_QUERY, { delay: 1000 / LETTERS_PER_SECOND })
  // The last letter's results come after the search's short pause.
  await page.waitForTimeout(500)
  const frames = (await page.evaluate(STOP_WATCH)) as TypingFrames
  await box.fill('')
  return frames
}

export function typingLine(label: string, frames: TypingFrames): string {
  return `  ${label.padEnd(44)} ${String(frames.longFrames).padStart(3)} frames > 50 ms of ${frames.frames}, worst ${frames.worstFrameMs.toFixed(0)} ms`
}

/** The search typed (its figure) and, as its baseline, the same letters typed in the open conversation's `Message` box. */
export async function measureSearchTyping(page: Page): Promise<{ search: TypingFrames; baseline: TypingFrames }> {
  const baseline = await typingFrames(page, page.getByRole('textbox', { name: 'Message' }))
  const searchBox = page.getByRole('searchbox', { name: 'Search messages' })
  const search = await typingFrames(page, searchBox)
  await searchBox.fill(TYPED_QUERY)
  await page.getByRole('list', { name: 'Search results' }).waitFor()
  const shown = await page.getByRole('list', { name: 'Search results' }).getByRole('button').count()
  await searchBox.press('Escape')
  console.log(`  typing “${TYPED_QUERY}” at ${LETTERS_PER_SECOND} letters a second over every kept message (${shown} results shown):`)
  console.log(typingLine('into Search messages', search))
  console.log(typingLine('baseline: into the Message box', baseline))
  return { search, baseline }
}
