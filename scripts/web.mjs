// `npm run web [-- --data-dir <dir> --port <n> --service-origin <url>]`: the app in a browser tab.
// Builds what is missing or older than its sources (the renderer, and browser mode's host into
// out/browser/), saying so, then runs the built host with plain Node: nothing is compiled at start.
// `scripts/start.mjs` reuses the pieces exported here.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export const root = fileURLToPath(new URL('..', import.meta.url))

/** Browser mode's host as `vite.browser.config.ts` builds it. */
export const builtHost = join(root, 'out', 'browser', 'cli.js')

/** The built data-folder rules, which the launcher shares with the host it starts. */
export const builtDataDir = join(root, 'out', 'browser', 'data-dir.js')

const localBin = (name) => join(root, 'node_modules', '.bin', process.platform === 'win32' ? `${name}.cmd` : name)

/**
 * What `npm start` and `npm run web` need built, each with what it is built from and how.
 * electron-vite builds main, preload and renderer together; the host is a Vite build of its own.
 */
const BUILDS = [
  {
    what: 'the app (electron-vite build)',
    output: join(root, 'out', 'renderer', 'index.html'),
    sources: ['src/renderer', 'src/shared', 'electron.vite.config.ts', 'svelte.config.js'],
    command: [localBin('electron-vite'), ['build']]
  },
  {
    what: "browser mode's host (vite build --config vite.browser.config.ts)",
    output: builtHost,
    sources: ['src/main', 'src/shared', 'vite.browser.config.ts'],
    command: [localBin('vite'), ['build', '--config', 'vite.browser.config.ts', '--logLevel', 'warn']]
  }
]

/** The newest change under a path, leaving out tests, which no build includes. */
function newestChange(path) {
  if (!existsSync(path)) return 0
  const stats = statSync(path)
  if (!stats.isDirectory()) return /\.test\.ts$/.test(path) ? 0 : stats.mtimeMs
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stats.mtimeMs)
}

/** Why a build's output needs building again, or null when it is current. */
function staleness({ output, sources }) {
  if (!existsSync(output)) return 'not built yet'
  const newestSource = Math.max(...sources.map((source) => newestChange(join(root, source))))
  return statSync(output).mtimeMs < newestSource ? 'its output is older than its sources' : null
}

/** Runs each build whose output is missing or older than its sources, saying which and why. */
function buildWhereStale(builds) {
  for (const build of builds) {
    const why = staleness(build)
    if (why === null) continue
    console.log(`Building ${build.what}: ${why}…`)
    const [command, args] = build.command
    const { status } = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
    if (status !== 0 || !existsSync(build.output)) throw new Error(`Building ${build.what} failed (see above).`)
  }
}

/** The renderer and browser mode's host, where either is missing or stale; silent when both are current. */
export function ensureBuilt() {
  buildWhereStale(BUILDS)
}

/** Only browser mode's host, whose data-folder rules `npm start` reads before it knows which app it starts. */
export function ensureHostBuilt() {
  buildWhereStale(BUILDS.slice(1))
}

function spawnGrouped(args, options) {
  // Its own process group, so Ctrl+C reaches only this script, which then stops each child once and in order.
  return spawn(process.execPath, args, {
    cwd: root,
    stdio: options.stdio ?? 'inherit',
    env: options.env ?? process.env,
    detached: process.platform !== 'win32'
  })
}

/**
 * Runs browser mode's built host. Without --enable-source-maps, which in Node 20 reads and decodes
 * every map as its module loads (some 15 MB more resident memory, measured with `npm run bench`):
 * `NODE_OPTIONS=--enable-source-maps` in the environment, which the host inherits, turns it on.
 */
export function runBuiltHost(args, options = {}) {
  return spawnGrouped([builtHost, ...args], options)
}

/** Runs a TypeScript entry point with tsx (the local service runs from its sources). */
export function runTypeScript(entry, args, options = {}) {
  return spawnGrouped(['--import', 'tsx', join(root, entry), ...args], options)
}

/** Resolves with the exit code once the child has exited. */
export function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? 1)
    else child.once('exit', (code) => resolve(code ?? 1))
  })
}

async function main() {
  ensureBuilt()
  const host = runBuiltHost(process.argv.slice(2))
  const stop = () => host.kill('SIGTERM')
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
  process.exit(await exited(host))
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error)
    process.exit(1)
  })
}
