// Browser mode tells idleness from the page: main turns your status Away after the chosen minutes
// without input, and Active again on input. Input only counts while the page is visible (a hidden
// tab's stray events are nobody at the keyboard), and main hears of it at most every 30 s, which
// is plenty for limits counted in minutes.

export const ACTIVITY_REPORT_INTERVAL_MS = 30_000

const INPUT_EVENTS = ['keydown', 'pointerdown', 'pointermove', 'wheel', 'touchstart'] as const

export interface ActivityReporterOptions {
  report: () => void
  /** Unix milliseconds. */
  now?: () => number
  target?: EventTarget
  document?: Document
}

/** Starts listening for input; returns the function that stops it. */
export function reportActivity({
  report,
  now = Date.now,
  target = globalThis.window,
  document = globalThis.document
}: ActivityReporterOptions): () => void {
  let lastReport = Number.NEGATIVE_INFINITY

  const seen = (): void => {
    if (document.visibilityState !== 'visible') return
    const time = now()
    if (time - lastReport < ACTIVITY_REPORT_INTERVAL_MS) return
    lastReport = time
    report()
  }

  const options = { capture: true, passive: true }
  for (const event of INPUT_EVENTS) target.addEventListener(event, seen, options)
  // Coming back to the page is input too: the user switched to it.
  document.addEventListener('visibilitychange', seen)
  return () => {
    for (const event of INPUT_EVENTS) target.removeEventListener(event, seen, options)
    document.removeEventListener('visibilitychange', seen)
  }
}
