// Whether the app counts as offline: the service cannot be reached, so what it shows is what this
// device keeps. Push alone cannot tell: it says `connecting` or `reconnecting` for as long as faye
// retries, whether the service is a moment away or gone for the day. So the app is offline while
// push is not connected and either the service refused the connection or did not answer a request
// (NETWORK), or push has not connected for a while. A first failed request counts at once only
// before push ever connected (a start with the service down); after a drop, a request failing
// during a brief outage (a service restarting) leaves it `Reconnecting…` until the wait is over.
import type { PushStatus } from '@shared/session'
import { errorCodeOf } from './failures'
import { systemTimers, type Timers } from './timers'

/** How long push may take to connect, or to come back, before the app says it is offline. */
export const OFFLINE_AFTER_MS = 5_000

export interface ReachabilityDependencies {
  changed(offline: boolean): void
  timers?: Timers
}

export class Reachability {
  readonly #deps: ReachabilityDependencies
  readonly #timers: Timers
  #push: PushStatus = 'offline'
  /** The last request to the service failed for want of it. */
  #failed = false
  /** Push has been trying for longer than `OFFLINE_AFTER_MS` with no sign of the service. */
  #overdue = false
  #cancelWait: (() => void) | null = null
  #offline = false

  constructor(deps: ReachabilityDependencies) {
    this.#deps = deps
    this.#timers = deps.timers ?? systemTimers
  }

  get offline(): boolean {
    return this.#offline
  }

  pushChanged(status: PushStatus): void {
    this.#push = status
    if (status === 'connected' || status === 'offline') {
      // Connected: the service is there. Offline: push stopped (signed out, or starting over).
      this.#stopWaiting()
      this.#failed = false
      this.#overdue = false
    } else if (this.#cancelWait === null && !this.#overdue) {
      this.#wait()
    }
    this.#evaluate()
  }

  /** A request answered, or failed: only a failure to reach the service (NETWORK) says anything of it. */
  requestSettled(error: unknown): void {
    if (error !== undefined && errorCodeOf(error) === 'NETWORK') {
      this.#failed = true
    } else {
      // It answered: push may just be slow, and gets the wait again.
      this.#failed = false
      this.#overdue = false
      this.#stopWaiting()
      if (this.#push === 'connecting' || this.#push === 'reconnecting') this.#wait()
    }
    this.#evaluate()
  }

  /** Stops the timer (the app stopping). */
  stop(): void {
    this.#stopWaiting()
  }

  #wait(): void {
    this.#cancelWait = this.#timers.after(OFFLINE_AFTER_MS, () => {
      this.#cancelWait = null
      this.#overdue = true
      this.#evaluate()
    })
  }

  #stopWaiting(): void {
    this.#cancelWait?.()
    this.#cancelWait = null
  }

  #evaluate(): void {
    const offline = this.#overdue || (this.#failed && this.#push === 'connecting')
    const counts = offline && (this.#push === 'connecting' || this.#push === 'reconnecting')
    if (counts === this.#offline) return
    this.#offline = counts
    this.#deps.changed(counts)
  }
}

export type ServiceMethods<T> = { [K in keyof T]: (...args: never[]) => Promise<unknown> }

/** The same service, each of its calls telling `reachability` whether the service answered. */
export function watchingReach<T extends ServiceMethods<T>>(service: T, reachability: Reachability): T {
  const watched: Record<string, (...args: never[]) => Promise<unknown>> = {}
  for (const [name, method] of Object.entries<(...args: never[]) => Promise<unknown>>(service)) {
    watched[name] = async (...args) => {
      try {
        const answer = await method(...args)
        reachability.requestSettled(undefined)
        return answer
      } catch (error) {
        reachability.requestSettled(error)
        throw error
      }
    }
  }
  return watched as T
}
