import type { EventContract, EventName } from '../../shared/ipc'
import type { EventSink } from '../core/ports'

type Delivery = <E extends EventName>(event: E, payload: EventContract[E]) => void

/**
 * Holds main → renderer events until the renderer says it is listening, so nothing emitted during
 * start-up (or while a window reloads) is lost.
 */
export class EventQueue implements EventSink {
  #deliver: Delivery | null = null
  #held: { event: EventName; payload: unknown }[] = []

  emit<E extends EventName>(event: E, payload: EventContract[E]): void {
    if (this.#deliver) this.#deliver(event, payload)
    else this.#held.push({ event, payload })
  }

  /** The renderer is ready: deliver what was held, in order, then everything as it comes. */
  attach(deliver: Delivery): void {
    this.#deliver = deliver
    const held = this.#held
    this.#held = []
    for (const { event, payload } of held) deliver(event, payload as EventContract[typeof event])
  }

  /** The renderer went away (reload, closed socket): hold events again until it is back. */
  detach(): void {
    this.#deliver = null
  }
}
