// A clock and timers for core's tests, moving only when the test says: no sleeping, no flakiness.
import type { Timers } from '../timers'

/** A clock and timers that move only when the test says. */
export class ManualTime implements Timers {
  now = 1_000_000
  readonly start = this.now
  readonly waits: { at: number; task: () => void; cancelled: boolean; ran: boolean }[] = []

  after(delayMs: number, task: () => void): () => void {
    const wait = { at: this.now + delayMs, task, cancelled: false, ran: false }
    this.waits.push(wait)
    return () => void (wait.cancelled = true)
  }

  /** Delays asked for so far, in order. */
  get delays(): number[] {
    return this.waits.map((wait, index) => wait.at - (this.waits[index - 1]?.at ?? this.start))
  }

  /** Runs the next pending wait, moving the clock to it, and lets the check it starts settle. */
  async next(): Promise<void> {
    const wait = this.waits.find((candidate) => !candidate.cancelled && !candidate.ran)
    if (wait === undefined) throw new Error('nothing is waiting')
    wait.ran = true
    this.now = wait.at
    wait.task()
    for (let turn = 0; turn < 10; turn += 1) await Promise.resolve()
  }

  get pending(): number {
    return this.waits.filter((wait) => !wait.cancelled && !wait.ran).length
  }
}
