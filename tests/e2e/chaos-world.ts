// What the chaos test (`chaos.test.ts`) is made of: the service in a process of its own that can be
// killed, a TCP proxy between it and the apps that can cut the network, a seeded schedule of those
// faults, REST senders that behave as a careful client does, and the readings taken at the end (the
// whole conversation as the service stores it, and as each app shows it).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import type { Log } from '../../src/main/log/log'
import { ServiceProcess } from '../support/service-process'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'
import { EndToEnd } from './support'

/** The service in a process of its own, the apps behind a proxy to it, and Chromium. */
export class ChaosWorld {
  readonly service: ServiceProcess
  readonly proxy: TcpProxy
  readonly e2e: EndToEnd
  readonly #dataDir: string

  private constructor(service: ServiceProcess, proxy: TcpProxy, e2e: EndToEnd, dataDir: string) {
    this.service = service
    this.proxy = proxy
    this.e2e = e2e
    this.#dataDir = dataDir
  }

  static async start(): Promise<ChaosWorld> {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-chaos-'))
    const service = await ServiceProcess.start({ db: join(dataDir, 'service.db'), seed: 'demo' })
    const proxy = await startTcpProxy(service.origin)
    const e2e = await EndToEnd.start({ service, appOrigin: proxy.origin })
    return new ChaosWorld(service, proxy, e2e, dataDir)
  }

