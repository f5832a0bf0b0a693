// A load that failed because the service was out of reach goes again by itself once the service is
// back, as the words of such a failure promise ("we will keep trying"), rather than waiting for
// the user to press Try again. "Back" is push connecting again: that is when main catches up on
// the history it missed too. A refusal (a group gone, say) is not retried: it would only be refused again.
import { codeOf, listen } from './main-process'

export class RetryWhenBack {
  readonly #retry: () => void
  #stopListening: (() => void) | null = null

  constructor(retry: () => void) {
    this.#retry = retry
  }

  /** The load failed: for want of the service, it goes again at the next reconnect (once). */
  failed(error: unknown): void {
    this.cancel()
    if (codeOf(error) !== 'NETWORK') return
    this.#stopListening = listen('push:status', (status) => {
      if (status !== 'connected') return
      this.cancel()
      this.#retry()
    })
  }

  /** The load went well, or what it was for is gone: nothing waits for the reconnect any more. */
  cancel(): void {
    this.#stopListening?.()
    this.#stopListening = null
  }
}
