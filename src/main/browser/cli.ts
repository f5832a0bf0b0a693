// `npm run web`: the app in a browser tab, for machines without the Electron binary.
//   --data-dir <dir>         where the session and preferences are kept (default: per-user app data)
//   --port <n>               port on 127.0.0.1 (default: any free one)
//   --service-origin <url>   the local service, e.g. http://127.0.0.1:8080 (or PARLEY_SERVICE_ORIGIN;
//                            the single-address PARLEY_* variables override either)
//   --renderer-dir <dir>     the built renderer (default: out/renderer)
import { existsSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { createConsoleLog } from '../log/console-log'
import { defaultDataDir } from '../storage/data-dir'
import { startSpareStoreThread } from '../storage/local-store/store-thread'

// Built, this file is out/browser/cli.js and the renderer is out/renderer beside it; run from
// source (as tests of the host do), it is src/main/browser/cli.ts, three folders below the root.
const DEFAULT_RENDERER_DIR = import.meta.filename.endsWith('.ts')
  ? join(import.meta.dirname, '../../../out/renderer')
  : join(import.meta.dirname, '../renderer')

const USAGE = 'Usage: npm run web -- [--data-dir <dir>] [--port <n>] [--service-origin <url>] [--renderer-dir <dir>]'

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      'data-dir': { type: 'string' },
      port: { type: 'string' },
      'service-origin': { type: 'string' },
      'renderer-dir': { type: 'string' },
      help: { type: 'boolean', short: 'h' }
    },
    strict: true
  })
  if (values.help) {
    console.log(USAGE)
    return
  }
  const port = Number(values.port ?? '0')
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port must be a port number, not "${values.port}"`)
  const rendererDir = resolve(values['renderer-dir'] ?? DEFAULT_RENDERER_DIR)
  if (!existsSync(join(rendererDir, 'index.html'))) {
    throw new Error(`There is no built renderer in ${rendererDir}. Run \`npm run build\` first (\`npm run web\` does this for you).`)
  }
  const environment = { ...process.env }
  if (values['service-origin'] !== undefined) environment.PARLEY_SERVICE_ORIGIN = values['service-origin']

  // The store's thread starts first and the app loads beside it, on another core: started when
  // the session is restored, it was still starting up when the page asked for the list.
  startSpareStoreThread()
  const { startBrowserApp } = await import('./app')
  const app = await startBrowserApp({
    dataDir: resolve(values['data-dir'] ?? defaultDataDir()),
    rendererDir,
    environment,
    port,
    log: createConsoleLog('browser')
  })
  console.log(`Parley is running in browser mode, using the service at ${new URL(app.config.baseUrl).origin}.`)
  console.log(`Open ${app.url}`)
  console.log('(The address carries a one-time key: keep it to yourself. Press Ctrl+C to stop.)')
  // The address is out before the core has started, so the page loads meanwhile; a core that
  // cannot start ends the process as a host that cannot listen does.
  await app.started

  let stopping = false
  const stop = (): void => {
    if (stopping) return
    stopping = true
    app.close().then(
      () => process.exit(0),
      (error: unknown) => {
        console.error('Browser mode did not stop cleanly:', error)
        process.exit(1)
      }
    )
  }
  process.on('SIGINT', stop)
  process.on('SIGTERM', stop)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  console.error(USAGE)
  process.exit(1)
})
