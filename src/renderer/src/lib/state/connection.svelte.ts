import type { PushStatus } from '../../../../shared/domain'
import { listen } from '../ipc'

/** The live connection to the service, as main reports it. */
export class ConnectionModel {
  // Until main says otherwise we are on our way, not offline: start-up is not a failure.
  status = $state<PushStatus>('connecting')

  listen(): () => void {
    return listen('push:status', (status) => {
      this.status = status
    })
  }
}
