/**
 * `npm run bench`: the performance suite, in one run on this machine. It measures and prints; it
 * asserts nothing (see scripts/bench/README.md for what each figure is and how it is measured).
 *
 * The service runs in its own process, each user's browser-mode app core in its own process, the
 * pages in Debian's Chromium (a browser context per user), and this driver in its own. Every Node
 * process stamps times on one clock (Unix epoch at high resolution); each page's clock is set
 * against the driver's. Prints a table of the figures beside their targets and floors, and writes
 * them to bench-results.json at the repository root.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { chromium } from 'playwright-core'
import { CHROMIUM_ARGS } from '../../tests/e2e/support'
import { FIGURES, rounded, type FigureKey, type Figures, type PartResult } from './figures'
import { measureColdStart, signInAdaOnce } from './cold-start'
import { measureLongHistory } from './history'
import { measureExport } from './export'
import { measureLatency } from './latency'
import { measureLocalStore } from './local-store'
import { measureMemory } from './memory'
import { measureSearch } from './search'
import { buildAppProbe, ROOT, startServiceProcess, type BuiltApp } from './processes'
import { seed } from './seed'
import { ServiceClient } from './service-client'
import type { Run } from './session'


const ALL_PARTS = ['latency', 'cold-start', 'long-history', 'memory', 'local-store', 'export', 'search'] as const
type Part = (typeof ALL_PARTS)[number]

function numberFrom(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number, not "${process.env[name]}"`)
  return value
}

const settings = {
  // `--parts` for the npm scripts of one part (`bench:history`), BENCH_PARTS for anyone.
  parts: ((parseArgs({ options: { parts: { type: 'string' } } }).values.parts ?? process.env['BENCH_PARTS'])?.split(',').map((part) => part.trim()) ?? [
    ...ALL_PARTS
  ]) as Part[],
  pushes: numberFrom('BENCH_PUSH_N', 500),
  sends: numberFrom('BENCH_SEND_N', 200),
  warmUp: numberFrom('BENCH_WARM_UP', 50),
  gapMs: numberFrom('BENCH_GAP_MS', 25),
  conversations: numberFrom('BENCH_CONVERSATIONS', 100),
  messagesPerConversation: numberFrom('BENCH_MESSAGES_PER_CONVERSATION', 1000),
  longMessages: numberFrom('BENCH_LONG_MESSAGES', 10_000),
  exportMessages: numberFrom('BENCH_EXPORT_MESSAGES', 100_000),
  seedConcurrency: numberFrom('BENCH_SEED_CONCURRENCY', 64),
  coldStarts: numberFrom('BENCH_COLD_STARTS', 5),
  step: numberFrom('BENCH_STEP', 600),
  openRepeats: numberFrom('BENCH_OPEN_REPEATS', 3),
  searchMessages: numberFrom('BENCH_SEARCH_MESSAGES', 1_000_000),
  skipBuild: process.env['BENCH_SKIP_BUILD'] === '1'
}

const load = (): string => loadavg().map((value) => value.toFixed(2)).join(' ')

function printTable(figures: Figures, baselines: Partial<Record<FigureKey, string>>): void {
  console.log()
  console.log(['figure'.padEnd(28), 'measured'.padStart(10), '  unit  ', 'target'.padEnd(10), 'floor / baseline'].join(' '))
  for (const [key, { target, unit }] of Object.entries(FIGURES) as [FigureKey, (typeof FIGURES)[FigureKey]][]) {
    const value = figures[key]
    if (value === undefined) continue
    console.log([key.padEnd(28), String(rounded(value)).padStart(10), ` ${unit.padEnd(6)} `, (target || '—').padEnd(10), baselines[key] ?? ''].join(' '))
  }
}

async function main(): Promise<void> {
  for (const part of settings.parts) if (!ALL_PARTS.includes(part)) throw new Error(`BENCH_PARTS: no part "${part}" (${ALL_PARTS.join(', ')})`)
  // The search part runs on a store alone: no build, no service, no browser.
  if (settings.parts.every((part) => part === 'search')) return searchOnly()
  const dataRoot = mkdtempSync(join(tmpdir(), 'parley-bench-'))
  let outDir = join(ROOT, 'out')
  if (!settings.skipBuild) {
    // Into a folder of the run's own: a build of out/ by anyone else during the run cannot pull the
    // app from under the apps, and this one cannot pull it from under theirs. The same builds as
    // `npm run build`: electron-vite's, then browser mode's host, which the app processes run.
    console.log("building the app (electron-vite build, then browser mode's host)…")
    outDir = join(dataRoot, 'out')
    // The host leaves its dependencies to node_modules, which Node looks for in the folders above it.
    symlinkSync(join(ROOT, 'node_modules'), join(dataRoot, 'node_modules'), 'dir')
    const builds: [string, string[]][] = [
      ['electron-vite', ['build', '--outDir', outDir]],
      ['vite', ['build', '--config', 'vite.browser.config.ts', '--outDir', join(outDir, 'browser')]]
    ]
    for (const [bin, args] of builds) {
      if (spawnSync(join(ROOT, 'node_modules', '.bin', bin), args, { cwd: ROOT, stdio: 'ignore' }).status === 0) continue
      rmSync(dataRoot, { recursive: true, force: true })
      throw new Error(`${bin} ${args.join(' ')} failed`)
    }
  }
  const app: BuiltApp = { host: join(outDir, 'browser', 'cli.js'), rendererDir: join(outDir, 'renderer'), probe: await buildAppProbe(join(dataRoot, 'probes')) }
  if (!existsSync(app.host)) throw new Error(`There is no built host at ${app.host}: run \`npm run build\`, or the bench without BENCH_SKIP_BUILD.`)
  const loadBefore = load()
  const service = await startServiceProcess(join(dataRoot, 'service.db'))
  const browser = await chromium.launch({ executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium', args: CHROMIUM_ARGS })
  const run: Run = { service, client: new ServiceClient(service.origin, service.attestationSecret, service.demoAccounts), browser, dataRoot, app, pageErrors: [], adaSignedIn: false }
  const cpu = cpus()
  console.log(`machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores; Node ${process.version}; Chromium ${browser.version()}`)
  console.log(`load average before: ${loadBefore}`)
  console.log(`parts: ${settings.parts.join(', ')}`)
  console.log()

  const figures: Figures = {}
  const baselines: Partial<Record<FigureKey, string>> = {}
  const add = (result: PartResult): void => {
    Object.assign(figures, result.figures)
    Object.assign(baselines, result.baselines)
    // The machine may be shared: each part's figures are read against the load they ran under.
    console.log(`load average: ${load()}`)
  }
  try {
    const has = (part: Part): boolean => settings.parts.includes(part)
    if (has('latency')) add(await measureLatency(run, settings))
    if (has('cold-start') || has('long-history') || has('memory') || has('local-store')) {
      console.log()
      // After the latency part, whose apps are stopped: a running app would receive every seeded message.
      await seed(run.client, {
        longMessages: has('long-history') || has('local-store') ? settings.longMessages : 0,
        conversations: has('cold-start') || has('memory') || has('local-store') ? settings.conversations : 0,
        messagesPerConversation: settings.messagesPerConversation,
        concurrency: settings.seedConcurrency
      })
      await signInAdaOnce(run)
    }
    if (has('cold-start')) {
      console.log()
      add(await measureColdStart(run, { conversations: settings.conversations, starts: settings.coldStarts }))
    }
    if (has('long-history')) {
      console.log()
      add(await measureLongHistory(run, { messages: settings.longMessages, step: settings.step, repeats: settings.openRepeats }))
    }
    if (has('memory')) {
      console.log()
      add(await measureMemory(run, { conversations: settings.conversations, messagesPerConversation: settings.messagesPerConversation }))
    }
    if (has('local-store')) {
      console.log()
      add(await measureLocalStore(run, { conversations: settings.conversations, messages: settings.longMessages, starts: settings.coldStarts, latency: settings }))
    }
    if (has('export')) {
      console.log()
      add(await measureExport({ messages: settings.exportMessages }))
    }
    if (has('search')) {
      console.log()
      add(await measureSearch({ messages: settings.searchMessages }))
    }
  } finally {
    await browser.close()
    await service.stop()
    rmSync(dataRoot, { recursive: true, force: true })
  }

  const loadAfter = load()
  printTable(figures, baselines)
  console.log()
  console.log(`load average before: ${loadBefore}, after: ${loadAfter} (${cpu.length} cores)`)
  if (run.pageErrors.length > 0) console.log(`page errors: ${run.pageErrors.map((error) => error.message).join('; ')}`)
  // The file always holds every figure, each a number: a partial run, or a figure without samples,
  // leaves the last full run's file alone.
  const keys = Object.keys(FIGURES) as FigureKey[]
  const missing = keys.filter((key) => !Number.isFinite(figures[key]))
  if (missing.length > 0) {
    console.log(`bench-results.json left as it was: this run has no figure for ${missing.join(', ')}`)
    return
  }
  const file = Object.fromEntries(keys.map((key) => [key, rounded(figures[key] as number)]))
  writeFileSync(join(ROOT, 'bench-results.json'), `${JSON.stringify(file, null, 2)}\n`)
  console.log(`wrote bench-results.json (${keys.length} figures)`)
}

async function searchOnly(): Promise<void> {
  const cpu = cpus()
  const loadBefore = load()
  console.log(`machine: ${cpu[0]?.model ?? 'unknown CPU'}, ${cpu.length} cores; Node ${process.version}`)
  console.log(`load average before: ${loadBefore}`)
  console.log('parts: search')
  console.log()
  const result = await measureSearch({ messages: settings.searchMessages })
  printTable(result.figures, result.baselines)
  console.log()
  console.log(`load average before: ${loadBefore}, after: ${load()} (${cpu.length} cores)`)
  console.log('bench-results.json left as it was: a run of some parts leaves it to the full run')
}

main().catch((error: unknown) => {
  console.error(error)
  process.exitCode = 1
})
