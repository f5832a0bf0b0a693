// The whole of main's behaviour, free of Electron: the Electron shell (`src/main/index.ts`) and
// browser mode (`src/main/browser/`) each build one of these and carry its handlers and events
// to the renderer over their own transport.
import type { ServiceConfig } from '../api/service-config'
import type { InvokeHandlers } from '../ipc/handlers'
import type { AppWindow, EventSink, Log, Notifier, Preferences, TokenVault } from './ports'

export interface AppCoreDependencies {
  config: ServiceConfig
  vault: TokenVault
  preferences: Preferences
  notifier: Notifier
  window: AppWindow
  events: EventSink
  openExternal: (url: string) => Promise<void>
  log: Log
}

export interface AppCore {
  handlers: InvokeHandlers
  /** Restores a kept session and connects push; resolves once that has been attempted. */
  start(): Promise<void>
  /** Disconnects push and stops timers; safe to call more than once. */
  stop(): Promise<void>
}
