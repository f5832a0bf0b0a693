// Browser mode's notifications: written to the log and kept in a short list, which end-to-end
// tests read to check that the app notified when (and only when) it should.
import type { DesktopNotification, Notifier } from '../core/ports'
import type { Log } from '../log/log'

const KEPT = 50

export class RecordingNotifier implements Notifier {
  readonly #log: Log
  readonly #shown: DesktopNotification[] = []

  constructor(log: Log) {
    this.#log = log
  }

  /** The most recent notifications, oldest first. Call `onClick` on one to act out a click. */
  get shown(): readonly DesktopNotification[] {
    return this.#shown
  }

  show(notification: DesktopNotification): void {
    this.#shown.push(notification)
    if (this.#shown.length > KEPT) this.#shown.shift()
    this.#log.info(`notification: ${notification.title}`)
  }
}
