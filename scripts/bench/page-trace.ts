// Chromium traces of a page over CDP, for finding where its time goes: with BENCH_PAGE_TRACE set to
// a folder, the parts that support it trace what they time (each cached start, the throttled
// scroll) into `<folder>/<name>-<n>.json`, Chrome's trace format (DevTools' Performance panel or
// Perfetto open it). Tracing slows the page: the figures of a traced run are not the bench's.
import { mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'

/** What is recorded: the main thread's tasks, frames and layout, with JS samples. */
const TRACE_CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'v8.execute', 'blink.user_timing', 'loading', 'toplevel', 'disabled-by-default-v8.cpu_profiler']
let tracesWritten = 0

/** Starts tracing the page when BENCH_PAGE_TRACE is set; the function returned ends it and writes the file. */
export async function tracePage(page: Page, name: string): Promise<(() => Promise<void>) | null> {
  const folder = process.env['BENCH_PAGE_TRACE']
  if (folder === undefined || folder === '') return null
  const session = await page.context().newCDPSession(page)
  const events: unknown[] = []
  session.on('Tracing.dataCollected', ({ value }: { value: unknown[] }) => events.push(...value))
  await session.send('Tracing.start', { traceConfig: { includedCategories: TRACE_CATEGORIES }, transferMode: 'ReportEvents' })
  return async () => {
    const complete = new Promise<void>((resolve) => session.once('Tracing.tracingComplete', () => resolve()))
    await session.send('Tracing.end')
    await complete
    await session.detach()
    mkdirSync(folder, { recursive: true })
    tracesWritten += 1
    const file = join(folder, `${name}-${tracesWritten}.json`)
    writeFileSync(file, JSON.stringify({ traceEvents: events }))
    console.log(`  traced the page into ${file}`)
  }
}
