// What a screen reader hears of new messages in the open conversation. Each message read out as it
// came would drown the reader in a busy group, so arrivals within a few seconds of the last
// announcement wait and are told together, by count and senders ("3 new messages from Grace and Alan").

/** What an announcement needs of a message. */
export interface Arrival {
  senderName: string
  text: string
  /** A line from the service ("Alan joined the group"): read as it is, with no sender. */
  system: boolean
}

/** At most one announcement this often. */
export const ANNOUNCE_EVERY_MS = 3_000

/** How many senders are named before the rest are counted ("and 2 others"). */
const NAMED_SENDERS = 3

/** What is said of arrivals told together. */
export function arrivalText(arrivals: readonly Arrival[]): string {
  const [only] = arrivals
  if (only === undefined) return ''
  if (arrivals.length === 1) {
    if (only.system) return only.text
    return only.text.trim() === '' ? `New message from ${only.senderName}` : `${only.senderName}: ${only.text}`
  }
  const senders = [...new Set(arrivals.filter((arrival) => !arrival.system).map((arrival) => arrival.senderName))]
  const count = `${arrivals.length} new messages`
  return senders.length === 0 ? count : `${count} from ${namesOf(senders)}`
}

function namesOf(senders: readonly string[]): string {
  if (senders.length === 1) return senders[0] ?? ''
  if (senders.length <= NAMED_SENDERS) return `${senders.slice(0, -1).join(', ')} and ${senders.at(-1) ?? ''}`
  const others = senders.length - (NAMED_SENDERS - 1)
  return `${senders.slice(0, NAMED_SENDERS - 1).join(', ')} and ${others} others`
}

export interface ArrivalAnnouncerOptions {
  /** Puts the words in the live region. */
  say: (text: string) => void
  everyMs?: number
  now?: () => number
  setTimer?: (run: () => void, ms: number) => unknown
  clearTimer?: (timer: unknown) => void
}

/** Says arrivals at once when nothing was said for a while, and otherwise gathers them until it may. */
export class ArrivalAnnouncer {
  readonly #say: (text: string) => void
  readonly #everyMs: number
  readonly #now: () => number
  readonly #setTimer: (run: () => void, ms: number) => unknown
  readonly #clearTimer: (timer: unknown) => void
  #waiting: Arrival[] = []
  #lastSaidAt = Number.NEGATIVE_INFINITY
  #timer: unknown = null

  constructor({
    say,
    everyMs = ANNOUNCE_EVERY_MS,
    now = () => Date.now(),
    // Called as functions, not as methods of this object: the browser's timers refuse another `this`.
    setTimer = (run, ms) => setTimeout(run, ms),
    clearTimer = (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>)
  }: ArrivalAnnouncerOptions) {
    this.#say = say
    this.#everyMs = everyMs
    this.#now = now
    this.#setTimer = setTimer
    this.#clearTimer = clearTimer
  }

  add(arrivals: readonly Arrival[]): void {
    if (arrivals.length === 0) return
    this.#waiting.push(...arrivals)
    if (this.#timer !== null) return
    const wait = this.#lastSaidAt + this.#everyMs - this.#now()
    if (wait <= 0) this.#flush()
    else this.#timer = this.#setTimer(() => this.#flush(), wait)
  }

  /** The conversation closed: what waits is not said. */
  stop(): void {
    if (this.#timer !== null) this.#clearTimer(this.#timer)
    this.#timer = null
    this.#waiting = []
  }

  #flush(): void {
    this.#timer = null
    const text = arrivalText(this.#waiting)
    this.#waiting = []
    if (text === '') return
    this.#lastSaidAt = this.#now()
    this.#say(text)
  }
}
