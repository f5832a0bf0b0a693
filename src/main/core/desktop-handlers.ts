// What the desktop around the conversations offers: presence, the global mute, the settings of
// notifications and the window, and opening a link in the user's browser.
import type { InvokeHandlers } from '@shared/window-api'
import type { Attention } from './attention'

type DesktopChannel = Extract<keyof InvokeHandlers, `desktop:${string}` | `presence:${string}` | `notifications:${string}` | `settings:${string}` | `shell:${string}`>
export type DesktopHandlers = Pick<InvokeHandlers, DesktopChannel>

export function desktopHandlers(attention: Attention, openExternal: (url: string) => Promise<void>): DesktopHandlers {
  return {
    'desktop:get': async () => attention.state,
    'presence:set': async ({ status }) => attention.setStatus(status),
    'presence:activity': async () => {
      attention.activity()
      return null
    },
    'notifications:mute': async ({ duration }) => attention.mute(duration),
    'notifications:unmute': async () => attention.unmute(),
    'settings:update': async ({ changes }) => attention.updateSettings(changes),
    'shell:openExternal': async ({ url }) => {
      await openExternal(url)
      return null
    }
  }
}
