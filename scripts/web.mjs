// `npm run web [-- --data-dir <dir> --port <n> --service-origin <url>]`: the app in a browser tab.
// Builds the renderer when it is missing or older than its sources, then runs the browser-mode
// host (src/main/browser/cli.ts) from source. `scripts/start.mjs` reuses the pieces exported here.
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

export const root = fileURLToPath(new URL('..', import.meta.url))
const builtIndex = join(root, 'out', 'renderer', 'index.html')
const rendererSources = ['src/renderer', 'src/shared', 'electron.vite.config.ts', 'svelte.config.js'].map((path) => join(root, path))

function newestChange(path) {
  if (!existsSync(path)) return 0
  const stats = statSync(path)
  if (!stats.isDirectory()) return stats.mtimeMs
  return readdirSync(path).reduce((newest, name) => Math.max(newest, newestChange(join(path, name))), stats.mtimeMs)
}

/** Builds the app (electron-vite builds renderer, main and preload together) unless out/renderer is current. */
export function ensureRendererBuilt() {
  if (existsSync(builtIndex) && statSync(builtIndex).mtimeMs >= Math.max(...rendererSources.map(newestChange))) return
  console.log('Building the app (electron-vite build)…')
  const bin = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite')
  const { status } = spawnSync(bin, ['build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' })
  if (status !== 0 || !existsSync(builtIndex)) {
    throw new Error('The build failed (see above), so there is no renderer to serve.')
  }
}

/**
 * Runs a TypeScript entry point with tsx in its own process group, so Ctrl+C reaches only this
 * script, which then stops each child once and in order.
 */
export function runTypeScript(entry, args, options = {}) {
  return spawn(process.execPath, ['--import', 'tsx', join(root, entry), ...args], {
    cwd: root,
    stdio: options.stdio ?? 'inherit',
    env: options.env ?? process.env,
    detached: process.platform !== 'win32'
  })
}

/** Resolves with the exit code once the child has exited. */
export function exited(child) {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve(child.exitCode ?? 1)
    else child.once('exit', (code) => resolve(code ?? 1))
  })
}

async function main() {
  ensureRendererBuilt()
  const host = runTypeScript('src/main/browser/cli.ts', process.argv.slice(2))
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
