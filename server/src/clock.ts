/**
 * The service clock: real time plus a dev offset (§2.1, §17). Every "now" in the service reads
 * this, so `/dev/clock` moves token expiries, verification lifetimes, the 60 s guid window and the
 * push timestamp check together.
 */
export class Clock {
  #offsetMs: number
  readonly #onChange: (offsetMs: number) => void
  readonly #listeners: (() => void)[] = []

  constructor(offsetMs = 0, onChange: (offsetMs: number) => void = () => {}) {
    this.#offsetMs = offsetMs
    this.#onChange = onChange
  }

  nowMs(): number {
    return Date.now() + this.#offsetMs
  }

  /** Integer Unix seconds, the unit of almost every time in the contract. */
  now(): number {
    return Math.floor(this.nowMs() / 1000)
  }

  /** Unix microseconds, for the contract's ISO strings with microseconds. */
  nowMicros(): number {
    return this.nowMs() * 1000
  }

  get offsetMs(): number {
    return this.#offsetMs
  }

  advance(seconds: number): void {
    this.#offsetMs += seconds * 1000
    this.#onChange(this.#offsetMs)
    this.#notify()
  }

  reset(): void {
    this.#offsetMs = 0
    this.#onChange(0)
    this.#notify()
  }

  /** Runs `listener` after every dev clock jump (advance or reset), e.g. to end expired polls at once. */
  onJump(listener: () => void): void {
    this.#listeners.push(listener)
  }

  #notify(): void {
    for (const listener of this.#listeners) listener()
  }
}

/** `2024-10-01T20:38:31.690372Z` from Unix microseconds (§2.1). */
export function isoFromMicros(micros: number): string {
  const ms = Math.floor(micros / 1000)
  const base = new Date(ms).toISOString() // 2024-10-01T20:38:31.690Z
  const extra = String(Math.floor(micros) % 1000).padStart(3, '0')
  return `${base.slice(0, 23)}${extra}Z`
}
