// Cold start: Ada's app, signed in once, stopped, and started again on the same data directory:
// from the spawn of its process to a usable list of every seeded conversation in the page.
import { spawn } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { dirname, join } from 'node:path'
import type { Page } from 'playwright-core'
import { median, type PartResult } from './figures'
import { calibrate, toDriverTime } from './page-probe'
import { tracePage } from './page-trace'
import { ROOT, startAppProcess } from './processes'
import { epochNow } from './probes/records'
import { seededGroupName } from './seed'
import { staticFiles } from '../../src/main/browser/static-files'
import { openSignedIn, type Run } from './session'

/** Ada's data directory for the parts that open the seeded conversations. */
export const ADA_DATA_DIR = 'ada'

/** Signs Ada's app in on its data directory through the screens, then stops it; once a run. */
export async function signInAdaOnce(run: Run): Promise<void> {
  if (run.adaSignedIn) return
  const first = await openSignedIn(run, ADA_DATA_DIR, run.client.account('Ada'))
  await first.close()
  run.adaSignedIn = true
}

/**
 * An init script: the page time at which the Conversations list first holds every name given,
 * each an enabled button (a MutationObserver from the first script on, disconnected once seen).
 */
function listWatch(names: readonly string[]): string {
  return `(() => {
    const wanted = ${JSON.stringify(names)}
    const ready = () => {
      const list = document.querySelector('ul[aria-label="Conversations"]')
      if (!list) return false
      const shown = new Set()
      for (const button of list.querySelectorAll('button:not([disabled])')) {
        const name = /Bench \\d{3}/.exec(button.textContent)
        if (name) shown.add(name[0])
      }
      return wanted.every((name) => shown.has(name))
    }
    let resolveReady
    const whenReady = new Promise((resolve) => (resolveReady = resolve))
    Object.defineProperty(window, '__listReady', { value: whenReady })
    const observer = new MutationObserver(() => {
      if (!ready()) return
      observer.disconnect()
      resolveReady(performance.timeOrigin + performance.now())
    })
    observer.observe(document, { childList: true, subtree: true, characterData: true, attributes: true })
  })()`
}

/** What is in a data directory, with sizes: what a start can read from disk. */
function filesIn(directory: string, prefix = ''): string[] {
  return readdirSync(directory).flatMap((name) => {
    const path = join(directory, name)
    const stats = statSync(path)
    return stats.isDirectory() ? filesIn(path, `${prefix}${name}/`) : [`${prefix}${name} (${stats.size} bytes)`]
  })
}

/**
 * The floor under a start: a Node process, started as the app's is, that only loads the built
 * host's modules (`app.js` beside the host's `cli.js`: what it imports to start, and all that
 * imports, which runs nothing when loaded alone); the milliseconds from its spawn to its exit.
 */
async function loadingFloorMs(host: string): Promise<number> {
  const started = epochNow()
  const child = spawn(process.execPath, [join(dirname(host), 'app.js')], { cwd: ROOT, stdio: 'ignore' })
  await new Promise((resolve) => child.once('exit', resolve))
  return epochNow() - started
}

/** What no start can go under on this machine, each part with nothing else to do. */
export interface StartFloors {
  /** `loadingFloorMs`, three times. */
  hostMs: number[]
  /** `pageFloorMs`, the median of five. */
  pageMs: number
}

export async function startFloors(run: Run): Promise<StartFloors> {
  const hostMs: number[] = []
  for (let attempt = 0; attempt < 3; attempt++) hostMs.push(await loadingFloorMs(run.app.host))
  return { hostMs, pageMs: await pageFloorMs(run) }
}

/**
 * The page's share of the floor: a fresh browser context loading the built renderer from the
 * host's own file server with no app behind it, until its code has run (DOMContentLoaded, which
 * waits for the module script), navigation to event. The median of `times`.
 */
