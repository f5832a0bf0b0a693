// Browser mode's notifications: the page shows them with its own `Notification` API (once the user
// has allowed it), so main sends each one over the bridge as an event. The most recent are also
// kept, with their click, for whoever hosts the app to inspect (its tests do).
import type { DesktopNotification, EventSink, Notifier } from '../core/ports'
import type { Log } from '../log/log'

const KEPT = 50

export class PageNotifier implements Notifier {
  readonly #events: EventSink
  readonly #log: Log
  readonly #shown: DesktopNotification[] = []

  constructor(events: EventSink, log: Log) {
    this.#events = events
    this.#log = log
  }

  /** The most recent notifications, oldest first. Call `onClick` on one to act out a click. */
  get shown(): readonly DesktopNotification[] {
    return this.#shown
  }

  show(notification: DesktopNotification): void {
    const { key, conversationId, title, body, silent } = notification
    this.#shown.push(notification)
    if (this.#shown.length > KEPT) this.#shown.shift()
    this.#log.info(`notification: ${title}`)
    this.#events.emit('notifications:show', { key, conversationId, title, body, silent })
  }

  close(key: string): void {
    this.#events.emit('notifications:close', { key })
  }
}
