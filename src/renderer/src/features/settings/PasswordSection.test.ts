// Settings ▸ Security ▸ Password, through the whole renderer against a fake main. Password fields
// have no ARIA role, so they are found by their labels.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import { FakeApi, desktopState, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const NOTICE = 'Your password was changed, and every session ended with it. Sign in with your new password.'

function signedIn(): FakeApi {
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('desktop:get', desktopState())
    .returns('people:blocked', [])
    .returns('account:get', { id: me.id, name: me.name, email: null, bio: '', avatarUrl: null, twoStep: { enabled: false, phoneHint: null } })
    .returns('security:signedInApps', [])
}

async function openSecurity(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  const dialog = screen.getByRole('dialog', { name: 'Settings' })
  await fireEvent.click(within(dialog).getByRole('tab', { name: 'Security' }))
  return dialog
}

async function fill(dialog: HTMLElement, current: string, next: string, repeat: string): Promise<void> {
  await fireEvent.input(within(dialog).getByLabelText('Current password'), { target: { value: current } })
  await fireEvent.input(within(dialog).getByLabelText('New password'), { target: { value: next } })
  await fireEvent.input(within(dialog).getByLabelText('Repeat new password'), { target: { value: repeat } })
}

describe('Settings ▸ Security ▸ Password', () => {
  it('changes the password, and the sign-in screen says every session ended', async () => {
    const fake = signedIn()
    fake.handle('account:changePassword', () => {
      fake.emit('session:changed', { status: 'signedOut', notice: NOTICE })
      return { ok: true, value: null }
    })
    const dialog = await openSecurity(fake)

    await fill(dialog, 'old secret', 'new secret!', 'new secret!')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }))

    expect(fake.callsTo('account:changePassword')).toEqual([{ current: 'old secret', next: 'new secret!' }])
    expect(await screen.findByText(NOTICE)).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeInTheDocument()
  })

  it('wants at least 8 characters, shown at New password, before asking main', async () => {
    const fake = signedIn()
    const dialog = await openSecurity(fake)
    expect(within(dialog).getByLabelText('New password')).toHaveAccessibleDescription('At least 8 characters.')

    await fill(dialog, 'old secret', 'short', 'short')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }))

    const next = within(dialog).getByLabelText('New password')
    await waitFor(() => expect(next).toHaveFocus())
    expect(next).toHaveAttribute('aria-invalid', 'true')
    expect(next).toHaveAccessibleDescription('Use at least 8 characters.')
    expect(fake.callsTo('account:changePassword')).toEqual([])
  })

  it('wants the new password repeated exactly, shown at Repeat new password', async () => {
    const fake = signedIn()
    const dialog = await openSecurity(fake)

    await fill(dialog, 'old secret', 'new secret!', 'new secret?')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }))

    const repeat = within(dialog).getByLabelText('Repeat new password')
    await waitFor(() => expect(repeat).toHaveFocus())
    expect(repeat).toHaveAccessibleDescription('This is not the same as the new password.')
    expect(fake.callsTo('account:changePassword')).toEqual([])

    await fireEvent.input(repeat, { target: { value: 'new secret!' } })
    expect(repeat).toHaveAttribute('aria-invalid', 'false')
  })

  it('wants the current password', async () => {
    const fake = signedIn()
    const dialog = await openSecurity(fake)

    await fill(dialog, '', 'new secret!', 'new secret!')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }))

    expect(within(dialog).getByLabelText('Current password')).toHaveAccessibleDescription('Write your current password.')
    expect(fake.callsTo('account:changePassword')).toEqual([])
  })

  it('shows a wrong current password at Current password, and keeps everything typed', async () => {
    const fake = signedIn().fails('account:changePassword', 'FORBIDDEN', 'The current password is wrong. Check it and try again.')
    const dialog = await openSecurity(fake)

    await fill(dialog, 'not it', 'new secret!', 'new secret!')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }))

    const current = within(dialog).getByLabelText('Current password')
    await waitFor(() => expect(current).toHaveAccessibleDescription('The current password is wrong. Check it and try again.'))
    expect(current).toHaveFocus()
    expect(current).toHaveValue('not it')
    expect(within(dialog).getByLabelText('New password')).toHaveValue('new secret!')
    expect(within(dialog).getByLabelText('Repeat new password')).toHaveValue('new secret!')
  })

  it('says, not at Current password, that too many wrong passwords were tried, and keeps everything typed', async () => {
    const limited = 'There have been too many wrong passwords for this account. Wait 15 minutes, then try again.'
    const fake = signedIn().fails('account:changePassword', 'RATE_LIMITED', limited)
    const dialog = await openSecurity(fake)

    await fill(dialog, 'old secret', 'new secret!', 'new secret!')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }))

    expect(await within(dialog).findByRole('alert')).toHaveTextContent(`Your password was not changed. ${limited}`)
    const current = within(dialog).getByLabelText('Current password')
    expect(current).toHaveAttribute('aria-invalid', 'false')
    expect(current).toHaveValue('old secret')
    expect(within(dialog).getByLabelText('New password')).toHaveValue('new secret!')
  })

  it('says when the change failed for another reason', async () => {
    const fake = signedIn().fails('account:changePassword', 'NETWORK', 'Cannot reach the service.')
    const dialog = await openSecurity(fake)

    await fill(dialog, 'old secret', 'new secret!', 'new secret!')
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Change password' }))

    expect(await within(dialog).findByRole('alert')).toHaveTextContent('Your password was not changed. Cannot reach the service.')
    expect(within(dialog).getByLabelText('Current password')).toHaveValue('old secret')
  })
})
