import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { afterEach, describe, expect, it } from 'vitest'
import type { DesktopState } from '@shared/attention'
import type { SettingsChanges } from '@shared/settings'
import { desktopState, FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

/** Main's part: applies each change to the state it keeps and answers with the whole of it. */
function signedIn(initial: DesktopState = desktopState()): FakeApi {
  let state = initial
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('desktop:get', initial)
    .handle('settings:update', ({ changes }) => {
      state = { ...state, settings: { ...state.settings, ...withoutUndefined(changes) } }
      return { ok: true, value: state }
    })
}

function withoutUndefined(changes: SettingsChanges): Partial<DesktopState['settings']> {
  return Object.fromEntries(Object.entries(changes).filter(([, value]) => value !== undefined))
}

async function openSettings(): Promise<HTMLElement> {
  await fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  return screen.findByRole('dialog', { name: 'Settings' })
}

afterEach(() => {
  delete document.documentElement.dataset['theme']
})

describe('settings', () => {
  it('opens as a modal dialog and gives focus back to its button when closed', async () => {
    await startApp(signedIn())
    expect(screen.queryByRole('dialog')).toBeNull()

    const dialog = await openSettings()
    expect(dialog).toHaveAttribute('open')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))

    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    expect(screen.getByRole('button', { name: 'Settings' })).toHaveFocus()
  })

  it('shows the saved settings', async () => {
    await startApp(
      signedIn(
        desktopState({
          settings: {
            desktopNotifications: true,
            sound: false,
            showMessageText: false,
            autoAwayMinutes: 30,
            keepRunningInTray: true,
            startAtLogin: false,
            theme: 'dark',
            keepFullHistory: true,
            pictureCacheLimitMb: 500
          },
          host: { tray: true, startAtLogin: true }
        })
      )
    )
    const dialog = await openSettings()

    expect(within(dialog).getByRole('checkbox', { name: 'Desktop notifications' })).toBeChecked()
    expect(within(dialog).getByRole('checkbox', { name: 'Sound' })).not.toBeChecked()
    expect(within(dialog).getByRole('checkbox', { name: 'Show message text in notifications' })).not.toBeChecked()
    expect(within(dialog).getByRole('checkbox', { name: 'Keep running in the tray' })).toBeChecked()
    expect(within(dialog).getByRole('checkbox', { name: 'Start at login' })).not.toBeChecked()
    expect(within(dialog).getByRole('combobox', { name: 'Automatic away' })).toHaveDisplayValue('30 minutes')
    expect(within(dialog).getByRole('combobox', { name: 'Theme' })).toHaveDisplayValue('Dark')
  })

  it('offers the login item only where the host has one, and says the tray is the desktop app\'s', async () => {
    await startApp(signedIn(desktopState({ host: { tray: false, startAtLogin: false } })))
    const dialog = await openSettings()

    expect(within(dialog).getByRole('checkbox', { name: 'Keep running in the tray' })).toHaveAccessibleDescription(
      'Applies to the desktop app: a browser tab has no tray.'
    )
    expect(within(dialog).queryByRole('checkbox', { name: 'Start at login' })).toBeNull()
  })

  for (const [name, setting, checked] of [
    ['Desktop notifications', 'desktopNotifications', false],
    ['Sound', 'sound', false],
    ['Show message text in notifications', 'showMessageText', false],
    ['Keep running in the tray', 'keepRunningInTray', false],
    ['Start at login', 'startAtLogin', true]
  ] as const) {
    it(`saves "${name}" as soon as it changes`, async () => {
      const fake = signedIn(desktopState({ host: { tray: true, startAtLogin: true } }))
      await startApp(fake)
      const box = within(await openSettings()).getByRole('checkbox', { name })

      await fireEvent.click(box)

      expect(fake.callsTo('settings:update')).toEqual([{ changes: { [setting]: checked } }])
      await waitFor(() => (checked ? expect(box).toBeChecked() : expect(box).not.toBeChecked()))
    })
  }

  for (const [display, minutes] of [
    ['Off', 0],
    ['5 minutes', 5],
    ['30 minutes', 30]
  ] as const) {
    it(`saves automatic away: ${display}`, async () => {
      const fake = signedIn()
      await startApp(fake)
      const select = within(await openSettings()).getByRole('combobox', { name: 'Automatic away' })

      await fireEvent.change(select, { target: { value: String(minutes) } })

      expect(fake.callsTo('settings:update')).toEqual([{ changes: { autoAwayMinutes: minutes } }])
      expect(select).toHaveDisplayValue(display)
    })
  }

  it('saves the theme and applies it to the page, and System leaves it to the OS again', async () => {
    const fake = signedIn()
    await startApp(fake)
    const select = within(await openSettings()).getByRole('combobox', { name: 'Theme' })
    expect(document.documentElement.dataset['theme']).toBeUndefined()

    await fireEvent.change(select, { target: { value: 'dark' } })
    expect(fake.callsTo('settings:update')).toEqual([{ changes: { theme: 'dark' } }])
    await waitFor(() => expect(document.documentElement.dataset['theme']).toBe('dark'))

    await fireEvent.change(select, { target: { value: 'light' } })
    await waitFor(() => expect(document.documentElement.dataset['theme']).toBe('light'))

    await fireEvent.change(select, { target: { value: 'system' } })
    await waitFor(() => expect(document.documentElement.dataset['theme']).toBeUndefined())
  })

  it('applies the saved theme from the start, before anyone signs in', async () => {
    const fake = new FakeApi().returns('desktop:get', desktopState({ settings: { ...desktopState().settings, theme: 'light' } }))
    await startApp(fake)

    await screen.findByRole('button', { name: 'Sign in' })
    expect(document.documentElement.dataset['theme']).toBe('light')
  })

  it('says so when a change is refused, and shows the setting as it still is', async () => {
    const fake = signedIn().fails('settings:update', 'INTERNAL', 'Your settings could not be saved.')
    await startApp(fake)
    const dialog = await openSettings()
    const sound = within(dialog).getByRole('checkbox', { name: 'Sound' })
    const theme = within(dialog).getByRole('combobox', { name: 'Theme' })

    await fireEvent.click(sound)
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your settings could not be saved.')
    await waitFor(() => expect(sound).toBeChecked())

    await fireEvent.change(theme, { target: { value: 'dark' } })
    await waitFor(() => expect(theme).toHaveDisplayValue('System'))
    expect(document.documentElement.dataset['theme']).toBeUndefined()
  })
})

