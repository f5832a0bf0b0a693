// What the core needs from the platform it runs on. Electron's adapters live in `desktop/`,
// browser mode's in `browser/`, and tests pass fakes; core itself never imports either.
import type { ConversationId, Me, PendingMessage } from '../../shared/domain'
import type { EventContract, EventName } from '../../shared/ipc'

/** Where the access token is kept between runs: encrypted in Electron, a user-only file in browser mode. */
export interface TokenVault {
  load(): Promise<string | null>
  save(token: string): Promise<void>
  clear(): Promise<void>
}

/** Small, non-secret state the app keeps between runs. */
export interface Preferences {
  get<K extends keyof PreferenceValues>(key: K): PreferenceValues[K] | undefined
  set<K extends keyof PreferenceValues>(key: K, value: PreferenceValues[K]): void
}

export interface PreferenceValues {
  /** Generated once per installation and sent with every sign-in, so the service can remember it. */
  deviceId: string
  /** The newest message id each account has seen, per conversation: account id → conversation id → message id. */
  lastRead: Record<string, Record<ConversationId, string>>
  windowBounds: { x: number; y: number; width: number; height: number }
  /** Messages not yet accepted by the service when the app last stopped. */
  outbox: PendingMessage[]
  /** Who was signed in, so the app can show itself while the service is out of reach. */
  account: Me
}

export interface DesktopNotification {
  title: string
  body: string
  onClick: () => void
}

export interface Notifier {
  show(notification: DesktopNotification): void
}

export interface AppWindow {
  /** Whether the user is looking at the app right now. */
  isFocused(): boolean
  /** Brings the window to the front (after a notification click, say). */
  reveal(): void
}

export interface EventSink {
  emit<E extends EventName>(event: E, payload: EventContract[E]): void
}
