// Long history: a conversation of BENCH_LONG_MESSAGES messages (10,000) in Ada's app. The time to
// open it (click → newest message in view, timed in the page), repeat opens, then a scroll from the
// bottom to the very top, a step of BENCH_STEP pixels a frame (scrollToTop of
// tests/e2e/long-history.ts): frames over 50 ms and the most message rows in the DOM; then the same
// scroll with Chromium's CPU four times slower, so that the figure says how a slow laptop fares
// whatever machine runs the bench. The baseline is the same on the demo's short `Weekend Hikers`,
// opened first.
import type { Page } from 'playwright-core'
import { scrollToTop, seededText, type ScrollToTopReport } from '../../tests/e2e/long-history'
import { conversation, FIRST_GROUP } from '../../tests/e2e/support'
import type { PartResult } from './figures'
import { timeOpen } from './open-watch'
import { LONG_GROUP } from './seed'
import { tracePage } from './page-trace'
import { openApp, type Run } from './session'
import { ADA_DATA_DIR } from './cold-start'

const SCROLL_TIMEOUT_MS = 10 * 60_000
/** How many times slower Chromium's CPU runs for the throttled scroll (CDP `Emulation.setCPUThrottlingRate`). */
const CPU_SLOWDOWN = 4

function scrollLine(label: string, scroll: ScrollToTopReport): string {
  const mainThread = scroll.mainThreadLongFrames === null ? '' : ` (${scroll.mainThreadLongFrames} with over 50 ms of the page's main thread)`
  return `  ${label.padEnd(40)} ${String(scroll.longFrames).padStart(4)} frames > 50 ms of ${scroll.frames}${mainThread}, worst ${scroll.worstFrameMs.toFixed(0)} ms, peak ${scroll.peakRows} rows, ${(scroll.elapsedMs / 1000).toFixed(1)} s to the top${scroll.reachedTop ? '' : ' (NOT reached: timed out)'}`
}

export async function measureLongHistory(run: Run, options: { messages: number; step: number; repeats: number }): Promise<PartResult> {
  const opened = await openApp(run, ADA_DATA_DIR)
  const { page } = opened
  try {
    await conversation(page, FIRST_GROUP).waitFor()
    const newest = seededText(options.messages - 1)
    const open = (name: string, text: string | null): Promise<number> => timeOpen(page, () => conversation(page, name).click(), text)
    console.log(`long history: ${LONG_GROUP} with ${options.messages} seeded messages, in Ada's app (freshly started)`)

    const baselineOpen = await open(FIRST_GROUP, null)
    const baselineScroll = await scrollToTop(page, { step: options.step, collect: false, timeoutMs: SCROLL_TIMEOUT_MS })
    console.log(`  open ${FIRST_GROUP} (baseline, the demo's history): ${baselineOpen.toFixed(1)} ms`)
    console.log(scrollLine(`scroll ${FIRST_GROUP} (baseline)`, baselineScroll))

    const firstOpen = await open(LONG_GROUP, newest)
    console.log(`  open ${LONG_GROUP}: ${firstOpen.toFixed(1)} ms (first time)`)
    const scroll = await scrollToTop(page, { step: options.step, collect: false, timeoutMs: SCROLL_TIMEOUT_MS })
    console.log(scrollLine(`scroll ${LONG_GROUP}, ${options.step} px a frame`, scroll))

    // Once more with every page already loaded: what is left is drawing rows, not fetching them.
    await timeOpen(page, () => page.getByRole('button', { name: /Jump to latest/ }).click(), newest)
    const again = await scrollToTop(page, { step: options.step, collect: false, timeoutMs: SCROLL_TIMEOUT_MS })
    console.log(scrollLine('  again, every page loaded', again))

    const repeats: number[] = []
    for (let repeat = 0; repeat < options.repeats; repeat++) {
      await open(FIRST_GROUP, null)
      repeats.push(await open(LONG_GROUP, newest))
    }
    console.log(`  open ${LONG_GROUP} again, after ${FIRST_GROUP}: ${repeats.map((ms) => ms.toFixed(1)).join(', ')} ms`)

    // The same scrolls with the CPU slowed down, the long history opened afresh so that its older
    // pages load on the way, as in the first scroll.
    await open(FIRST_GROUP, null)
    const slowBaseline = await throttled(page, () => scrollToTop(page, { step: options.step, collect: false, timeoutMs: SCROLL_TIMEOUT_MS }))
    console.log(scrollLine(`scroll ${FIRST_GROUP}, CPU ${CPU_SLOWDOWN}× slower`, slowBaseline))
    await open(LONG_GROUP, newest)
    const endTrace = await tracePage(page, 'scroll-cpu4x')
    const slow = await throttled(page, () => scrollToTop(page, { step: options.step, collect: false, timeoutMs: SCROLL_TIMEOUT_MS }))
    await endTrace?.()
    console.log(scrollLine(`scroll ${LONG_GROUP}, CPU ${CPU_SLOWDOWN}× slower`, slow))
    return {
      figures: {
        open_10k_ms: firstOpen,
        scroll_10k_long_frames: scroll.longFrames,
        scroll_10k_long_frames_cpu4x: slow.longFrames,
        dom_rows_max: scroll.peakRows
      },
      baselines: {
        open_10k_ms: `${FIRST_GROUP} ${baselineOpen.toFixed(1)}`,
        scroll_10k_long_frames: `${FIRST_GROUP} ${baselineScroll.longFrames} of ${baselineScroll.frames}`,
        scroll_10k_long_frames_cpu4x: `${FIRST_GROUP} ${slowBaseline.longFrames} of ${slowBaseline.frames}`,
        dom_rows_max: `${FIRST_GROUP} ${baselineScroll.peakRows}`
      }
    }
  } finally {
    await opened.close()
  }
}

/** Runs `work` with the page's CPU `CPU_SLOWDOWN` times slower, and the page at full speed again after. */
async function throttled<T>(page: Page, work: () => Promise<T>): Promise<T> {
  const session = await page.context().newCDPSession(page)
  try {
    await session.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN })
    return await work()
  } finally {
    await session.send('Emulation.setCPUThrottlingRate', { rate: 1 })
    await session.detach()
  }
}
