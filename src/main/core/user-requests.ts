// Whether a request of the user's is on its way through core: the download of older history gives
// way to it (backfill.ts's `userBusy`). Counting the handlers the page calls costs nothing and needs
// no knowledge of which of them reach the service.
import type { InvokeChannel, InvokeHandlers } from '@shared/window-api'

/** Calls the page makes on its own rather than for someone waiting on the answer. */
const BACKGROUND: ReadonlySet<InvokeChannel> = new Set<InvokeChannel>(['app:ready', 'presence:activity', 'typing:typed', 'desktop:get', 'storage:get'])

export class UserRequests {
  #inFlight = 0

  get busy(): boolean {
    return this.#inFlight > 0
  }

  /** The same handlers, each counted while it runs. */
  track(handlers: InvokeHandlers): InvokeHandlers {
    const tracked: Record<string, (request: never) => Promise<unknown>> = {}
    for (const [channel, handler] of Object.entries(handlers) as [InvokeChannel, (request: never) => Promise<unknown>][]) {
      tracked[channel] = BACKGROUND.has(channel)
        ? handler
        : async (request) => {
            this.#inFlight += 1
            try {
              return await handler(request)
            } finally {
              this.#inFlight -= 1
            }
          }
    }
    return tracked as unknown as InvokeHandlers
  }
}
