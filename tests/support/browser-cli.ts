// Browser mode as `npm run web` runs it: `src/main/browser/cli.ts` in a process of its own, the
// app's host process, with only the environment the test gives it; and a bridge client that calls
// the contract over its WebSocket as the page does.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { EventEmitter } from 'node:events'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import WebSocket from 'ws'
import type { HostFrame } from '@shared/bridge-protocol'
import type { EventContract, EventName, InvokeChannel, InvokeRequest, IpcResult } from '@shared/window-api'

export const repositoryRoot = fileURLToPath(new URL('../..', import.meta.url))

/** This process's environment without any PARLEY_* variable, so only the test says which service to use. */
export function environmentWithoutParley(): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => !name.startsWith('PARLEY_')))
}

/** Resolves with the first stdout line that matches, or rejects with everything printed so far. */
export function waitForLine(child: ChildProcessWithoutNullStreams, pattern: RegExp, timeoutMs: number, printed: () => string): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout })
    const fail = (why: string): void => {
      clearTimeout(timer)
      lines.close()
      reject(new Error(`${why}\n--- cli output ---\n${printed()}`))
    }
    const timer = setTimeout(() => fail(`The cli printed nothing matching ${pattern} within ${timeoutMs} ms.`), timeoutMs)
    lines.on('line', (line) => {
      const match = pattern.exec(line)
      if (match === null) return
      clearTimeout(timer)
      lines.close()
      resolve(match)
    })
    child.once('exit', (code, signal) => fail(`The cli exited (code ${code}, signal ${signal}) before printing ${pattern}.`))
  })
}

export function exited(child: ChildProcessWithoutNullStreams): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve({ code: child.exitCode, signal: child.signalCode })
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })))
}

export interface BrowserCli {
  readonly child: ChildProcessWithoutNullStreams
  /** The address it printed, with the per-launch secret in its fragment. */
  readonly pageUrl: URL
  /** Everything it printed so far, stdout and stderr. */
  output(): string
  /** One call of the contract over the bridge, as the page makes it. */
  invoke<C extends InvokeChannel>(channel: C, payload: InvokeRequest<C>): Promise<IpcResult<unknown>>
  /**
   * Resolves with the payload of the first event of this name (sent since the bridge opened) that
   * matches; main sends events once the page has called `app:ready`.
   */
  event<E extends EventName>(name: E, matches?: (payload: EventContract[E]) => boolean, timeoutMs?: number): Promise<EventContract[E]>
  /** SIGTERM, then SIGKILL if it has not gone within 10 s. */
  stop(): Promise<void>
}

/**
 * Starts the cli with `args` and resolves once it has printed the address to open. From its sources
 * (through tsx) unless `built`: then the host `npm run build` leaves in out/browser/, run by plain
 * Node, which starts in a fraction of the time.
 */
export async function startBrowserCli(args: string[], environment: Record<string, string | undefined>, options: { built?: boolean } = {}): Promise<BrowserCli> {
  const entry = options.built === true ? ['out/browser/cli.js'] : ['--import', 'tsx', 'src/main/browser/cli.ts']
  const child = spawn(process.execPath, [...entry, ...args], { cwd: repositoryRoot, env: environment, stdio: 'pipe' })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk))
  const [, url] = await waitForLine(child, /^Open (\S+)$/, 30_000, () => output)
  const pageUrl = new URL(url ?? '')
  let bridge: Promise<WebSocket> | null = null
  let nextId = 1
  const events: { event: EventName; payload: unknown }[] = []
  const eventArrived = new EventEmitter()

  const openBridge = (): Promise<WebSocket> => {
    const secret = new URLSearchParams(pageUrl.hash.slice(1)).get('secret') ?? ''
    return new Promise((resolve, reject) => {
      const socket = new WebSocket(`ws://${pageUrl.host}/bridge?secret=${encodeURIComponent(secret)}`, { origin: pageUrl.origin })
      socket.once('open', () => resolve(socket))
      socket.once('error', reject)
      socket.on('message', (data: Buffer) => {
        const frame = JSON.parse(data.toString('utf8')) as HostFrame
        if (frame.type !== 'event') return
        events.push({ event: frame.event, payload: frame.payload })
        eventArrived.emit('event')
      })
    })
  }

  return {
    child,
    pageUrl,
    output: () => output,
    async invoke(channel, payload) {
      bridge ??= openBridge()
      const socket = await bridge
      const id = nextId++
      const unanswered = { ok: false, error: { code: 'NETWORK', message: 'The bridge closed before the answer came.' } } as const
      if (socket.readyState !== WebSocket.OPEN) return unanswered
      return new Promise((resolve) => {
        const onMessage = (data: Buffer): void => {
          const frame = JSON.parse(data.toString('utf8')) as HostFrame
          if (frame.type !== 'result' || frame.id !== id) return
          socket.off('message', onMessage)
          socket.off('close', onClose)
          resolve(frame.result)
        }
        // The host went (killed, say) with the call unanswered: whether it was done is not known.
        const onClose = (): void => {
          socket.off('message', onMessage)
          resolve(unanswered)
        }
        socket.on('message', onMessage)
        socket.once('close', onClose)
        socket.send(JSON.stringify({ type: 'invoke', id, channel, payload }))
      })
    },
    event(name, matches = () => true, timeoutMs = 10_000) {
      const found = (): { payload: unknown } | undefined =>
        events.find((held) => held.event === name && matches(held.payload as EventContract[typeof name]))
      return new Promise((resolve, reject) => {
        const look = (): void => {
          const event = found()
          if (event === undefined) return
          clearTimeout(timer)
          eventArrived.off('event', look)
          resolve(event.payload as EventContract[typeof name])
        }
        const timer = setTimeout(() => {
          eventArrived.off('event', look)
          reject(new Error(`No ${name} event came within ${timeoutMs} ms; the events were ${JSON.stringify(events.map((held) => held.event))}.`))
        }, timeoutMs)
        eventArrived.on('event', look)
        look()
      })
    },
    async stop() {
      if (bridge !== null) (await bridge).close()
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const killer = setTimeout(() => child.kill('SIGKILL'), 10_000)
      await exited(child)
      clearTimeout(killer)
    }
  }
}
