// In-memory stand-ins for the platform around core (keychain, settings file, notification centre,
// window). They are what cannot run here; the service core talks to is always the real one.
import type { EventContract, EventName } from '@shared/window-api'
import type {
  AppWindow,
  DesktopNotification,
  EventSink,
  IdleSource,
  Notifier,
  PreferenceValues,
  Preferences,
  StatusDisplay,
  TokenVault
} from '../../src/main/core/ports'
import type { DesktopState } from '@shared/attention'
import type { Log } from '../../src/main/log/log'
import { issuerOf, type IssuedToken, type TokenIssuer } from '@shared/token-issuer'
import { localServiceConfig } from '../../src/main/api/service-config'

/** A deployment's addresses as a token is kept with them: the local service's, at `origin`. */
export function issuerAt(origin: string): TokenIssuer {
  return issuerOf(localServiceConfig(origin))
}

/** Where tests' tokens come from when the service is a fake: no request goes there. */
export const TEST_ISSUER = issuerAt('http://127.0.0.1:8080')

/** `token` as issued by `issuer`. */
export function issuedToken(token: string, issuer: TokenIssuer = TEST_ISSUER): IssuedToken {
  return { token, issuer }
}

/** `token`, if any, as the deployment at `settings` issued it: what a client a test builds there carries. */
export function tokenFrom(settings: TokenIssuer, token: string | null): IssuedToken | null {
  return token === null ? null : { token, issuer: issuerOf(settings) }
}

export class MemoryVault implements TokenVault {
  kept: IssuedToken | null = null
  async load(): Promise<IssuedToken | null> {
    return this.kept
  }
  async save(token: IssuedToken): Promise<void> {
    this.kept = token
  }
  async clear(): Promise<void> {
    this.kept = null
  }
  /** The kept token's text, or null. */
  get token(): string | null {
    return this.kept?.token ?? null
  }
}

export class MemoryPreferences implements Preferences {
  readonly values: Partial<PreferenceValues> = {}
  get<K extends keyof PreferenceValues>(key: K): PreferenceValues[K] | undefined {
    return this.values[key]
  }
  set<K extends keyof PreferenceValues>(key: K, value: PreferenceValues[K]): void {
    this.values[key] = value
  }
  delete(key: keyof PreferenceValues): void {
    Reflect.deleteProperty(this.values, key)
  }
}

export class RecordingNotifier implements Notifier {
  readonly shown: DesktopNotification[] = []
  readonly closed: string[] = []
  show(notification: DesktopNotification): void {
    this.shown.push(notification)
  }
  close(key: string): void {
    this.closed.push(key)
  }
}

/** Idleness a test sets by hand. */
export class FakeIdle implements IdleSource {
  seconds = 0
  activity = 0
  idleSeconds(): number {
    return this.seconds
  }
  noteActivity(): void {
    this.activity += 1
    this.seconds = 0
  }
}

/** What the host shows of the desktop state (the tray), as a list of what it was told. */
export class RecordingDisplay implements StatusDisplay {
  readonly shown: DesktopState[] = []
  show(state: DesktopState): void {
    this.shown.push(state)
  }
}

export class FakeWindow implements AppWindow {
  focused = true
  revealed = 0
  isFocused(): boolean {
    return this.focused
  }
  reveal(): void {
    this.revealed += 1
  }
}

type Recorded = { [E in EventName]: { event: E; payload: EventContract[E] } }[EventName]

/** Records every event core emits and lets a test wait for the one it expects. */
export class RecordingEvents implements EventSink {
  readonly log: Recorded[] = []
  readonly #waiters = new Set<() => void>()

  emit<E extends EventName>(event: E, payload: EventContract[E]): void {
    this.log.push({ event, payload } as Recorded)
    for (const wake of this.#waiters) wake()
  }

  all<E extends EventName>(event: E): EventContract[E][] {
    return this.log.filter((entry) => entry.event === event).map((entry) => entry.payload as EventContract[E])
  }

  /**
   * Resolves with the first payload of `event` (already emitted or still to come) that matches,
   * leaving out the first `skip` payloads of that event (those seen before the step under test).
   */
  async waitFor<E extends EventName>(
    event: E,
    matches: (payload: EventContract[E]) => boolean = () => true,
    timeoutMs = 10_000,
    skip = 0
  ): Promise<EventContract[E]> {
    return new Promise((resolve, reject) => {
      const check = (): boolean => {
        const found = this.all(event).slice(skip).find(matches)
        if (found === undefined) return false
        this.#waiters.delete(check)
        clearTimeout(timer)
        resolve(found)
        return true
      }
      const timer = setTimeout(() => {
        this.#waiters.delete(check)
        reject(new Error(`timed out waiting for ${event}`))
      }, timeoutMs)
      if (!check()) this.#waiters.add(check)
    })
  }
}

export const quietLog: Log = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined
}