async function pageFloorMs(run: Run, times = 5): Promise<number> {
  const files = await staticFiles(run.app.rendererDir)
  const server = createServer((request, response) => void files.serve(request, response, {}))
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as AddressInfo
  const loads: number[] = []
  try {
    for (let attempt = 0; attempt < times; attempt++) {
      const context = await run.browser.newContext()
      const page = await context.newPage()
      const started = epochNow()
      await page.goto(`http://127.0.0.1:${port}/`, { waitUntil: 'domcontentloaded' })
      loads.push(epochNow() - started)
      await context.close()
    }
  } finally {
    server.close()
  }
  return median(loads)
}

interface ColdStart<T> {
  totalMs: number
  listeningMs: number
  /** What `afterwards` answered, once the list was ready. */
  afterwards: T
}

interface StartOptions<T> {
  /** Under the run's data root; Ada's by default. */
  dataDir?: string
  /** Where the app finds the service; the run's service by default. */
  origin?: string
  /** Something more to measure in the page once the list is ready. */
  afterwards?: (page: Page) => Promise<T>
}

/** Starts the app's process on a data directory and times it to every one of `names` listed and enabled. */
export async function startOnce<T = undefined>(run: Run, names: readonly string[], options: StartOptions<T> = {}): Promise<ColdStart<T>> {
  const context = await run.browser.newContext()
  await context.addInitScript({ content: listWatch(names) })
  // The tab is open before the process starts, as a browser already running would be.
  const page: Page = await context.newPage()
  page.on('pageerror', (error) => run.pageErrors.push(error))
  const endTrace = await tracePage(page, 'start')
  const app = await startAppProcess(join(run.dataRoot, options.dataDir ?? ADA_DATA_DIR), options.origin ?? run.service.origin, run.app)
  try {
    await page.goto(app.url)
    const readyAt = (await page.evaluate('window.__listReady')) as number
    const clock = await calibrate(page, 50)
    const ready = toDriverTime(clock, readyAt)
    const afterwards = (await options.afterwards?.(page)) as T
    await endTrace?.()
    return { totalMs: ready - app.spawnedAt, listeningMs: app.listeningAt - app.spawnedAt, afterwards }
  } finally {
    await context.close()
    await app.stop()
  }
}

export async function measureColdStart(run: Run, options: { conversations: number; starts: number }): Promise<PartResult> {
  const names = Array.from({ length: options.conversations }, (_, index) => seededGroupName(index))
  await signInAdaOnce(run)
  const directory = join(run.dataRoot, ADA_DATA_DIR)
  const settingsKeys = Object.keys(JSON.parse(readFileSync(join(directory, 'settings.json'), 'utf8')) as object)
  console.log(`cold start: Ada's app signed in once, then its process started ${options.starts} times on the same data directory`)
  console.log(`  on disk at each start: ${filesIn(directory).join(', ')}`)
  console.log(`  settings.json holds: ${settingsKeys.join(', ')}; the local store is removed before each start, so each start fetches the list`)
  const starts: ColdStart<undefined>[] = []
  for (let attempt = 0; attempt < options.starts; attempt++) {
    // Nothing stored, as before the app kept a store: the figure the cached start is read against.
    rmSync(join(directory, 'store'), { recursive: true, force: true })
    const start = await startOnce(run, names)
    starts.push(start)
    console.log(
      `  start ${attempt + 1}: ${start.totalMs.toFixed(0)} ms to every one of the ${names.length} seeded conversations listed and enabled (process listening after ${start.listeningMs.toFixed(0)} ms)`
    )
  }
  const floors = await startFloors(run)
  const floor = median(floors.hostMs)
  const pageFloor = floors.pageMs
  console.log(`  floor: a Node process that only loads the built host's modules (\`node …/out/browser/app.js\`), spawn to exit: ${floors.hostMs.map((ms) => ms.toFixed(0)).join(', ')} ms`)
  console.log(`  floor: a fresh page loading the built renderer from a file server until its code has run (no app behind it): ${pageFloor.toFixed(0)} ms (median of 5)`)
  const total = median(starts.map((start) => start.totalMs))
  return {
    figures: { cold_start_100_ms: total },
    baselines: {
      cold_start_100_ms: `process listening ${median(starts.map((start) => start.listeningMs)).toFixed(0)}; node loading the built host ${floor.toFixed(0)}; a page loading the renderer ${pageFloor.toFixed(0)}`
    }
  }
}
