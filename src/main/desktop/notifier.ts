// Native notifications through Electron's Notification. Each shown notification is referenced
// until it closes: a garbage-collected Notification no longer delivers its click
// (https://github.com/electron/electron/issues/16922).
import { Notification } from 'electron'
import type { DesktopNotification, Notifier } from '../core/ports'
import type { Log } from '../log/log'

/** Some platforms never report `close`; beyond this many the oldest are let go. */
const MAX_REFERENCED = 20

export class ElectronNotifier implements Notifier {
  readonly #log: Log
  readonly #shown = new Set<Notification>()

  constructor(log: Log) {
    this.#log = log
  }

  show({ title, body, onClick }: DesktopNotification): void {
    if (!Notification.isSupported()) {
      this.#log.info('notifications are not supported on this system; not showing one')
      return
    }
    const notification = new Notification({ title, body })
    this.#keep(notification)
    notification.on('click', () => {
      this.#shown.delete(notification)
      onClick()
    })
    notification.on('close', () => this.#shown.delete(notification))
    notification.on('failed', (_event, error) => {
      this.#shown.delete(notification)
      this.#log.warn('a notification could not be shown', error)
    })
    notification.show()
  }

  #keep(notification: Notification): void {
    this.#shown.add(notification)
    for (const oldest of this.#shown) {
      if (this.#shown.size <= MAX_REFERENCED) break
      this.#shown.delete(oldest)
    }
  }
}