  async close(): Promise<void> {
    await this.e2e.close()
    await this.proxy.close()
    await this.service.stop()
    rmSync(this.#dataDir, { recursive: true, force: true })
  }
}

export interface Fault {
  /** `kill`: SIGKILL the service, then start it again on the same database and port. `cut`: the proxy drops every connection and refuses new ones. */
  kind: 'kill' | 'cut'
  /** Quiet time before it begins. */
  gapMs: number
  /** How long it lasts at least (a restarted service also takes the time it needs to start). */
  outageMs: number
}

/**
 * `kills` and `cuts` in a random order but for the last, which is a kill: each after a gap and
 * lasting a while, both in the given ranges. A kill ends the run because the service forgets the
 * apps' push clients: what they missed comes back only through their own catch-up, and no later
 * outage's would mend it.
 */
export function faultSchedule(
  random: () => number,
  counts: { kills: number; cuts: number },
  ranges: { gapMs: [number, number]; outageMs: [number, number] }
): Fault[] {
  if (counts.kills < 1) throw new Error('the schedule ends with a kill')
  const between = ([low, high]: [number, number]): number => Math.round(low + random() * (high - low))
  const kinds: Fault['kind'][] = [...Array<'kill'>(counts.kills - 1).fill('kill'), ...Array<'cut'>(counts.cuts).fill('cut')]
  for (let index = kinds.length - 1; index > 0; index--) {
    const other = Math.floor(random() * (index + 1))
    ;[kinds[index], kinds[other]] = [kinds[other] as Fault['kind'], kinds[index] as Fault['kind']]
  }
  return [...kinds, 'kill' as const].map((kind) => ({ kind, gapMs: between(ranges.gapMs), outageMs: between(ranges.outageMs) }))
}

/** What a REST send came to: stored by this attempt, or by an earlier one whose answer was lost (409). */
export type RestOutcome = 'created' | 'stored before'

/**
 * Posts a group message (MS2) as a well-behaved client does: every attempt carries the same
 * `source_guid`, and it tries again, after a short pause, until the service answers at all. A
 * 409 means an earlier attempt was stored and only its answer was lost. Any other answer is a
 * failure of the test. Gives up after `giveUpMs`, well inside the service's 60 s guid window.
 */
export async function postUntilAnswered(
  origin: string,
  groupId: string,
  token: string,
  message: { sourceGuid: string; text: string },
  giveUpMs = 45_000
): Promise<RestOutcome> {
  const giveUpAt = Date.now() + giveUpMs
  for (;;) {
    let response: Response
    try {
      response = await fetch(new URL(`/v3/groups/${groupId}/messages`, origin), {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-access-token': token },
        body: JSON.stringify({ message: { source_guid: message.sourceGuid, text: message.text } }),
        signal: AbortSignal.timeout(10_000)
      })
    } catch (error) {
      if (Date.now() > giveUpAt) throw new Error(`"${message.text}" found no service for ${giveUpMs} ms`, { cause: error })
      await pause(150)
      continue
    }
    if (response.status === 201) return 'created'
    if (response.status === 409) return 'stored before'
    throw new Error(`"${message.text}": MS2 answered ${response.status} ${await response.text()}`)
  }
}

export interface StoredMessage {
  id: string
  text: string
}

/** The group's whole history as the service stores it, oldest first, read over REST a page (MS1, `after_id`) at a time. */
export async function storedMessages(origin: string, groupId: string, token: string): Promise<StoredMessage[]> {
  const stored: StoredMessage[] = []
  let after = '0'
  for (;;) {
    const url = new URL(`/v3/groups/${groupId}/messages`, origin)
    url.searchParams.set('after_id', after)
    url.searchParams.set('limit', '100')
    const response = await fetch(url, { headers: { 'x-access-token': token } })
    // 304: nothing after that id.
    if (response.status === 304) return stored
    if (response.status !== 200) throw new Error(`MS1 after ${after}: ${response.status} ${await response.text()}`)
    const page = ((await response.json()) as { response: { messages: { id: string; text: string | null }[] } }).response.messages
    stored.push(...page.map(({ id, text }) => ({ id, text: text ?? '' })))
    const last = page.at(-1)
    if (last === undefined || page.length < 100) return stored
    after = last.id
  }
}

export interface ShownHistory {
  /** The history's beginning was drawn before the time ran out. */
  reachedTop: boolean
  /** Every row drawn on the way up, oldest first, as the page orders them. */
  rows: { id: string; text: string }[]
  /**
   * Frames whose drawn rows did not line up with those already read (none of them drawn any more,
   * or drawn in another order): the order read is then not the page's.
   */
  misfits: number
}

// A string, not a function: vitest may wrap a compiled function in helpers the page does not have
// (see long-history.ts). Each frame draws a window of rows; a window moved up keeps its top rows,
// so each frame's rows are joined onto those read so far where its first-read row is.
const READ_HISTORY_IN_PAGE = `async ({ step, timeoutMs }) => {
  const viewport = document.querySelector('[role="region"][aria-label="Message history"]')
  if (!viewport) throw new Error('no message history on the page')
  const drawnRows = () => [...viewport.querySelectorAll('li[data-message-id]')].map((row) => ({
    id: row.dataset.messageId,
    text: row.querySelector('p.text')?.textContent ?? ''
  }))
  const atTop = () => [...viewport.querySelectorAll('p')].some((p) => p.textContent.includes('This is the beginning of the conversation.'))
  let rows = []
  let misfits = 0
  const join = (drawn) => {
    if (rows.length === 0) {
      rows = drawn
      return
    }
    const at = drawn.findIndex((row) => row.id === rows[0].id)
    if (at === -1) {
      misfits += 1
      return
    }
    const overlap = drawn.slice(at)
    if (overlap.some((row, index) => index < rows.length && (row.id !== rows[index].id || row.text !== rows[index].text))) misfits += 1
    rows = [...drawn.slice(0, at), ...rows]
  }
  const started = performance.now()
  let reachedTop = false
  join(drawnRows())
  while (performance.now() - started < timeoutMs) {
    viewport.scrollTop -= step
    await new Promise((resolve) => requestAnimationFrame(resolve))
    join(drawnRows())
    if (viewport.scrollTop === 0 && atTop()) {
      reachedTop = true
      break
    }
  }
  return { reachedTop, rows, misfits }
}`

/** Scrolls the open conversation from where it is to its very first message, reading every row on the way. */
export function readShownHistory(page: Page, options: { step: number; timeoutMs: number }): Promise<ShownHistory> {
  return page.evaluate(`(${READ_HISTORY_IN_PAGE})(${JSON.stringify(options)})`) as Promise<ShownHistory>
}

/** Rows of the open conversation that are not (yet) messages the service stored: the outbox's, sending or failed. */
export function unsentRows(page: Page): Promise<string[]> {
  return page
    .getByRole('list', { name: 'Messages' })
    .locator('li:not([data-message-id])')
    .allTextContents()
}

/** main's warnings and errors, kept for when the test fails and someone must find out why. */
export class KeptLog implements Log {
  readonly #name: string
  readonly #lines: string[] = []

  constructor(name: string) {
    this.#name = name
  }

  info(): void {}

  warn(message: string, details?: unknown): void {
    this.#keep('warn', message, details)
  }

  error(message: string, details?: unknown): void {
    this.#keep('error', message, details)
  }

  /** The last lines, oldest first. */
  tail(count = 40): string[] {
    return this.#lines.slice(-count)
  }

  #keep(level: string, message: string, details: unknown): void {
    const cause = details instanceof Error ? `: ${details.message}${details.cause instanceof Error ? ` (${details.cause.message})` : ''}` : ''
    this.#lines.push(`${new Date().toISOString()} ${this.#name} ${level} ${message}${cause}`)
    if (this.#lines.length > 500) this.#lines.splice(0, this.#lines.length - 500)
  }
}

export function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

/** `promise`, or a failure naming `what` once `ms` have passed without it settling. */
export async function within<T>(ms: number, promise: Promise<T>, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not come within ${ms} ms`)), ms)
  })
  try {
    return await Promise.race([promise, late])
  } finally {
    clearTimeout(timer)
  }
}

/** Waits until `condition` holds, looking every `everyMs`. */
export async function until(condition: () => boolean, everyMs = 20): Promise<void> {
  while (!condition()) await pause(everyMs)
}
