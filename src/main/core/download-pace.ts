// The pace of the history download (backfill.ts): one page an interval on average, never two pages
// closer together than the fastest interval. Time the download gave to something that came first
// (messages arriving live, a request of the user's) is made up afterwards, a little faster than the
// pace and still well under what a deployment tolerates, so that giving way does not slow the
// download as a whole; time owed for longer than `longestMakeUpMs` is forgotten rather than made up
// in one long rush.

export interface DownloadPaceOptions {
  /** From one page to the next on average. */
  intervalMs: number
  /** From one page to the next at the least, while making up time. */
  fastestMs: number
  /** The most time owed that is made up. */
  longestMakeUpMs: number
}

export class DownloadPace {
  readonly #options: DownloadPaceOptions
  /** When this pace began (the first page since a restart); null: no page yet. */
  #from: number | null = null
  #pages = 0
  #lastAskedAt = -Infinity

  constructor(options: DownloadPaceOptions) {
    this.#options = options
  }

  /** When the last page was asked for; -Infinity before the first. */
  get lastAskedAt(): number {
    return this.#lastAskedAt
  }

  /** A page is asked for at `now`. */
  asked(now: number): void {
    if (this.#from === null) {
      this.#from = now
      this.#pages = 0
    } else {
      // How late this page is on the pace; beyond the longest made up, the pace moves on instead.
      const lateMs = now - this.#onPaceAt(this.#from)
      if (lateMs > this.#options.longestMakeUpMs) this.#from += lateMs - this.#options.longestMakeUpMs
    }
    this.#pages += 1
    this.#lastAskedAt = now
  }

  /** How long from `now` until the next page may be asked for. */
  untilNext(now: number): number {
    if (this.#from === null) return 0
    return Math.max(0, this.#lastAskedAt + this.#options.fastestMs - now, this.#onPaceAt(this.#from) - now)
  }

  /** When the next page is due on a pace begun at `from`. */
  #onPaceAt(from: number): number {
    return from + this.#pages * this.#options.intervalMs
  }

  /**
   * The download stopped for a reason of its own (the service refused or failed, it was paused,
   * push went away, nothing was left): the next page begins a new pace, with nothing to make up,
   * so a service that just said it is busy is never asked faster than the pace.
   */
  restart(): void {
    this.#from = null
    this.#pages = 0
  }
}
