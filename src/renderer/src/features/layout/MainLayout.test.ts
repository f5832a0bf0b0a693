import { screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import { FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

function signedIn(): FakeApi {
  return new FakeApi().returns('session:get', { status: 'signedIn', me })
}

describe('header', () => {
  it('claims no connection state before main has reported one', async () => {
    await startApp(signedIn())

    const status = await screen.findByRole('status')
    expect(status.textContent?.trim()).toBe('')
  })

  it('shows the status main reports when the page says it is ready, as after a reload', async () => {
    const fake = signedIn()
    // What core does on every app:ready: it tells the page where the connection stands now.
    fake.handle('app:ready', () => {
      fake.emit('push:status', 'connected')
      return { ok: true, value: null }
    })
    await startApp(fake)

    expect(await screen.findByRole('status')).toHaveTextContent('Connected')
  })

  it('follows the connection as main reports it', async () => {
    const fake = signedIn()
    await startApp(fake)
    await screen.findByRole('status')

    for (const [state, text] of [
      ['connecting', 'Connecting…'],
      ['connected', 'Connected'],
      ['reconnecting', 'Reconnecting…'],
      ['offline', 'Offline']
    ] as const) {
      fake.emit('push:status', state)
      await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent(text))
    }
  })

  it('reads Offline while main counts the service out of reach, with a notice saying what shows, and push’s own status once it is back', async () => {
    const fake = signedIn()
    await startApp(fake)
    await screen.findByRole('status')
    fake.emit('push:status', 'connecting')
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Connecting…'))
    expect(screen.queryByText("You're offline. Showing messages kept on this device.")).not.toBeInTheDocument()

    fake.emit('connection:offline', { offline: true })
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Offline'))
    const notice = screen.getByText("You're offline. Showing messages kept on this device.")
    expect(notice.closest('[aria-live="polite"]')).not.toBeNull()

    fake.emit('push:status', 'connected')
    await waitFor(() => expect(screen.getByRole('status')).toHaveTextContent('Connected'))
    expect(screen.queryByText("You're offline. Showing messages kept on this device.")).not.toBeInTheDocument()
  })

  it('shows what main says about what this device keeps, once per text, until dismissed', async () => {
    const fake = signedIn()
    await startApp(fake)
    await screen.findByRole('status')
    const text = 'The messages kept on this device could not be read, so they were set aside.'
    fake.emit('storage:notice', { text })
    fake.emit('storage:notice', { text })

    const shown = await screen.findByText(text)
    expect(screen.getAllByText(text)).toHaveLength(1)
    expect(shown.closest('[aria-live="polite"]')).not.toBeNull()
    screen.getByRole('button', { name: 'Dismiss' }).click()
    await waitFor(() => expect(screen.queryByText(text)).not.toBeInTheDocument())
  })

  it('signs out', async () => {
    const fake = signedIn()
    await startApp(fake)

    ;(await screen.findByRole('button', { name: 'Sign out' })).click()

    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument()
    expect(fake.callsTo('session:signOut')).toHaveLength(1)
  })

  it('asks before signing out while messages wait unsent, and keeps them on Cancel', async () => {
    const fake = signedIn()
    fake.handle('session:signOut', ({ discardUnsent }) => ({
      ok: true,
      value: discardUnsent === true ? { status: 'signedOut' } : { status: 'unsentMessages', count: 3 }
    }))
    await startApp(fake)

    ;(await screen.findByRole('button', { name: 'Sign out' })).click()
    const dialog = await screen.findByRole('alertdialog', { name: 'Unsent messages' })
    expect(dialog).toHaveAccessibleDescription(/^3 messages you wrote have not been sent yet\./)
    within(dialog).getByRole('button', { name: 'Cancel' }).click()

    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument())
    expect(screen.getByRole('button', { name: 'Sign out' })).toBeInTheDocument()
    expect(fake.callsTo('session:signOut')).toEqual([{}])
  })

  it('signs out anyway when told to, saying so to main', async () => {
    const fake = signedIn()
    fake.handle('session:signOut', ({ discardUnsent }) => ({
      ok: true,
      value: discardUnsent === true ? { status: 'signedOut' } : { status: 'unsentMessages', count: 1 }
    }))
    await startApp(fake)

    ;(await screen.findByRole('button', { name: 'Sign out' })).click()
    const dialog = await screen.findByRole('alertdialog', { name: 'Unsent messages' })
    expect(dialog).toHaveAccessibleDescription(/^1 message you wrote has not been sent yet\./)
    within(dialog).getByRole('button', { name: 'Sign out anyway' }).click()

    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument()
    expect(fake.callsTo('session:signOut')).toEqual([{}, { discardUnsent: true }])
  })
})
