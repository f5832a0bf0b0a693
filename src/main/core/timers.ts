// Waiting in core goes through this, so a test can run the clock forward instead of sleeping.

export interface Timers {
  /** Runs `task` once after `delayMs`; answers a function that cancels it if it has not run. */
  after(delayMs: number, task: () => void): () => void
}

export const systemTimers: Timers = {
  after(delayMs, task) {
    const timer = setTimeout(task, delayMs)
    // A pending check must never keep the process alive on its own.
    timer.unref?.()
    return () => clearTimeout(timer)
  }
}
