// Browser mode's notifications, shown with the page's own `Notification` API. Main decides what
// to notify and sends it as an event (the Electron shell shows native ones and never sends these);
// the page shows it once the user has allowed it, one per conversation, replaced in place.
import type { ConversationId } from '@shared/conversation-id'
import type { PageNotification } from '@shared/window-api'
import { listen } from '../main-process'

export type PagePermission = NotificationPermission | 'unsupported'

export interface PageNotificationsDependencies {
  /** The user clicked a notification: show its conversation. */
  open: (conversationId: ConversationId) => void
  /** Read when needed, not once, so a page (or a test) that gains the API later is seen. */
  notificationApi?: () => typeof Notification | undefined
  focusWindow?: () => void
}

/** `renotify` is not in TypeScript's DOM types yet; Chromium honours it, others ignore it. */
interface ReplacingOptions extends NotificationOptions {
  renotify?: boolean
}

export class PageNotificationsModel {
  /** `default` until the user answers the browser's question, which only a click may ask. */
  permission = $state<PagePermission>('unsupported')

  readonly #deps: Required<PageNotificationsDependencies>
  // Bookkeeping that nothing on screen reads, so it need not be reactive.
  // eslint-disable-next-line svelte/prefer-svelte-reactivity
  readonly #shown = new Map<string, Notification>()

  constructor(deps: PageNotificationsDependencies) {
    this.#deps = {
      notificationApi: () => (typeof Notification === 'undefined' ? undefined : Notification),
      focusWindow: () => window.focus(),
      ...deps
    }
    this.permission = this.#api()?.permission ?? 'unsupported'
  }

  listen(): () => void {
    const stops = [
      listen('notifications:show', (notification) => this.#show(notification)),
      listen('notifications:close', ({ key }) => this.#close(key))
    ]
    this.#followPermission()
    return () => {
      stops.forEach((stop) => stop())
      for (const notification of this.#shown.values()) notification.close()
      this.#shown.clear()
    }
  }

  /** Asks the browser for permission. Call it only from a click: browsers ignore (or punish) asking unprompted. */
  async requestPermission(): Promise<void> {
    const api = this.#api()
    if (!api) return
    this.permission = await api.requestPermission()
  }

  #show({ key, conversationId, title, body, silent }: PageNotification): void {
    const api = this.#api()
    this.permission = api?.permission ?? 'unsupported'
    if (!api || this.permission !== 'granted') return
    // The same tag replaces the conversation's earlier notification; renotify makes the
    // replacement alert again, which the spec forbids for a silent one.
    const options: ReplacingOptions = { body, tag: key, silent, renotify: !silent }
    let notification: Notification
    try {
      notification = new api(title, options)
    } catch {
      // Some browsers (Chrome on Android) allow notifications only from a service worker.
      return
    }
    this.#shown.set(key, notification)
    notification.onclick = () => {
      this.#deps.focusWindow()
      this.#deps.open(conversationId)
      notification.close()
    }
    notification.onclose = () => {
      if (this.#shown.get(key) === notification) this.#shown.delete(key)
    }
  }

  #close(key: string): void {
    this.#shown.get(key)?.close()
    this.#shown.delete(key)
  }

  #api(): typeof Notification | undefined {
    return this.#deps.notificationApi()
  }

  /** The user may allow or block notifications in the browser's site settings at any time. */
  #followPermission(): void {
    if (!this.#api() || typeof navigator === 'undefined' || !navigator.permissions) return
    navigator.permissions
      .query({ name: 'notifications' })
      .then((status) => {
        status.onchange = () => {
          this.permission = this.#api()?.permission ?? 'unsupported'
        }
      })
      .catch(() => {})
  }
}
