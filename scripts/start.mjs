// `npm start`: the local service with demo data, and the app pointed at it. The Electron window
// when the Electron binary is installed; otherwise browser mode, opened in the default browser,
// with a note on getting the binary. Ctrl+C stops everything.
//   --data-dir <dir>      where the service's database and the app's browser-mode data live
//                         (default: the per-user app data folder, e.g. ~/.config/Parley)
//   --install-electron    where the binary is missing, run Electron's own installer first
//   --no-open             in browser mode, print the address without opening a browser
import { spawn, spawnSync } from 'node:child_process'
import { mkdirSync } from 'node:fs'
import { createServer } from 'node:net'
import { join, resolve } from 'node:path'
import { createInterface } from 'node:readline'
import { pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { electronBinary, installElectron, missingElectronAdvice } from './electron-shell.mjs'
import { electronSqliteBinding } from './electron-sqlite.mjs'
import { browserOpener, openInBrowser } from './open-browser.mjs'
import { builtDataDir, ensureBuilt, ensureHostBuilt, exited, root, runBuiltHost, runTypeScript } from './web.mjs'

const PREFERRED_SERVICE_PORT = 8080

function portIsFree(port) {
  return new Promise((resolvePort) => {
    const probe = createServer()
    probe.once('error', () => resolvePort(false))
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolvePort(true)))
  })
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

/**
 * Browser mode's built host, its output passed through; once it prints the address, opens it in
 * the default browser unless told not to or there is no display.
 */
function startBrowserMode({ serviceOrigin, dataDir, environment, noOpen }) {
  ensureBuilt()
  const host = runBuiltHost(['--service-origin', serviceOrigin, '--data-dir', dataDir], { env: environment, stdio: ['ignore', 'pipe', 'inherit'] })
  createInterface({ input: host.stdout }).on('line', (line) => {
    console.log(line)
    const address = /^Open (\S+)$/.exec(line)?.[1]
    if (address === undefined) return
    const decision = browserOpener(address, { noOpen })
    if ('opener' in decision) void openInBrowser(decision.opener)
    else console.log(`Not opening a browser: ${decision.skip}.`)
  })
  return host
}

async function main() {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      'install-electron': { type: 'boolean', default: false },
      'no-open': { type: 'boolean', default: false }
    },
    strict: true
  })
  // Where the data lives is decided once, for this script and browser mode alike, by the built host's code.
  ensureHostBuilt()
  const { userDataDir, browserModeDir } = await import(pathToFileURL(builtDataDir).href)
  const dataDir = resolve(values['data-dir'] ?? process.env.PARLEY_DATA_DIR ?? userDataDir())
  mkdirSync(dataDir, { recursive: true, mode: 0o700 })

  let electron = electronBinary()
  if (electron === null && values['install-electron']) electron = installElectron()

  // The service seeds a database once (it records having done so; later runs change nothing) and
  // prints the demo accounts every time, so asking on every run is safe and keeps them in view.
  const database = join(dataDir, 'local-service.db')
  const port = (await portIsFree(PREFERRED_SERVICE_PORT)) ? PREFERRED_SERVICE_PORT : 0
  const service = await startService({ database, port })

  const environment = { ...process.env, PARLEY_SERVICE_ORIGIN: service.origin }
  if (service.verifyToken !== null) environment.PARLEY_VERIFY_TOKEN = service.verifyToken
  let app
  if (electron !== null) {
    const bin = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-vite.cmd' : 'electron-vite')
    if (spawnSync(bin, ['build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' }).status !== 0) {
      throw new Error('The build failed (see above).')
    }
    // The store's SQLite for Electron's ABI, beside node_modules' one for Node (the service's).
    const sqlite = electronSqliteBinding(root)
    if (sqlite !== null) environment.PARLEY_SQLITE_BINDING = sqlite
    app = spawn(electron, ['.'], { cwd: root, stdio: 'inherit', env: environment, detached: process.platform !== 'win32' })
  } else {
    console.log(missingElectronAdvice())
    app = startBrowserMode({ serviceOrigin: service.origin, dataDir: browserModeDir(dataDir), environment, noOpen: values['no-open'] })
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
