// What the tray says: its tooltip and its menu, worked out from the desktop state. Pure, so the
// words and what each item does are tested without a tray; tray.ts hands the template to Electron.
import type { MenuItemConstructorOptions } from 'electron'
import type { DesktopState, Mute, MuteDuration, PresenceStatus } from '@shared/attention'

/** What the menu's items do; each reaches the same core handler the window's menus call. */
export interface TrayMenuActions {
  openWindow(): void
  setStatus(status: PresenceStatus): void
  mute(duration: MuteDuration): void
  unmute(): void
  signOut(): void
  quit(): void
}

export interface TrayMenuView {
  state: DesktopState
  signedIn: boolean
  /** Unix milliseconds: a mute ending today shows its time alone, a later one its weekday too. */
  now: number
}

const STATUSES: readonly [PresenceStatus, string][] = [
  ['active', 'Active'],
  ['away', 'Away'],
  ['dnd', 'Do not disturb']
]

const MUTE_DURATIONS: readonly [MuteDuration, string][] = [
  ['oneHour', 'For 1 hour'],
  ['eightHours', 'For 8 hours'],
  ['untilTomorrow', 'Until tomorrow (08:00 local)'],
  ['untilTurnedOn', 'Until I turn them back on']
]

const WEEKDAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat']

/** "Parley: 3 unread"; with nothing unread, "Parley: nothing unread" rather than a bare zero. */
export function trayTooltip(unreadCount: number): string {
  return unreadCount > 0 ? `Parley: ${unreadCount} unread` : 'Parley: nothing unread'
}

export function trayMenu({ state, signedIn, now }: TrayMenuView, actions: TrayMenuActions): MenuItemConstructorOptions[] {
  const items: MenuItemConstructorOptions[] = [
    { label: 'Open Parley', click: () => actions.openWindow() },
    { type: 'separator' },
    {
      label: 'Status',
      submenu: STATUSES.map(([status, label]) => ({
        label,
        type: 'radio',
        checked: state.status === status,
        click: () => actions.setStatus(status)
      }))
    },
    {
      label: 'Mute notifications',
      submenu: MUTE_DURATIONS.map(([duration, label]) => ({ label, click: () => actions.mute(duration) }))
    }
  ]
  if (state.mute !== null) items.push({ label: turnBackOnLabel(state.mute, now), click: () => actions.unmute() })
  items.push({ type: 'separator' })
  if (signedIn) items.push({ label: 'Sign out', click: () => actions.signOut() })
  items.push({ label: 'Quit', click: () => actions.quit() })
  return items
}

/** "Turn notifications back on (muted until 14:30)"; a mute with no end has no time to tell. */
export function turnBackOnLabel(mute: Mute, now: number): string {
  if (mute.until === null) return 'Turn notifications back on'
  return `Turn notifications back on (muted until ${localTime(mute.until, now)})`
}

/**
 * "14:30" on the same day as `now`, "Wed 08:00" on another: the label stays true however long
 * the menu goes unchanged, where "tomorrow" would be wrong after midnight.
 */
export function localTime(at: number, now: number): string {
  const end = new Date(at)
  const time = `${twoDigits(end.getHours())}:${twoDigits(end.getMinutes())}`
  return end.toDateString() === new Date(now).toDateString() ? time : `${WEEKDAYS[end.getDay()] ?? ''} ${time}`
}

function twoDigits(value: number): string {
  return String(value).padStart(2, '0')
}
