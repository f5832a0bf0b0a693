import type { MenuItemConstructorOptions, NativeImage, Tray } from 'electron'
import { EventEmitter } from 'node:events'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import type { DesktopState } from '@shared/attention'
import { DEFAULT_SETTINGS } from '@shared/settings'
import { TrayService, type TrayActions, type TrayWindow } from './tray'

const electron = vi.hoisted(() => ({ menus: [] as MenuItemConstructorOptions[][] }))

vi.mock('electron', () => ({
  // The template itself stands in for the menu, so the test can read and click it.
  Menu: { buildFromTemplate: (template: MenuItemConstructorOptions[]) => (electron.menus.push(template), template) },
  // TrayService makes its trays through createTray here; a real Tray would need a desktop.
  Tray: vi.fn()
}))

class FakeTray extends EventEmitter {
  image: unknown
  tooltip = ''
  menu: MenuItemConstructorOptions[] = []
  destroyed = false
  imagesSet = 0
  constructor(image: unknown) {
    super()
    this.image = image
  }
  setImage(image: unknown): void {
    this.image = image
    this.imagesSet++
  }
  setToolTip(tooltip: string): void {
    this.tooltip = tooltip
  }
  setContextMenu(menu: MenuItemConstructorOptions[]): void {
    this.menu = menu
  }
  destroy(): void {
    this.destroyed = true
  }
}

const AFTERNOON = new Date(2026, 10, 24, 13, 0).getTime()

function desktopState(changes: Partial<DesktopState> = {}): DesktopState {
  return {
    status: 'active',
    statusIsAutomatic: false,
    mute: null,
    unreadCount: 0,
    settings: DEFAULT_SETTINGS,
    host: { tray: true, startAtLogin: true },
    ...changes
  }
}

function setUp() {
  const trays: FakeTray[] = []
  const visibility = { shown: true }
  const window = { isShown: vi.fn(() => visibility.shown), show: vi.fn(), hide: vi.fn() } satisfies TrayWindow
  const actions = {
    setStatus: vi.fn(async () => undefined),
    mute: vi.fn(async () => undefined),
    unmute: vi.fn(async () => undefined),
    signOut: vi.fn(async () => undefined),
    quit: vi.fn()
  } satisfies TrayActions
  const log = { info: vi.fn(), warn: vi.fn(), error: vi.fn() }
  const service = new TrayService({
    icon: (count) => ({ count }) as unknown as NativeImage,
    window,
    actions,
    log,
    now: () => AFTERNOON,
    createTray: (image) => {
      const tray = new FakeTray(image)
      trays.push(tray)
      return tray as unknown as Tray
    }
  })
  const tray = (): FakeTray => {
    const only = trays[0]
    if (only === undefined || trays.length !== 1) throw new Error(`expected one tray, made ${trays.length}`)
    return only
  }
  return { service, tray, window, visibility, actions, log }
}

/** The menu item labelled `path`'s last element, under the submenus labelled by the others. */
function item(menu: MenuItemConstructorOptions[], ...path: string[]): MenuItemConstructorOptions {
  let items = menu
  let found: MenuItemConstructorOptions | undefined
  for (const label of path) {
    found = items.find((candidate) => candidate.label === label)
    if (found === undefined) throw new Error(`no menu item "${label}" in ${items.map((candidate) => candidate.label).join(', ')}`)
    items = Array.isArray(found.submenu) ? found.submenu : []
  }
  if (found === undefined) throw new Error('no path')
  return found
}

function click(menuItem: MenuItemConstructorOptions): void {
  ;(menuItem.click as () => void)()
}

function labels(menu: MenuItemConstructorOptions[]): (string | undefined)[] {
  return menu.map((menuItem) => (menuItem.type === 'separator' ? '---' : menuItem.label))
}

beforeEach(() => {
  electron.menus.length = 0
})

