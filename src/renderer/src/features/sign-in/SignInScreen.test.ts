import { fireEvent, screen, waitFor } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import { FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

async function fillAndSubmit(username: string, password: string): Promise<void> {
  await fireEvent.input(screen.getByRole('textbox', { name: 'Username' }), { target: { value: username } })
  await fireEvent.input(screen.getByLabelText('Password'), { target: { value: password } })
  await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }))
}

describe('sign-in screen', () => {
  it('signs in and shows the conversations', async () => {
    const fake = new FakeApi().returns('session:signIn', { status: 'signedIn', me })
    await startApp(fake)

    await fillAndSubmit('  ada ', 'secret')

    expect(await screen.findByRole('list', { name: 'Conversations' })).toBeInTheDocument()
    expect(fake.callsTo('session:signIn')).toEqual([{ username: 'ada', password: 'secret' }])
    expect(screen.getByText('Ada Lovelace')).toBeInTheDocument()
    expect(fake.callsTo('conversations:list')).toHaveLength(1)
  })

  it('says so when the password is wrong, and keeps what was typed', async () => {
    const fake = new FakeApi().fails('session:signIn', 'UNAUTHENTICATED', 'Your session has ended.')
    await startApp(fake)

    await fillAndSubmit('ada', 'wrong')

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Wrong username or password'))
    expect(screen.getByRole('textbox', { name: 'Username' })).toHaveValue('ada')
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeEnabled()
  })

  it("shows main's words when the service is rate limiting", async () => {
    const fake = new FakeApi().fails('session:signIn', 'RATE_LIMITED', 'Too many attempts. Wait a few minutes and try again.')
    await startApp(fake)

    await fillAndSubmit('ada', 'secret')

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Too many attempts'))
  })

  it('asks to check the connection when the service cannot be reached', async () => {
    const fake = new FakeApi().fails('session:signIn', 'NETWORK', 'Cannot reach the service. Check your connection; we will keep trying.')
    await startApp(fake)

    await fillAndSubmit('ada', 'secret')

    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('Cannot reach the service. Check your connection and try again.')
    )
  })

  it('does not call main without a username and password', async () => {
    const fake = new FakeApi()
    await startApp(fake)

    await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }))

    expect(screen.getByRole('alert')).toHaveTextContent('Enter your username and password')
    expect(fake.callsTo('session:signIn')).toHaveLength(0)
  })

  it('is disabled while signing in', async () => {
    const fake = new FakeApi()
    const answer = fake.holds('session:signIn')
    await startApp(fake)

    await fillAndSubmit('ada', 'secret')

    expect(screen.getByRole('button', { name: 'Sign in' })).toBeDisabled()
    answer.resolve({ status: 'signedIn', me })
    expect(await screen.findByRole('button', { name: 'Sign out' })).toBeInTheDocument()
  })

  it('shows the notice main left when it ended the session', async () => {
    const fake = new FakeApi().returns('session:get', { status: 'signedOut', notice: 'Your session has ended. Please sign in again.' })
    await startApp(fake)

    expect(screen.getByText('Your session has ended. Please sign in again.')).toBeInTheDocument()
  })
})