describe('the settings tabs', () => {
  const NAMES = ['Notifications', 'Account', 'Security', 'Storage', 'Service']

  function selected(dialog: HTMLElement): string | undefined {
    return within(dialog)
      .getAllByRole('tab')
      .find((tab) => tab.getAttribute('aria-selected') === 'true')?.textContent?.trim()
  }

  it('opens on Notifications, one tab stop for the tablist, and the tab names its panel', async () => {
    await startApp(signedIn())
    const dialog = await openSettings()

    const tablist = within(dialog).getByRole('tablist', { name: 'Settings' })
    expect(within(tablist).getAllByRole('tab').map((tab) => tab.textContent?.trim())).toEqual(NAMES)
    expect(within(tablist).getAllByRole('tab').map((tab) => tab.tabIndex)).toEqual([0, -1, -1, -1, -1])
    const panel = within(dialog).getByRole('tabpanel', { name: 'Notifications' })
    expect(within(panel).getByRole('checkbox', { name: 'Sound' })).toBeInTheDocument()
    expect(within(dialog).getAllByRole('tabpanel')).toHaveLength(1)
  })

  it('moves with the arrow keys, wrapping at both ends, and Home and End go to the first and last', async () => {
    await startApp(signedIn().returns('people:blocked', []))
    const dialog = await openSettings()
    const first = within(dialog).getByRole('tab', { name: 'Notifications' })
    first.focus()

    await fireEvent.keyDown(first, { key: 'ArrowRight' })
    expect(selected(dialog)).toBe('Account')
    expect(within(dialog).getByRole('tab', { name: 'Account' })).toHaveFocus()
    expect(within(dialog).getByRole('tabpanel', { name: 'Account' })).toBeInTheDocument()
    expect(within(dialog).queryByRole('checkbox', { name: 'Sound' })).toBeNull()

    await fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'End' })
    expect(selected(dialog)).toBe('Service')
    await fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowRight' })
    expect(selected(dialog)).toBe('Notifications')
    await fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'ArrowLeft' })
    expect(selected(dialog)).toBe('Service')
    expect(within(dialog).getByRole('tab', { name: 'Service' })).toHaveFocus()
    await fireEvent.keyDown(document.activeElement as HTMLElement, { key: 'Home' })
    expect(selected(dialog)).toBe('Notifications')
    expect(within(dialog).getByRole('tab', { name: 'Service' }).tabIndex).toBe(-1)
    expect(within(dialog).getByRole('tab', { name: 'Notifications' }).tabIndex).toBe(0)
  })

  it('shows a tab when it is clicked, and leaves other keys alone', async () => {
    await startApp(signedIn().returns('people:blocked', []))
    const dialog = await openSettings()

    await fireEvent.click(within(dialog).getByRole('tab', { name: 'Security' }))
    expect(selected(dialog)).toBe('Security')
    expect(await within(dialog).findByText('You have not blocked anyone.')).toBeInTheDocument()

    await fireEvent.keyDown(within(dialog).getByRole('tab', { name: 'Security' }), { key: 'ArrowDown' })
    expect(selected(dialog)).toBe('Security')
  })

  it('opens on Notifications again after it was closed on another tab', async () => {
    await startApp(signedIn())
    let dialog = await openSettings()
    await fireEvent.click(within(dialog).getByRole('tab', { name: 'Service' }))
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())

    dialog = await openSettings()
    expect(selected(dialog)).toBe('Notifications')
  })
})
