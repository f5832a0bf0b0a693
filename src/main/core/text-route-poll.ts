// Signing in by texting the service: nothing tells the app when the text arrives, so it asks (V1),
// often at first and then less often, until the verification reads verified or runs out.
import { errorCodeOf } from './failures'
import type { Timers } from './timers'

/** A login verification lives ten minutes from the sign-in that made it. */
export const VERIFICATION_LIFETIME_MS = 10 * 60_000
export const FIRST_CHECK_DELAY_MS = 1_000
export const LONGEST_CHECK_DELAY_MS = 5_000
const BACKOFF_FACTOR = 1.5

export interface TextRoutePollOptions {
  /** Reads the verification: true once verified. Fails NOT_FOUND when it is gone. */
  read(): Promise<boolean>
  /** Unix ms, on `now`'s clock. */
  expiresAt: number
  now(): number
  timers: Timers
  /** A check got an answer that was not yet the one awaited. */
  checked(at: number): void
  /** The text arrived; answers false when what follows failed and a later check should try again. */
  verified(): Promise<boolean>
  /** The verification ran out (or the service forgot it) before the text arrived. */
  expired(): void
  /** A check that failed for another reason (the service out of reach, say); checking goes on. */
  failed(error: unknown): void
}

export class TextRoutePoll {
  readonly #options: TextRoutePollOptions
  #delay = FIRST_CHECK_DELAY_MS
  #cancelWait: (() => void) | null = null
  #stopped = false

  constructor(options: TextRoutePollOptions) {
    this.#options = options
  }

  start(): void {
    this.#schedule(FIRST_CHECK_DELAY_MS)
  }

  /** No check runs after this, and an answer still on its way is ignored. */
  stop(): void {
    this.#stopped = true
    this.#cancelWait?.()
    this.#cancelWait = null
  }

  #schedule(delay: number): void {
    if (this.#stopped) return
    // Never wait past the expiry, so it is seen when it comes rather than up to one delay later.
    const untilExpiry = Math.max(0, this.#options.expiresAt - this.#options.now())
    this.#cancelWait = this.#options.timers.after(Math.min(delay, untilExpiry), () => {
      this.#cancelWait = null
      void this.#check()
    })
  }

  async #check(): Promise<void> {
    const options = this.#options
    if (this.#stopped) return
    if (options.now() >= options.expiresAt) return this.#expire()
    let verified: boolean
    try {
      verified = await options.read()
    } catch (error) {
      if (this.#stopped) return
      if (errorCodeOf(error) === 'NOT_FOUND') return this.#expire()
      options.failed(error)
      return this.#scheduleNext()
    }
    if (this.#stopped) return
    if (verified) {
      if (await options.verified()) return this.stop()
      if (this.#stopped) return
    } else {
      options.checked(options.now())
    }
    this.#scheduleNext()
  }

  #scheduleNext(): void {
    this.#delay = Math.min(Math.round(this.#delay * BACKOFF_FACTOR), LONGEST_CHECK_DELAY_MS)
    this.#schedule(this.#delay)
  }

  #expire(): void {
    this.stop()
    this.#options.expired()
  }
}
