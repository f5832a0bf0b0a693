// Browser mode's window is a browser tab. It counts as focused only while the bridge page says it
// is visible and focused, so notifications show when the user is looking elsewhere, as on desktop.
// It is also browser mode's only sense of idleness: the user is idle while the page is hidden and
// has seen no input.
import type { AppWindow, IdleSource } from '../core/ports'

export class PageWindow implements AppWindow, IdleSource {
  readonly #now: () => number
  #focused = false
  /** When the page last had the user's attention: input, or being in front. */
  #lastAttention: number

  constructor(now: () => number = Date.now) {
    this.#now = now
    this.#lastAttention = now()
  }

  isFocused(): boolean {
    return this.#focused
  }

  /** A page cannot bring its tab to the front; the notification click has already drawn the user's eye. */
  reveal(): void {}

  /** Told by the host whenever the page reports focus, and `false` when the page goes away. */
  setFocused(focused: boolean): void {
    if (this.#focused || focused) this.#lastAttention = this.#now()
    this.#focused = focused
  }

  idleSeconds(): number {
    return this.#focused ? 0 : Math.max(0, (this.#now() - this.#lastAttention) / 1000)
  }

  noteActivity(): void {
    this.#lastAttention = this.#now()
  }
}
