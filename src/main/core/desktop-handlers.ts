// What the desktop around the conversations offers: presence, the global mute, the settings of
// notifications and the window, and opening a link in the user's browser.
import type { InvokeHandlers } from '../../shared/window-api'
import type { Desktop } from './desktop'

type DesktopChannel = Extract<keyof InvokeHandlers, `desktop:${string}` | `presence:${string}` | `notifications:${string}` | `settings:${string}` | `shell:${string}`>
export type DesktopHandlers = Pick<InvokeHandlers, DesktopChannel>

export function desktopHandlers(desktop: Desktop, openExternal: (url: string) => Promise<void>): DesktopHandlers {
  return {
    'desktop:get': async () => desktop.state,
    'presence:set': async ({ status }) => desktop.setStatus(status),
    'presence:activity': async () => {
      desktop.activity()
      return null
    },
    'notifications:mute': async ({ duration }) => desktop.mute(duration),
    'notifications:unmute': async () => desktop.unmute(),
    'settings:update': async ({ changes }) => desktop.updateSettings(changes),
    'shell:openExternal': async ({ url }) => {
      await openExternal(url)
      return null
    }
  }
}
