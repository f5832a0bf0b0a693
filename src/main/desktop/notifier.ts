// Native notifications through Electron's Notification, one per conversation: showing another
// under the same key closes the one before, so a busy conversation updates its notification in
// place. Each shown notification is referenced until it closes: a garbage-collected Notification
// no longer delivers its click (https://github.com/electron/electron/issues/16922).
import { Notification } from 'electron'
import type { DesktopNotification, Notifier } from '../core/ports'
import type { Log } from '../log/log'

export class ElectronNotifier implements Notifier {
  readonly #log: Log
  readonly #shown = new Map<string, Notification>()

  constructor(log: Log) {
    this.#log = log
  }

  show({ key, title, body, silent, onClick, onReply }: DesktopNotification): void {
    if (!Notification.isSupported()) {
      this.#log.info('notifications are not supported on this system; not showing one')
      return
    }
    this.close(key)
    // Only macOS can answer from a notification; elsewhere `hasReply` is ignored.
    const hasReply = process.platform === 'darwin' && onReply !== undefined
    const notification = new Notification({ title, body, silent, ...(hasReply ? { hasReply: true, replyPlaceholder: 'Reply' } : {}) })
    this.#shown.set(key, notification)
    const forget = (): void => {
      if (this.#shown.get(key) === notification) this.#shown.delete(key)
    }
    notification.on('click', () => {
      forget()
      onClick()
    })
    notification.on('reply', (_event, reply) => {
      forget()
      if (reply.trim() !== '') onReply?.(reply)
    })
    notification.on('close', forget)
    notification.on('failed', (_event, error) => {
      forget()
      this.#log.warn('a notification could not be shown', error)
    })
    notification.show()
  }

  close(key: string): void {
    const shown = this.#shown.get(key)
    if (shown === undefined) return
    this.#shown.delete(key)
    shown.close()
  }
}
