// One timed retry at a time, each wait twice the one before up to a ceiling, and back to the first
// after a success: how the outbox sends again, and how a failed catch-up is read again.
import { systemTimers, type Timers } from './timers'

export interface RetryTimerOptions {
  firstMs: number
  longestMs: number
  timers?: Timers
}

export class RetryTimer {
  readonly #firstMs: number
  readonly #longestMs: number
  readonly #timers: Timers
  readonly #task: () => void
  #delayMs: number
  #cancel: (() => void) | null = null

  constructor(options: RetryTimerOptions, task: () => void) {
    this.#firstMs = options.firstMs
    this.#longestMs = options.longestMs
    this.#timers = options.timers ?? systemTimers
    this.#task = task
    this.#delayMs = options.firstMs
  }

  /** Runs the task after the current wait, unless a run is waiting already; the next wait doubles. */
  schedule(): void {
    if (this.#cancel !== null) return
    this.#cancel = this.#timers.after(this.#delayMs, () => {
      this.#cancel = null
      this.#task()
    })
    this.#delayMs = Math.min(this.#delayMs * 2, this.#longestMs)
  }

  /** It worked: the next failure waits the first wait again. */
  succeeded(): void {
    this.#delayMs = this.#firstMs
  }

  /** Drops the waiting run, if any; the wait stays where it was. */
  cancel(): void {
    this.#cancel?.()
    this.#cancel = null
  }
}