describe('TrayService', () => {
  it('appears with the first desktop state, showing its unread count on the icon and in the tooltip', () => {
    const { service, tray } = setUp()
    service.show(desktopState({ unreadCount: 3 }))
    expect(tray().image).toEqual({ count: 3 })
    expect(tray().tooltip).toBe('Parley: 3 unread')
  })

  it('says "nothing unread" rather than 0', () => {
    const { service, tray } = setUp()
    service.show(desktopState({ unreadCount: 0 }))
    expect(tray().tooltip).toBe('Parley: nothing unread')
  })

  it('redraws the icon when the count changes, and only then', () => {
    const { service, tray } = setUp()
    service.show(desktopState({ unreadCount: 1 }))
    service.show(desktopState({ unreadCount: 1, status: 'dnd' }))
    expect(tray().imagesSet).toBe(0)
    service.show(desktopState({ unreadCount: 12 }))
    expect(tray().image).toEqual({ count: 12 })
    expect(tray().imagesSet).toBe(1)
  })

  it('renders nothing again for a state it already shows', () => {
    const { service } = setUp()
    service.show(desktopState())
    service.show(desktopState())
    service.setSignedIn(false)
    expect(electron.menus).toHaveLength(1)
  })

  it('has the whole menu, signed in and not muted', () => {
    const { service, tray } = setUp()
    service.setSignedIn(true)
    service.show(desktopState())
    expect(labels(tray().menu)).toEqual(['Open Parley', '---', 'Status', 'Mute notifications', '---', 'Sign out', 'Quit'])
    expect(labels(item(tray().menu, 'Status').submenu as MenuItemConstructorOptions[])).toEqual(['Active', 'Away', 'Do not disturb'])
    expect(labels(item(tray().menu, 'Mute notifications').submenu as MenuItemConstructorOptions[])).toEqual([
      'For 1 hour',
      'For 8 hours',
      'Until tomorrow (08:00 local)',
      'Until I turn them back on'
    ])
  })

  it('offers Sign out only while someone is signed in', () => {
    const { service, tray } = setUp()
    service.show(desktopState())
    expect(labels(tray().menu)).not.toContain('Sign out')
    service.setSignedIn(true)
    expect(labels(tray().menu)).toContain('Sign out')
    service.setSignedIn(false)
    expect(labels(tray().menu)).not.toContain('Sign out')
  })

  it('checks the status in force as a radio item', () => {
    const { service, tray } = setUp()
    service.show(desktopState({ status: 'away', statusIsAutomatic: true }))
    const statuses = item(tray().menu, 'Status').submenu as MenuItemConstructorOptions[]
    expect(statuses.map(({ type, checked }) => ({ type, checked }))).toEqual([
      { type: 'radio', checked: false },
      { type: 'radio', checked: true },
      { type: 'radio', checked: false }
    ])
    service.show(desktopState({ status: 'dnd' }))
    expect(item(tray().menu, 'Status', 'Do not disturb').checked).toBe(true)
    expect(item(tray().menu, 'Status', 'Away').checked).toBe(false)
  })

  it('sets the status chosen in the menu through core', () => {
    const { service, tray, actions } = setUp()
    service.show(desktopState())
    click(item(tray().menu, 'Status', 'Do not disturb'))
    click(item(tray().menu, 'Status', 'Away'))
    click(item(tray().menu, 'Status', 'Active'))
    expect(actions.setStatus.mock.calls).toEqual([['dnd'], ['away'], ['active']])
  })

  it('mutes for the duration chosen', () => {
    const { service, tray, actions } = setUp()
    service.show(desktopState())
    click(item(tray().menu, 'Mute notifications', 'For 1 hour'))
    click(item(tray().menu, 'Mute notifications', 'For 8 hours'))
    click(item(tray().menu, 'Mute notifications', 'Until tomorrow (08:00 local)'))
    click(item(tray().menu, 'Mute notifications', 'Until I turn them back on'))
    expect(actions.mute.mock.calls).toEqual([['oneHour'], ['eightHours'], ['untilTomorrow'], ['untilTurnedOn']])
  })

  it('offers to turn notifications back on while muted, saying until when', () => {
    const { service, tray, actions } = setUp()
    service.show(desktopState({ mute: { until: new Date(2026, 10, 24, 14, 30).getTime() } }))
    expect(labels(tray().menu)).toEqual([
      'Open Parley',
      '---',
      'Status',
      'Mute notifications',
      'Turn notifications back on (muted until 14:30)',
      '---',
      'Quit'
    ])
    click(item(tray().menu, 'Turn notifications back on (muted until 14:30)'))
    expect(actions.unmute).toHaveBeenCalledTimes(1)

    service.show(desktopState())
    expect(labels(tray().menu).some((label) => label?.startsWith('Turn notifications back on'))).toBe(false)
  })

  it('names the day of a mute that ends on another, and no time for one with no end', () => {
    const { service, tray } = setUp()
    // 24 November 2026 is a Tuesday.
    service.show(desktopState({ mute: { until: new Date(2026, 10, 25, 8, 0).getTime() } }))
    expect(labels(tray().menu)).toContain('Turn notifications back on (muted until Wed 08:00)')
    service.show(desktopState({ mute: { until: null } }))
    expect(labels(tray().menu)).toContain('Turn notifications back on')
  })

  it('signs out and quits from the menu', () => {
    const { service, tray, actions } = setUp()
    service.setSignedIn(true)
    service.show(desktopState())
    click(item(tray().menu, 'Sign out'))
    expect(actions.signOut).toHaveBeenCalledTimes(1)
    click(item(tray().menu, 'Quit'))
    expect(actions.quit).toHaveBeenCalledTimes(1)
  })

  it('opens the window from the menu', () => {
    const { service, tray, window, visibility } = setUp()
    visibility.shown = false
    service.show(desktopState())
    click(item(tray().menu, 'Open Parley'))
    expect(window.show).toHaveBeenCalledTimes(1)
  })

  it('hides the window on a left click while it is shown, and shows it on the next', () => {
    const { service, tray, window, visibility } = setUp()
    service.show(desktopState())
    tray().emit('click')
    expect(window.hide).toHaveBeenCalledTimes(1)
    visibility.shown = false
    tray().emit('click')
    expect(window.show).toHaveBeenCalledTimes(1)
    expect(window.hide).toHaveBeenCalledTimes(1)
  })

  it('logs a menu action core refused, and shows again what core says', async () => {
    const { service, tray, actions, log } = setUp()
    actions.setStatus.mockRejectedValueOnce(new Error('disk full'))
    service.show(desktopState())
    const menusBefore = electron.menus.length
    click(item(tray().menu, 'Status', 'Away'))
    await vi.waitFor(() => expect(log.warn).toHaveBeenCalledWith('the tray could not set your status', new Error('disk full')))
    expect(electron.menus.length).toBe(menusBefore + 1)
    expect(item(tray().menu, 'Status', 'Active').checked).toBe(true)
  })

  it('keeps the app running on close only with a tray and the setting on', () => {
    const { service } = setUp()
    expect(service.keepsAppRunning).toBe(false)
    service.show(desktopState())
    expect(service.keepsAppRunning).toBe(true)
    service.show(desktopState({ settings: { ...desktopState().settings, keepRunningInTray: false } }))
    expect(service.keepsAppRunning).toBe(false)
  })

  it('is gone once destroyed', () => {
    const { service, tray } = setUp()
    service.show(desktopState())
    service.destroy()
    expect(tray().destroyed).toBe(true)
    expect(service.keepsAppRunning).toBe(false)
  })
})
