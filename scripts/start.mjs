// `npm start`: the local service with demo data, and the app pointed at it. The Electron window
// when the Electron binary is installed; otherwise browser mode, with a note on getting the
// binary. Ctrl+C stops everything.
//   --data-dir <dir>   where the service's database and the app's browser-mode data live
//                      (default: the per-user app data folder, e.g. ~/.config/Parley)
import { spawn, spawnSync } from 'node:child_process'
import { existsSync, mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { createRequire } from 'node:module'
import { createInterface } from 'node:readline'
import { parseArgs } from 'node:util'
import { pathToFileURL } from 'node:url'
import { builtDataDir, ensureBuilt, ensureHostBuilt, exited, root, runBuiltHost, runTypeScript } from './web.mjs'

const PREFERRED_SERVICE_PORT = 8080

// Where the data lives is decided once, for this script and browser mode alike, by the built host's code.
ensureHostBuilt()
const { userDataDir, browserModeDir } = await import(pathToFileURL(builtDataDir).href)

function portIsFree(port) {
  return new Promise((resolvePort) => {
    const probe = createServer()
    probe.once('error', () => resolvePort(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolvePort(true)))
  })
}

/** The Electron binary's path, or null where it was never downloaded (as on machines without GitHub access). */
function electronBinary() {
  try {
    const path = createRequire(import.meta.url)('electron')
    return typeof path === 'string' && existsSync(path) ? path : null
  } catch {
    return null
  }
}

const children = []

/** Starts the local service and resolves once it has said where it listens and with which attestation secret. */
function startService({ database, port }) {
  const args = ['--dev', '--seed', 'demo', '--db', database, '--port', String(port)]
  const child = runTypeScript('server/src/cli.ts', args, { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  return new Promise((resolveService, reject) => {
    let origin = null
    let verifyToken = null
    let settled = false
    const settle = (outcome) => {
      if (settled) return
      settled = true
      clearTimeout(giveUp)
      outcome()
    }
    const ready = () => settle(() => resolveService({ child, origin, verifyToken }))
    const giveUp = setTimeout(() => settle(() => reject(new Error('The local service did not start within a minute.'))), 60_000)
    createInterface({ input: child.stdout }).on('line', (line) => {
      console.log(`[service] ${line}`)
      verifyToken ??= /^attestation secret: (\S+)/.exec(line)?.[1] ?? null
      const listening = /^listening on (\S+)/.exec(line)
      if (listening) {
        origin = listening[1]
        // The secret is printed right after; an older service that does not print it uses the default.
        setTimeout(ready, 2_000)
      }
      if (origin !== null && verifyToken !== null) ready()
    })
    child.once('exit', (code) => settle(() => reject(new Error(`The local service stopped before it was ready (exit code ${code}).`))))
    child.once('error', (error) => settle(() => reject(error)))
  })
}

let stopping = false

/** Stops the children, the app before the service it talks to, each once; then this script. */
async function stop(code) {
  if (stopping) return
  stopping = true
  for (const child of [...children].reverse()) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM')
    await exited(child)
  }
  process.exit(code)
}

// The children run in their own process groups, so Ctrl+C reaches only this script, from the start.
process.on('SIGINT', () => void stop(0))
process.on('SIGTERM', () => void stop(0))

async function main() {
  const { values } = parseArgs({ options: { 'data-dir': { type: 'string' } }, strict: true })
  const dataDir = resolve(values['data-dir'] ?? process.env.PARLEY_DATA_DIR ?? userDataDir())
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })

  // The service seeds a database once (it records having done so; later runs change nothing) and
  // prints the demo accounts every time, so asking on every run is safe and keeps them in view.
  const database = join(dataDir, 'local-service.db')
  const port = (await portIsFree(PREFERRED_SERVICE_PORT)) ? PREFERRED_SERVICE_PORT : 0
  const service = await startService({ database, port })

  const environment = { ...process.env, PARLEY_SERVICE_ORIGIN: service.origin }
  if (service.verifyToken !== null) environment.PARLEY_VERIFY_TOKEN = service.verifyToken
  const electron = electronBinary()
  let app
  if (electron !== null) {
    const bin = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite')
    if (spawnSync(bin, ['build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' }).status !== 0) {
      throw new Error('The build failed (see above).')
    }
    app = spawn(electron, ['.'], { cwd: root, stdio: 'inherit', env: environment, detached: process.platform !== 'win32' })
  } else {
    ensureBuilt()
    app = runBuiltHost(['--service-origin', service.origin, '--data-dir', browserModeDir(dataDir)], {
      env: environment
    })
    console.log('Desktop shell: the Electron binary is not installed here. Run `node node_modules/electron/install.js` (needs internet), then `npm start` again.')
  }
  children.push(app)
  app.once('exit', (code) => void stop(code ?? 0))
  service.child.once('exit', (code) => {
    if (!stopping) console.error(`The local service stopped (exit code ${code}); stopping the app too.`)
    void stop(code ?? 1)
  })
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error)
  void stop(1)
})
