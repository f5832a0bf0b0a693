// The desktop half of the app as main keeps it: your status, the global mute, the settings and the
// badge count. Main sends it whole on every change (the tray may have changed it), so this only
// mirrors it and carries the user's requests, keeping the last refusal to show.
import type { DesktopState, MuteDuration, PresenceStatus } from '@shared/attention'
import type { Settings, SettingsChanges } from '@shared/settings'
import { call, listen, messageOf } from '../main-process'

export class DesktopModel {
  /** `null` until main has answered: nothing is claimed about status or settings before then. */
  state = $state<DesktopState | null>(null)
  /** Why the last status or mute request was refused, in the user's words; cleared by the next one. */
  error = $state<string | null>(null)
  /** Why the last settings change was refused: shown in the Settings dialog, over the rest of the page. */
  settingsError = $state<string | null>(null)

  settings: Settings | null = $derived(this.state?.settings ?? null)
  /** What the page's badge shows: unread messages outside muted conversations. */
  unreadCount = $derived(this.state?.unreadCount ?? 0)

  listen(): () => void {
    return listen('desktop:changed', (state) => {
      this.state = state
    })
  }

  async load(): Promise<void> {
    try {
      this.state = await call('desktop:get', {})
    } catch (error) {
      this.error = messageOf(error)
    }
  }

  setStatus(status: PresenceStatus): Promise<boolean> {
    return this.#request(() => call('presence:set', { status }))
  }

  mute(duration: MuteDuration): Promise<boolean> {
    return this.#request(() => call('notifications:mute', { duration }))
  }

  unmute(): Promise<boolean> {
    return this.#request(() => call('notifications:unmute', {}))
  }

  /** Resolves false when main refused: the settings are as they were, and `settingsError` says why. */
  async updateSettings(changes: SettingsChanges): Promise<boolean> {
    this.settingsError = null
    try {
      this.state = await call('settings:update', { changes })
      return true
    } catch (error) {
      this.settingsError = messageOf(error)
      return false
    }
  }

  async #request(send: () => Promise<DesktopState>): Promise<boolean> {
    this.error = null
    try {
      this.state = await send()
      return true
    } catch (error) {
      this.error = messageOf(error)
      return false
    }
  }
}
