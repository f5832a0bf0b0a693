import type { EventContract, EventName } from '@shared/window-api'
import type { EventSink } from '../core/ports'

type Delivery = <E extends EventName>(event: E, payload: EventContract[E]) => void

interface Held {
  event: EventName
  payload: unknown
  /** Events with the same key describe the same state: only the latest is worth delivering. */
  key: string | null
}

/**
 * Beyond this many, the oldest held messages are dropped: a renderer that comes back loads each
 * conversation's history when it opens it, and the conversation list event carries the rest.
 */
export const MAX_HELD_MESSAGES = 500

/**
 * Holds main → renderer events until the renderer says it is listening, so nothing emitted during
 * start-up (or while a window reloads, or while no window is open) is lost. While held, an event
 * that restates a state (the session, the list, the connection, a conversation's outbox) replaces
 * the one before it, so the queue stays small however long no window is attached.
 */
export class EventQueue implements EventSink {
  #deliver: Delivery | null = null
  #held: Held[] = []

  emit<E extends EventName>(event: E, payload: EventContract[E]): void {
    if (this.#deliver) {
      this.#deliver(event, payload)
      return
    }
    const key = stateKey(event, payload)
    if (key !== null) this.#held = this.#held.filter((held) => held.key !== key)
    this.#held.push({ event, payload, key })
    if (event === 'messages:received') this.#dropOldestMessagesBeyondLimit()
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

  #dropOldestMessagesBeyondLimit(): void {
    let excess = this.#held.filter((held) => held.event === 'messages:received').length - MAX_HELD_MESSAGES
    if (excess <= 0) return
    this.#held = this.#held.filter((held) => {
      if (excess > 0 && held.event === 'messages:received') {
        excess -= 1
        return false
      }
      return true
    })
  }
}

function stateKey<E extends EventName>(event: E, payload: EventContract[E]): string | null {
  switch (event) {
    case 'messages:received':
      return null
    case 'outbox:changed':
      return `${event}:${(payload as EventContract['outbox:changed']).conversationId}`
    case 'session:changed':
    case 'conversations:changed':
    case 'push:status':
    case 'connection:offline':
    case 'conversations:focus':
      return event
  }
  return null
}
