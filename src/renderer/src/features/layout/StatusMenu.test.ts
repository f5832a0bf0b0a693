import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { DesktopState } from '@shared/attention'
import { desktopState, FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

function signedIn(state: DesktopState = desktopState()): FakeApi {
  return new FakeApi().returns('session:get', { status: 'signedIn', me }).returns('desktop:get', state)
}

async function statusButton(): Promise<HTMLElement> {
  return screen.findByRole('button', { name: 'Status' })
}

function menu(): HTMLElement {
  return screen.getByRole('menu', { name: 'Status' })
}

/** Today at the given local time, so the expected text does not depend on when the test runs. */
function todayAt(hours: number, minutes: number): number {
  const date = new Date()
  date.setHours(hours, minutes, 0, 0)
  return date.getTime()
}

const clock = new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' })

describe('status menu', () => {
  it('opens from the keyboard on its first item, moves with the arrows and closes with Escape', async () => {
    await startApp(signedIn())
    const button = await statusButton()
    expect(button).toHaveAttribute('aria-haspopup', 'menu')
    expect(button).toHaveAttribute('aria-expanded', 'false')

    await fireEvent.keyDown(button, { key: 'ArrowDown' })
    await waitFor(() => expect(screen.getByRole('menuitemradio', { name: 'Active' })).toHaveFocus())
    expect(button).toHaveAttribute('aria-expanded', 'true')

    await fireEvent.keyDown(menu(), { key: 'ArrowDown' })
    expect(screen.getByRole('menuitemradio', { name: 'Away' })).toHaveFocus()
    await fireEvent.keyDown(menu(), { key: 'ArrowUp' })
    await fireEvent.keyDown(menu(), { key: 'ArrowUp' })
    // Up from the first item wraps round to the last.
    expect(screen.getByRole('menuitem', { name: 'Mute notifications until I turn them back on' })).toHaveFocus()
    await fireEvent.keyDown(menu(), { key: 'Home' })
    expect(screen.getByRole('menuitemradio', { name: 'Active' })).toHaveFocus()

    await fireEvent.keyDown(menu(), { key: 'Escape' })
    expect(screen.queryByRole('menu')).toBeNull()
    expect(button).toHaveFocus()
    expect(button).toHaveAttribute('aria-expanded', 'false')
  })

  for (const key of ['Enter', ' ']) {
    it(`opens with ${key === ' ' ? 'Space' : key} and chooses the focused item with it`, async () => {
      const fake = signedIn()
      fake.handle('presence:set', ({ status }) => ({ ok: true, value: desktopState({ status }) }))
      await startApp(fake)
      const button = await statusButton()

      await fireEvent.keyDown(button, { key })
      await waitFor(() => expect(screen.getByRole('menuitemradio', { name: 'Active' })).toHaveFocus())
      await fireEvent.keyDown(menu(), { key: 'ArrowDown' })
      await fireEvent.keyDown(menu(), { key: 'ArrowDown' })
      await fireEvent.keyDown(menu(), { key })

      expect(fake.callsTo('presence:set')).toEqual([{ status: 'dnd' }])
      expect(screen.queryByRole('menu')).toBeNull()
      expect(button).toHaveFocus()
    })
  }

  it('opens with Up on its last item', async () => {
    await startApp(signedIn())
    await fireEvent.keyDown(await statusButton(), { key: 'ArrowUp' })
    await waitFor(() =>
      expect(screen.getByRole('menuitem', { name: 'Mute notifications until I turn them back on' })).toHaveFocus()
    )
  })

  it('checks the status in force', async () => {
    await startApp(signedIn(desktopState({ status: 'away' })))
    await fireEvent.click(await statusButton())

    expect(screen.getByRole('menuitemradio', { name: 'Active' })).toHaveAttribute('aria-checked', 'false')
    expect(screen.getByRole('menuitemradio', { name: 'Away' })).toHaveAttribute('aria-checked', 'true')
    expect(screen.getByRole('menuitemradio', { name: 'Do not disturb' })).toHaveAttribute('aria-checked', 'false')
  })

  it('closes when focus leaves it', async () => {
    await startApp(signedIn())
    await fireEvent.click(await statusButton())
    await waitFor(() => expect(screen.getByRole('menuitemradio', { name: 'Active' })).toHaveFocus())

    screen.getByRole('button', { name: 'Sign out' }).focus()

    await waitFor(() => expect(screen.queryByRole('menu')).toBeNull())
  })

  for (const [label, status, shown] of [
    ['Active', 'active', 'Active'],
    ['Away', 'away', 'Away'],
    ['Do not disturb', 'dnd', 'Do not disturb']
  ] as const) {
    it(`sets ${label} and shows it next to your name`, async () => {
      const fake = signedIn(desktopState({ status: status === 'active' ? 'away' : 'active' }))
      fake.handle('presence:set', ({ status }) => ({ ok: true, value: desktopState({ status }) }))
      await startApp(fake)
      await fireEvent.click(await statusButton())

      await fireEvent.click(screen.getByRole('menuitemradio', { name: label }))

      expect(fake.callsTo('presence:set')).toEqual([{ status }])
      const header = screen.getByRole('banner')
      await waitFor(() => expect(within(header).getByText(shown)).toBeInTheDocument())
    })
  }

  for (const [label, duration] of [
    ['Mute notifications for 1 hour', 'oneHour'],
    ['Mute notifications for 8 hours', 'eightHours'],
    ['Mute notifications until tomorrow', 'untilTomorrow'],
    ['Mute notifications until I turn them back on', 'untilTurnedOn']
  ] as const) {
    it(`asks main to ${label.toLowerCase()}`, async () => {
      const fake = signedIn()
      fake.handle('notifications:mute', () => ({ ok: true, value: desktopState({ mute: { until: null } }) }))
      await startApp(fake)
      await fireEvent.click(await statusButton())

      await fireEvent.click(screen.getByRole('menuitem', { name: label }))

      expect(fake.callsTo('notifications:mute')).toEqual([{ duration }])
      expect(await screen.findByText('Notifications muted')).toBeInTheDocument()
    })
  }

  it('shows when a mute ends, and offers to end it sooner', async () => {
    const until = todayAt(23, 59)
    const fake = signedIn(desktopState({ mute: { until } }))
    fake.returns('notifications:unmute', desktopState())
    await startApp(fake)

    expect(await screen.findByText(`Notifications muted until ${clock.format(until)}`)).toBeInTheDocument()
    await fireEvent.click(await statusButton())
    await fireEvent.click(screen.getByRole('menuitem', { name: 'Turn notifications back on' }))

    expect(fake.callsTo('notifications:unmute')).toEqual([{}])
    await waitFor(() => expect(screen.queryByText(/Notifications muted/)).toBeNull())
  })

  it('names the day of a mute that ends tomorrow', async () => {
    const until = todayAt(8, 0) + 86_400_000
    await startApp(signedIn(desktopState({ mute: { until } })))

    expect(await screen.findByText(`Notifications muted until tomorrow ${clock.format(until)}`)).toBeInTheDocument()
  })

  it('offers no way to turn notifications back on while they are on', async () => {
    await startApp(signedIn())
    await fireEvent.click(await statusButton())

    expect(screen.queryByRole('menuitem', { name: 'Turn notifications back on' })).toBeNull()
  })

  it('follows a change made elsewhere, as from the tray', async () => {
    const fake = signedIn()
    await startApp(fake)
    await statusButton()

    fake.emit('desktop:changed', desktopState({ status: 'dnd' }))

    expect(await within(screen.getByRole('banner')).findByText('Do not disturb')).toBeInTheDocument()
  })

  it('says so when main refuses, and changes nothing', async () => {
    const fake = signedIn()
    fake.fails('presence:set', 'INTERNAL', 'Your status could not be saved.')
    await startApp(fake)
    await fireEvent.click(await statusButton())

    await fireEvent.click(screen.getByRole('menuitemradio', { name: 'Away' }))

    expect(await screen.findByRole('alert')).toHaveTextContent('Your status could not be saved.')
    expect(within(screen.getByRole('banner')).getByText('Active')).toBeInTheDocument()
  })
})
