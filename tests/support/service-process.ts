// The local service in a process of its own (`server/src/cli.ts`), for what an in-process service
// cannot show: being killed outright (SIGKILL, no goodbye to any socket) and started again on the
// same database and port, and timings that do not share an event loop with the app or the test.
import { spawn, type ChildProcess } from 'node:child_process'
import { createInterface } from 'node:readline'
import { resolve } from 'node:path'
import { DEMO_ACCOUNTS, type DemoAccount } from '../../server/src/index'

export interface ServiceProcessOptions {
  /** The SQLite file; the service keeps its state there across kills. */
  db: string
  /** Seeds the demo accounts on the first start of an empty database. */
  seed?: 'demo'
  /** Extra arguments for node before the entry point (e.g. `--cpu-prof`). */
  nodeArgs?: readonly string[]
  /** How long to wait for the service to say it listens. */
  startTimeoutMs?: number
}

const ENTRY = resolve(import.meta.dirname, '../../server/src/cli.ts')

export class ServiceProcess {
  #child: ChildProcess
  #port: number
  readonly #options: ServiceProcessOptions
  /** Who `seed: 'demo'` signed up. */
  readonly demoAccounts: readonly DemoAccount[] = DEMO_ACCOUNTS
  readonly attestationSecret: string

  private constructor(child: ChildProcess, port: number, banner: Banner, options: ServiceProcessOptions) {
    this.#child = child
    this.#port = port
    this.attestationSecret = banner.attestationSecret
    this.#options = options
  }

  /** Starts the service on a free port (`port` 0) or the given one, and waits until it listens. */
  static async start(options: ServiceProcessOptions, port = 0): Promise<ServiceProcess> {
    const { child, banner } = await launch(options, port)
    return new ServiceProcess(child, banner.port, banner, options)
  }

  /** `http://127.0.0.1:<port>`, the same across restarts. */
  get origin(): string {
    return `http://127.0.0.1:${this.#port}`
  }

  get pid(): number | undefined {
    return this.#child.pid
  }

  get running(): boolean {
    return this.#child.exitCode === null && this.#child.signalCode === null
  }

  /** Kills the process outright, as a crash or a pulled plug would. */
  async kill(): Promise<void> {
    await stopChild(this.#child, 'SIGKILL')
  }

  /** Starts it again on the same port and database. */
  async restart(): Promise<void> {
    if (this.running) await this.kill()
    const { child } = await launch(this.#options, this.#port)
    this.#child = child
  }

  /** Stops it the polite way (SIGTERM: the service closes its database). */
  async stop(): Promise<void> {
    await stopChild(this.#child, 'SIGTERM')
  }
}

interface Banner {
  port: number
  attestationSecret: string
}

async function launch(options: ServiceProcessOptions, port: number): Promise<{ child: ChildProcess; banner: Banner }> {
  const args = [...(options.nodeArgs ?? []), '--import', 'tsx', ENTRY, '--dev', '--host', '127.0.0.1', '--port', String(port), '--db', options.db]
  if (options.seed !== undefined) args.push('--seed', options.seed)
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'pipe'] })
  const { stdout, stderr } = child
  let errors = ''
  stderr.on('data', (chunk: Buffer) => {
    errors = (errors + chunk.toString()).slice(-4000)
  })
  const timeoutMs = options.startTimeoutMs ?? 30_000
  const banner = await new Promise<Banner>((resolveBanner, reject) => {
    const timer = setTimeout(() => reject(new Error(`the service did not start within ${timeoutMs} ms: ${errors}`)), timeoutMs)
    let listeningOn = 0
    // The banner is "listening on <origin>", then "attestation secret: <value>" (server/src/cli.ts).
    createInterface({ input: stdout }).on('line', (line) => {
      const listening = /^listening on http:\/\/.+:(\d+)$/.exec(line)
      const secret = /^attestation secret: (.+)$/.exec(line)
      if (listening) listeningOn = Number(listening[1])
      if (secret && listeningOn !== 0) {
        clearTimeout(timer)
        resolveBanner({ port: listeningOn, attestationSecret: secret[1] ?? '' })
      }
    })
    child.once('exit', (code, signal) => {
      clearTimeout(timer)
      reject(new Error(`the service exited before it listened (${code ?? signal}): ${errors}`))
    })
  })
  return { child, banner }
}

/** How long a polite stop may take before the process is killed outright. */
const STOP_TIMEOUT_MS = 10_000

function stopChild(child: ChildProcess, signal: NodeJS.Signals): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve()
  return new Promise((resolveStop) => {
    const deadline = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS)
    child.once('exit', () => {
      clearTimeout(deadline)
      resolveStop()
    })
    child.kill(signal)
  })
}
