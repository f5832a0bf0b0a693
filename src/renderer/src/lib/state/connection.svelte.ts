import type { PushStatus } from '@shared/session'
import { listen } from '../main-process'

/** The live connection to the service, as main reports it. */
export class ConnectionModel {
  /**
   * `null` until main has said: main sends the current status whenever the page says `app:ready`
   * (on start and after every reload), so guessing one here would only be wrong for a moment.
   */
  status = $state<PushStatus | null>(null)
  /** Main counts the service as out of reach: what shows is what this device keeps. */
  offline = $state(false)

  /** What the header says: `offline` while main counts the app offline, else push's own status. */
  shown: PushStatus | null = $derived(this.status === null ? null : this.offline && this.status !== 'connected' ? 'offline' : this.status)

  listen(): () => void {
    const stops = [
      listen('push:status', (status) => {
        this.status = status
      }),
      listen('connection:offline', ({ offline }) => {
        this.offline = offline
      })
    ]
    return () => stops.forEach((stop) => stop())
  }
}
