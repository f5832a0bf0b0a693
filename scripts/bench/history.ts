/**
 * Measures a long conversation in the real renderer (`npm run bench:history`) and prints the
 * figures; it asserts nothing.
 *
 * Starts the local service (file database, demo accounts), seeds BENCH_MESSAGES messages (10,000
 * by default) into one group over REST, signs a browser-mode app in, opens the group in Chromium
 * and scrolls its history to the very top, a step of BENCH_STEP pixels (600) a frame. Prints
 *   - the time to open: from the click on the conversation to its newest message being visible;
 *   - the frames over 50 ms while scrolling to the top (measured in the page from
 *     requestAnimationFrame deltas), with the worst frame and the frame count;
 *   - the peak number of message rows in the DOM;
 * and the same scroll once more after Jump to latest, with every page loaded, which tells the
 * cost of drawing rows from the cost of fetching pages.
 * The baseline is the same measured on a short conversation (the demo's own history) in the same
 * run, so a slow or busy machine shows up in it too.
 *
 * Builds the renderer first (`electron-vite build`) unless BENCH_SKIP_BUILD=1.
 */
import { spawnSync } from 'node:child_process'
import { cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import type { Locator, Page } from 'playwright-core'
import { scrollToTop, seedHistory, seededText, signInOutsideTests, type ScrollToTopReport } from '../../tests/e2e/long-history'
import { conversation, EndToEnd, FIRST_GROUP } from '../../tests/e2e/support'

const MESSAGES = Number(process.env['BENCH_MESSAGES'] ?? 10_000)
const STEP = Number(process.env['BENCH_STEP'] ?? 600)
const LONG_GROUP = 'Launch Team'
const SHORT_GROUP = FIRST_GROUP
const SCROLL_TIMEOUT_MS = 10 * 60_000

interface Measured {
  label: string
  openMs: number
  scroll: ScrollToTopReport
}

/** Opens a conversation and waits until its newest message is visible, then scrolls it to the top. */
async function measure(page: Page, label: string, group: string, newest: (page: Page) => Locator): Promise<Measured> {
  const started = performance.now()
  await conversation(page, group).click()
  await newest(page).waitFor({ state: 'visible', timeout: 60_000 })
  const openMs = performance.now() - started
  const scroll = await scrollToTop(page, { step: STEP, collect: false, timeoutMs: SCROLL_TIMEOUT_MS })
  return { label, openMs, scroll }
}

function row(measured: Measured): string {
  const { label, openMs, scroll } = measured
  return [
    label.padEnd(34),
    `${openMs.toFixed(0).padStart(7)} ms`,
    `${String(scroll.longFrames).padStart(6)} / ${String(scroll.frames).padEnd(6)}`,
    `${scroll.worstFrameMs.toFixed(0).padStart(7)} ms`,
    String(scroll.peakRows).padStart(9),
    `${(scroll.elapsedMs / 1000).toFixed(1).padStart(7)} s`,
    scroll.reachedTop ? 'yes' : 'NO (timed out)'
  ].join('  ')
}

async function main(): Promise<void> {
  if (process.env['BENCH_SKIP_BUILD'] !== '1') {
    console.log('building the renderer (electron-vite build)…')
    const build = spawnSync('npx', ['electron-vite', 'build'], { stdio: 'ignore' })
    if (build.status !== 0) throw new Error('electron-vite build failed')
  }
  console.log(`load average before: ${loadavg().map((n) => n.toFixed(2)).join(' ')} (${cpus().length} cores)`)
  const world = await EndToEnd.start()
  try {
    const seedStarted = performance.now()
    await seedHistory(world, LONG_GROUP, MESSAGES, 'Grace')
    console.log(`seeded ${MESSAGES} messages into ${LONG_GROUP} in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`)

    const { page } = await world.openApp('ada')
    await signInOutsideTests(world, page, world.account('Ada'))
    // Opened first, so the only message rows on the page are its own.
    const baseline = await measure(page, `baseline: ${SHORT_GROUP} (demo history)`, SHORT_GROUP, (on) =>
      on.locator('[aria-label="Message history"] li[data-message-id]').last()
    )
    const long = await measure(page, `${LONG_GROUP} + ${MESSAGES} messages`, LONG_GROUP, (on) =>
      on.getByRole('list', { name: 'Messages' }).getByText(seededText(MESSAGES - 1), { exact: true })
    )

    // Once more with every page already loaded: what is left is drawing rows, not fetching them.
    const jumpStarted = performance.now()
    await page.getByRole('button', { name: /Jump to latest/ }).click()
    await page.getByRole('list', { name: 'Messages' }).getByText(seededText(MESSAGES - 1), { exact: true }).waitFor({ state: 'visible' })
    const again: Measured = {
      label: '  again, every page loaded',
      openMs: performance.now() - jumpStarted,
      scroll: await scrollToTop(page, { step: STEP, collect: false, timeoutMs: SCROLL_TIMEOUT_MS })
    }

    console.log()
    console.log(
      ['conversation'.padEnd(34), 'time to open', 'frames > 50 ms', 'worst frame', 'peak rows', 'to the top', 'reached the top'].join('  ')
    )
    console.log(row(baseline))
    console.log(row(long))
    console.log(`${row(again)}   (time to open: Jump to latest)`)
    if (world.pageErrors.length > 0) console.log(`page errors: ${world.pageErrors.map((error) => error.message).join('; ')}`)
  } finally {
    await world.close()
  }
  console.log(`load average after: ${loadavg().map((n) => n.toFixed(2)).join(' ')}`)
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
