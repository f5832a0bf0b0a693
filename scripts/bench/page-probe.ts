// The page's side of the timing, installed in every page before the app's own scripts
// (`BrowserContext.addInitScript`), and the page's clock set against the driver's.
//
// While armed (only while latency is measured, so that nothing is retained or observed during the
// other parts), the page records, on its own clock (`performance.timeOrigin + performance.now()`):
//   - each `messages:received` event frame of the bridge as it arrives (a listener the page's
//     WebSocket gets before the app adds its own);
//   - the moment each bench text is in the conversation's message list (a MutationObserver);
//   - each click on Send, with the composer's text at that moment (a capture listener on window);
//   - each `messages:send` invoke frame as the page hands it to its WebSocket.
import type { Page } from 'playwright-core'
import { BENCH_TEXT_PREFIX, epochNow } from './probes/records'

// A string, not a function: tsx may wrap a compiled function in helpers (`__name`) the page lacks.
export const PAGE_PROBE = `(() => {
  const PREFIX = ${JSON.stringify(BENCH_TEXT_PREFIX)}
  const FRAME_START = '{"type":"event","event":"messages:received"'
  const BENCH_TEXT = /bench [a-z]+ \\d+/g
  const now = () => performance.timeOrigin + performance.now()
  const SEND_CHANNEL = '"channel":"messages:send"'
  const bench = { armed: false, frames: [], sends: [], inDom: new Map(), clicks: [], waiters: new Map() }
  const noteInDom = (text, at) => {
    if (bench.inDom.has(text)) return
    bench.inDom.set(text, at)
    const waiter = bench.waiters.get(text)
    if (waiter) {
      bench.waiters.delete(text)
      waiter(at)
    }
  }
  const observer = new MutationObserver((mutations) => {
    const at = now()
    for (const mutation of mutations) {
      const element = mutation.target.nodeType === 1 ? mutation.target : mutation.target.parentElement
      if (!element || !element.closest('[aria-label="Messages"]')) continue
      const nodes = mutation.type === 'characterData' ? [mutation.target] : mutation.addedNodes
      for (const node of nodes) {
        const text = node.textContent
        if (!text || !text.includes(PREFIX)) continue
        for (const found of text.matchAll(BENCH_TEXT)) noteInDom(found[0], at)
      }
    }
  })
  bench.arm = () => {
    bench.armed = true
    observer.observe(document, { childList: true, subtree: true, characterData: true })
  }
  bench.disarm = () => {
    bench.armed = false
    observer.disconnect()
  }
  /** Resolves with the moment the text is (or was) in the message list. */
  bench.waitFor = (text) => bench.inDom.has(text) ? Promise.resolve(bench.inDom.get(text)) : new Promise((resolve) => bench.waiters.set(text, resolve))
  /** Everything recorded so far, parsed; the records are emptied. */
  bench.take = () => {
    const frames = bench.frames.splice(0).map(([at, data]) => [at, JSON.parse(data).payload.text])
    const inDom = [...bench.inDom]
    bench.inDom.clear()
    const sends = bench.sends.splice(0).map(([at, data]) => [at, JSON.parse(data).payload.text])
    return { frames, sends, inDom, clicks: bench.clicks.splice(0) }
  }
  Object.defineProperty(window, '__bench', { value: bench })

  const NativeWebSocket = window.WebSocket
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args)
      this.addEventListener('message', (event) => {
        if (bench.armed && typeof event.data === 'string' && event.data.startsWith(FRAME_START)) bench.frames.push([now(), event.data])
      })
    }

    send(data) {
      if (bench.armed && typeof data === 'string' && data.includes(SEND_CHANNEL)) bench.sends.push([now(), data])
      super.send(data)
    }
  }

  window.addEventListener('click', (event) => {
    if (!bench.armed) return
    const at = now()
    const button = event.target instanceof Element ? event.target.closest('button') : null
    if (!button || button.textContent.trim() !== 'Send') return
    const composer = button.form ? button.form.querySelector('textarea') : null
    if (composer) bench.clicks.push([at, composer.value])
  }, true)
})()`

export interface PageRecords {
  /** `[page time, text]` of each `messages:received` frame. */
  frames: [number, string][]
  /** `[page time, text]` of each `messages:send` invoke the page sent. */
  sends: [number, string][]
  /** `[text, page time]` of each bench text's first appearance in the message list. */
  inDom: [string, number][]
  /** `[page time, composer text]` of each click on Send. */
  clicks: [number, string][]
}

export function armPage(page: Page): Promise<void> {
  return page.evaluate('window.__bench.arm()') as Promise<void>
}

export function disarmPage(page: Page): Promise<void> {
  return page.evaluate('window.__bench.disarm()') as Promise<void>
}

/** Resolves with the page time at which `text` was in the message list. */
export function inDom(page: Page, text: string): Promise<number> {
  return page.evaluate(`window.__bench.waitFor(${JSON.stringify(text)})`) as Promise<number>
}

export function takeRecords(page: Page): Promise<PageRecords> {
  return page.evaluate('window.__bench.take()') as Promise<PageRecords>
}

/** A page's clock against the driver's: page time = driver time + `offsetMs`, within ± `uncertaintyMs`. */
export interface PageClock {
  offsetMs: number
  /** Half the shortest round trip: the offset is exact to within it. */
  uncertaintyMs: number
  /** Driver time of the sample kept. */
  at: number
}

/**
 * Asks the page for its time `samples` times; the sample with the shortest round trip bounds the
 * offset best (the page read its clock somewhere inside that round trip).
 */
export async function calibrate(page: Page, samples = 200): Promise<PageClock> {
  let best: PageClock = { offsetMs: 0, uncertaintyMs: Infinity, at: 0 }
  for (let sample = 0; sample < samples; sample++) {
    const sent = epochNow()
    const pageTime = (await page.evaluate('performance.timeOrigin + performance.now()')) as number
    const answered = epochNow()
    const half = (answered - sent) / 2
    if (half < best.uncertaintyMs) best = { offsetMs: pageTime - (sent + half), uncertaintyMs: half, at: sent + half }
  }
  return best
}

/** A page time on the driver's clock. */
export function toDriverTime(clock: PageClock, pageTime: number): number {
  return pageTime - clock.offsetMs
}
