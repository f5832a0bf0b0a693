// Work that can wait for the browser to have nothing better to do: jobs run in order, a few at a
// time, in the time left between frames (requestIdleCallback), so that a frame that must be quick
// (rows drawn while the user scrolls) does not carry them too.

export interface IdleDeadline {
  timeRemaining(): number
}

export type ScheduleIdle = (callback: (deadline: IdleDeadline) => void) => void

/** Jobs that run in one go however little time is left, so that the queue moves on a busy page too. */
const AT_LEAST = 2
/** Below this many milliseconds left, no further job starts. */
const ROOM_MS = 3
/** When the page is never idle, jobs still run after this long. */
const TIMEOUT_MS = 500

function browserSchedule(): ScheduleIdle {
  if (typeof requestIdleCallback === 'function') return (callback) => void requestIdleCallback(callback, { timeout: TIMEOUT_MS })
  // No idle callbacks (Safari, jsdom): the next task, with the time of a short frame.
  return (callback) =>
    setTimeout(() => {
      const started = performance.now()
      callback({ timeRemaining: () => Math.max(0, 8 - (performance.now() - started)) })
    }, 0)
}

export interface IdleWorkOptions {
  schedule?: ScheduleIdle
  /** Runs after each few jobs, so that what they changed is drawn within the idle time (Svelte's `flushSync`). */
  afterJobs?: () => void
  /** The time in milliseconds, and a timer: for `postpone`. */
  now?: () => number
  setTimer?: (callback: () => void, ms: number) => void
}

export class IdleWork {
  readonly #schedule: ScheduleIdle
  readonly #afterJobs: () => void
  readonly #now: () => number
  readonly #setTimer: (callback: () => void, ms: number) => void
  readonly #jobs = new Set<() => void>()
  #scheduled = false
  /** No job runs before this time (see `postpone`). */
  #heldUntil = 0

  constructor(options: IdleWorkOptions = {}) {
    this.#schedule = options.schedule ?? browserSchedule()
    this.#afterJobs = options.afterJobs ?? (() => {})
    this.#now = options.now ?? (() => performance.now())
    this.#setTimer = options.setTimer ?? ((callback, ms) => void setTimeout(callback, ms))
  }

  get pending(): number {
    return this.#jobs.size
  }

  /** Queues a job; returns what takes it off the queue again, if it has not run. */
  add(job: () => void): () => void {
    // Each job its own entry, even the same function twice.
    const entry = (): void => job()
    this.#jobs.add(entry)
    this.#scheduleRun()
    return () => void this.#jobs.delete(entry)
  }

  /**
   * Holds every job back until `ms` from now, however idle the page looks meanwhile: it is busy
   * with something that wants each frame to itself and comes back to it soon (rows drawn a batch a
   * frame while the user scrolls, with gaps while a page loads).
   */
  postpone(ms: number): void {
    this.#heldUntil = Math.max(this.#heldUntil, this.#now() + ms)
  }

  #scheduleRun(): void {
    if (this.#scheduled || this.#jobs.size === 0) return
    this.#scheduled = true
    this.#schedule((deadline) => {
      const held = this.#heldUntil - this.#now()
      if (held > 0) {
        this.#setTimer(() => {
          this.#scheduled = false
          this.#scheduleRun()
        }, held)
        return
      }
      this.#scheduled = false
      this.#run(deadline)
      this.#scheduleRun()
    })
  }

  #run(deadline: IdleDeadline): void {
    let ran = 0
    for (const job of this.#jobs) {
      if (ran >= AT_LEAST && deadline.timeRemaining() < ROOM_MS) return
      this.#jobs.delete(job)
      job()
      ran += 1
      this.#afterJobs()
    }
  }
}
