// Something the app loads from main and shows: what it is, whether it is on its way, and why it
// could not be loaded. The lists and records of Settings, the people and group dialogs and the
// conversation's panels all load the same way: say Loading…, show the answer or why not with a
// Try again, and load again by themselves once the service is back when it was out of reach.
import { messageOf } from '../main-process'
import { RetryWhenBack } from '../retry-when-back'

export type LoadStatus = 'idle' | 'loading' | 'ready' | 'error'

export interface LoadableOptions<T> {
  /** What is shown before anything is loaded, and again after `reset`. */
  initial: T
  fetch: () => Promise<T>
  /** 'loading' for a view that loads as it opens: it says Loading… from its first frame. */
  status?: 'idle' | 'loading'
  /**
   * Takes in a fresh answer before it shows (fills the fields that edit it, say); not called for
   * an answer that was overtaken.
   */
  onLoaded?: (value: T) => void
  /** The words for a failure; the service's own message by default. */
  describe?: (error: unknown) => string
  /**
   * What a load that failed for want of the service does once it is back: load again by default;
   * null for nothing (the user presses Try again).
   */
  whenBack?: (() => void) | null
}

export class Loadable<T> {
  value: T = $state.raw() as T
  status: LoadStatus = $state('idle')
  /** Why the last load failed, in the user's words; null unless `status` is 'error'. */
  error: string | null = $state(null)

  readonly #options: LoadableOptions<T>
  readonly #whenBack: RetryWhenBack | null
  /** Bumped by every load, `set` and `reset`, so an answer that was overtaken is dropped. */
  #version = 0

  constructor(options: LoadableOptions<T>) {
    this.#options = options
    this.value = options.initial
    this.status = options.status ?? 'idle'
    const whenBack = options.whenBack === undefined ? () => void this.load() : options.whenBack
    this.#whenBack = whenBack === null ? null : new RetryWhenBack(whenBack)
  }

  /** Loads afresh, saying Loading… meanwhile; resolves whether the answer is now shown. */
  load(): Promise<boolean> {
    return this.#load(true)
  }

  /**
   * Loads afresh behind what is shown: the status says Loading… only while nothing is shown yet,
   * so a view already on screen does not blink.
   */
  refresh(): Promise<boolean> {
    return this.#load(false)
  }

  /**
   * What is shown, changed the way the user just changed it on the service (someone taken off a
   * list): a load on its way still replaces it with what the service says.
   */
  edit(change: (value: T) => T): void {
    this.value = change(this.value)
  }

  /** A value known without a load (an event, the answer to a change): shown, and kept over any load still on its way. */
  set(value: T): void {
    this.#version++
    this.#whenBack?.cancel()
    this.value = value
    this.status = 'ready'
    this.error = null
  }

  /** Back to how it started: nothing loaded, and no answer or retry still to come changes that. */
  reset(): void {
    this.#version++
    this.#whenBack?.cancel()
    this.value = this.#options.initial
    this.status = 'idle'
    this.error = null
  }

  /** Nothing shows it any more: no load starts by itself again. */
  stop(): void {
    this.#whenBack?.cancel()
  }

  async #load(sayLoading: boolean): Promise<boolean> {
    this.#whenBack?.cancel()
    const version = ++this.#version
    if (sayLoading || this.status !== 'ready') this.status = 'loading'
    this.error = null
    try {
      const value = await this.#options.fetch()
      if (version !== this.#version) return false
      this.#options.onLoaded?.(value)
      this.value = value
      this.status = 'ready'
      return true
    } catch (error) {
      if (version !== this.#version) return false
      this.status = 'error'
      this.error = (this.#options.describe ?? messageOf)(error)
      this.#whenBack?.failed(error)
      return false
    }
  }
}
