import type { PushStatus } from '@shared/session'
import { listen } from '../main-process'

/** The live connection to the service, as main reports it. */
export class ConnectionModel {
  /**
   * `null` until main has said: main sends the current status whenever the page says `app:ready`
   * (on start and after every reload), so guessing one here would only be wrong for a moment.
   */
  status = $state<PushStatus | null>(null)

  listen(): () => void {
    return listen('push:status', (status) => {
      this.status = status
    })
  }
}
