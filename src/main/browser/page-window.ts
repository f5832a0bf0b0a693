// Browser mode's window is a browser tab. It counts as focused only while the bridge page says it
// is visible and focused, so notifications show when the user is looking elsewhere, as on desktop.
import type { AppWindow } from '../core/ports'

export class PageWindow implements AppWindow {
  #focused = false

  isFocused(): boolean {
    return this.#focused
  }

  /** A page cannot bring its tab to the front; the notification click has already drawn the user's eye. */
  reveal(): void {}

  /** Told by the host whenever the page reports focus, and `false` when the page goes away. */
  setFocused(focused: boolean): void {
    this.#focused = focused
  }
}
