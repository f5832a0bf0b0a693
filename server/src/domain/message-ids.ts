import type { Core } from '../core.js'

/**
 * Message ids (§2.1): 18 decimal digits, strictly increasing service-wide in creation order, so
 * string order is numeric order. An id is the creation time in service-clock milliseconds × 10⁵,
 * bumped past the previous id when that is not larger; the last id is kept in `meta` so a restart
 * (or a clock that was moved forward, then reset) never reuses or reorders ids. Push-only system
 * messages take ids from here too.
 */
const KEY = 'last_message_id'
const SCALE = 100_000n

export class MessageIds {
  readonly #core: Core
  #last: bigint

  constructor(core: Core) {
    this.#core = core
    const stored = core.meta.get(KEY)
    this.#last = stored === undefined ? 0n : BigInt(stored)
  }

  /** An id for a message created now. */
  next(): string {
    return this.nextAt(this.#core.clock.nowMs())
  }

  /** An id for a message created at `atMs` (seeded history), still above every earlier id. */
  nextAt(atMs: number): string {
    const candidate = BigInt(atMs) * SCALE
    this.#last = candidate > this.#last ? candidate : this.#last + 1n
    this.#core.meta.set(KEY, this.#last.toString())
    return this.#last.toString()
  }
}

/**
 * A paging anchor (`before_id`, `since_id`, `after_id`) as an 18-character key comparable with
 * stored ids. Anchors need not exist (§10); shorter ones are smaller than every id, longer ones
 * larger.
 */
export function anchorKey(anchor: string): string {
  const digits = anchor.replace(/^0+/, '')
  if (digits.length > 18) return '9'.repeat(18)
  return digits.padStart(18, '0')
}
