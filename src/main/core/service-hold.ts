// The service held back for a moment at a start from what this device keeps. The app's first calls
// to the service load Node's fetch, tens of milliseconds of the one thread that also serves the
// page its code and answers its first calls, just when the page asks for them. Held until the kept
// list has been shown and the page has had a moment to load and draw it, they go while the page is
// busy drawing instead. Push waits for the same release (app-core.ts): connecting loads faye and
// makes Node's first HTTP request, as much work again. Measured with the service hanging: a start
// to a usable list of a hundred conversations from the store, 630 → 560 ms (the median of five,
// two cores), before push waited too.
import type { ServiceMethods } from './reachability'
import { systemTimers, type Timers } from './timers'

/** How long after the kept list is shown the service waits: about what a page takes to load and draw it. */
export const KEPT_FIRST_MS = 300

export class ServiceHold {
  readonly #timers: Timers
  #released: Promise<void> = Promise.resolve()
  #release: (() => void) | null = null
  #cancelTimer: (() => void) | null = null

  constructor(timers: Timers = systemTimers) {
    this.#timers = timers
  }

  /**
   * Holds every call until KEPT_FIRST_MS after `shown` answers that a kept list was shown, or until
   * it answers that none was (or fails); a hold in force is replaced.
   */
  holdWhileShowing(shown: Promise<boolean>): void {
    this.releaseNow()
    this.#released = new Promise<void>((resolve) => {
      this.#release = resolve
    })
    const release = this.#release
    const settled = (keptShown: boolean): void => {
      if (this.#release !== release) return
      if (keptShown) this.#cancelTimer = this.#timers.after(KEPT_FIRST_MS, () => this.releaseNow())
      else this.releaseNow()
    }
    shown.then(settled, () => settled(false))
  }

  /** Lets every held call go now (and any made after). */
  releaseNow(): void {
    this.#cancelTimer?.()
    this.#cancelTimer = null
    this.#release?.()
    this.#release = null
  }

  /** Settles once calls may go. */
  released(): Promise<void> {
    return this.#released
  }

  /** The service with each call waiting for the hold to end. */
  holding<T extends ServiceMethods<T>>(service: T): T {
    const held: Record<string, (...args: never[]) => Promise<unknown>> = {}
    for (const [name, method] of Object.entries<(...args: never[]) => Promise<unknown>>(service)) {
      // Unheld, a call goes at once, not a turn later.
      held[name] = (...args) => (this.#release === null ? method(...args) : this.#released.then(() => method(...args)))
    }
    return held as T
  }
}
