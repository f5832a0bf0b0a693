// A minimal emitter whose event names and payload types are checked by the compiler. A listener
// that throws is reported, never allowed to break delivery to the others.

export class TypedEmitter<Events extends object> {
  readonly #listeners = new Map<keyof Events, Set<(payload: never) => void>>()
  readonly #onListenerError: (event: keyof Events, error: unknown) => void

  constructor(onListenerError: (event: keyof Events, error: unknown) => void) {
    this.#onListenerError = onListenerError
  }

  /** Returns a function that removes the listener. */
  on<E extends keyof Events>(event: E, listener: (payload: Events[E]) => void): () => void {
    let set = this.#listeners.get(event)
    if (set === undefined) {
      set = new Set()
      this.#listeners.set(event, set)
    }
    set.add(listener)
    return () => {
      set.delete(listener)
    }
  }

  emit<E extends keyof Events>(event: E, payload: Events[E]): void {
    const set = this.#listeners.get(event)
    if (set === undefined) return
    for (const listener of [...set] as ((payload: Events[E]) => void)[]) {
      try {
        listener(payload)
      } catch (error) {
        this.#onListenerError(event, error)
      }
    }
  }
}
