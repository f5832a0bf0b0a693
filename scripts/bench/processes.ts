// The processes of a run, each as a user has it: the local service in its own process, and each
// user's browser-mode app core in its own process, started as `npm run web` starts it: the built
// host with plain Node (`node out/browser/cli.js --data-dir … --service-origin …`).
// Each loads its probe with `--import`; `collectProbe` asks it for what it recorded.
import { spawn, type ChildProcess } from 'node:child_process'
import { appendFileSync, existsSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createInterface } from 'node:readline'
import { build } from 'vite'
import { ServiceProcess } from '../../tests/support/service-process'
import { epochNow, probeOutputPath, type ProbeRecord } from './probes/records'

export const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const SERVICE_PROBE = fileURLToPath(new URL('./probes/service-probe.ts', import.meta.url))
const APP_PROBE = fileURLToPath(new URL('./probes/app-probe.ts', import.meta.url))

/** What each app process runs: browser mode's built host, the renderer it serves, and the app probe. */
export interface BuiltApp {
  /** The built host, as `npm run web` runs it (out/browser/cli.js). */
  host: string
  rendererDir: string
  /** The app probe in plain JavaScript (`buildAppProbe`). */
  probe: string
}

/**
 * Builds the app probe to one plain JavaScript file in `outDir`, so that the app's process loads
 * no tsx, as a user's does not. The probe takes only the diagnostics channels' names from the
 * app's sources: those modules and the packages count as free of side effects here, so that only
 * the names (and the channels' lookups by name, which return the app's own) are copied in.
 */
export async function buildAppProbe(outDir: string): Promise<string> {
  const sources = join(ROOT, 'src')
  await build({
    configFile: false,
    logLevel: 'warn',
    publicDir: false,
    // `@shared/*`, as tsconfig.base.json sets it.
    resolve: { tsconfigPaths: true },
    build: {
      ssr: APP_PROBE,
      outDir,
      emptyOutDir: false,
      target: 'node20',
      rolldownOptions: {
        output: { format: 'es', entryFileNames: 'app-probe.js' },
        treeshake: { moduleSideEffects: (id: string, external: boolean) => !external && !id.startsWith(sources) }
      }
    }
  })
  return join(outDir, 'app-probe.js')
}

/** The service on a file database with the demo accounts, its probe loaded after tsx. */
export function startServiceProcess(db: string): Promise<ServiceProcess> {
  // tsx is imported again by ServiceProcess after these: the same module, loaded once.
  return ServiceProcess.start({ db, seed: 'demo', nodeArgs: ['--import', 'tsx', '--import', SERVICE_PROBE] })
}

export interface AppProcess {
  child: ChildProcess
  pid: number
  /** The address `npm run web` prints, with its one-time key. */
  url: string
  /** Driver time of the spawn. */
  spawnedAt: number
  /** Driver time at which the process printed its address: it listens and its core has started. */
  listeningAt: number
  stop(): Promise<void>
}

/**
 * One user's app core, started as `npm run web` starts it (scripts/web.mjs's runBuiltHost), plus
 * its probe. `--expose-gc` lets the probe collect garbage before the driver reads the process's
 * resident memory.
 */
export async function startAppProcess(dataDir: string, serviceOrigin: string, app: BuiltApp): Promise<AppProcess> {
  const spawnedAt = epochNow()
  const child = spawn(
    process.execPath,
    [...(process.env['BENCH_APP_NODE_ARGS']?.split(' ') ?? []), '--expose-gc', '--import', app.probe, app.host, '--data-dir', dataDir, '--service-origin', serviceOrigin, '--renderer-dir', app.rendererDir],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] }
  )
  let errors = ''
  child.stderr?.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000)
  })
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the app did not start within 60 s: ${errors}`)), 60_000)
    // Keep reading after the address: the app logs to stdout, and a full pipe would stall it.
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      if (process.env['BENCH_APP_LOG']) appendFileSync(process.env['BENCH_APP_LOG'], `${child.pid} ${(epochNow() - spawnedAt).toFixed(0)} ${line}\n`)
      const address = /^Open (http:\/\/\S+)$/.exec(line)
      if (address?.[1] !== undefined) {
        clearTimeout(timer)
        resolve(address[1])
      }
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`the app exited before it listened (${code ?? signal}): ${errors}`))
    })
  })
  const listeningAt = epochNow()
  const pid = child.pid
  if (pid === undefined) throw new Error('the app process has no pid')
  return {
    child,
    pid,
    url,
    spawnedAt,
    listeningAt,
    stop: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.kill('SIGTERM')
      })
  }
}

/**
 * Asks a process's probe for its records (SIGUSR2) and waits for the file it writes. The probe
 * collects garbage first when the process has --expose-gc.
 */
export async function collectProbe(pid: number): Promise<ProbeRecord[]> {
  const path = probeOutputPath(pid)
  rmSync(path, { force: true })
  process.kill(pid, 'SIGUSR2')
  const deadline = Date.now() + 30_000
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`process ${pid} did not hand over its probe's records`)
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
  const records = JSON.parse(readFileSync(path, 'utf8')) as ProbeRecord[]
  rmSync(path, { force: true })
  return records
}

/** Resident memory of a process in MB (2^20 bytes), from /proc/<pid>/status (VmRSS). */
export function residentMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1]
  if (kb === undefined) throw new Error(`no VmRSS in /proc/${pid}/status`)
  return Number(kb) / 1024
}
