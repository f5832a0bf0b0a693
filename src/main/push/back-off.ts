// The back-off schedule of the push connection's retries, given to faye as its documented
// `scheduler` option: the same bookkeeping as faye's own scheduler, but an exponential back-off
// instead of a fixed interval, and nothing delivered once the connection is closed.

export interface BackOff {
  /** Seconds before the first retry of a failed request; doubles on each further failure. */
  initialSeconds: number
  /** The ceiling of the back-off, in seconds. */
  maxSeconds: number
}

/** Seconds to wait before the next try, `attempts` tries having been sent. */
export function backOffSeconds({ initialSeconds, maxSeconds }: BackOff, attempts: number): number {
  return Math.min(maxSeconds, initialSeconds * 2 ** Math.max(0, attempts - 1))
}

/** What faye hands a scheduler for each message it sends. */
export interface SchedulerOptions {
  timeout: number
  interval: number
  attempts?: number
  deadline?: number
}

/** A faye `scheduler` class following `backOff`; `isClosed` says when the connection has been closed. */
export function backOffScheduler(backOff: BackOff, isClosed: () => boolean, now: () => number = Date.now) {
  return class BackOffScheduler {
    readonly message: unknown
    readonly options: SchedulerOptions
    attempts = 0

    constructor(message: unknown, options: SchedulerOptions) {
      this.message = message
      this.options = options
    }

    getTimeout(): number {
      return this.options.timeout
    }

    getInterval(): number {
      return backOffSeconds(backOff, this.attempts)
    }

    isDeliverable(): boolean {
      // Once closed, only the goodbye goes out, and only once.
      if (isClosed() && (this.attempts > 0 || channelOf(this.message) !== '/meta/disconnect')) return false
      if (this.options.attempts !== undefined && this.attempts >= this.options.attempts) return false
      if (this.options.deadline !== undefined && now() > this.options.deadline) return false
      return true
    }

    send(): void {
      this.attempts += 1
    }

    succeed(): void {}

    fail(): void {}

    abort(): void {}
  }
}

function channelOf(message: unknown): unknown {
  return typeof message === 'object' && message !== null && 'channel' in message ? message.channel : undefined
}
