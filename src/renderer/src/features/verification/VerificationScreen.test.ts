import { fireEvent, screen, waitFor } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import { FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

function verifyingApi(): FakeApi {
  return new FakeApi()
    .returns('session:signIn', { status: 'verificationRequired', challenge: { smsHint: '42' } })
    .returns('session:sendCode', { smsHint: '42' })
}

async function signIn(): Promise<void> {
  await fireEvent.input(screen.getByRole('textbox', { name: 'Username' }), { target: { value: 'ada' } })
  await fireEvent.input(screen.getByLabelText('Password'), { target: { value: 'secret' } })
  await fireEvent.click(screen.getByRole('button', { name: 'Sign in' }))
  await screen.findByRole('textbox', { name: 'Verification code' })
}

async function enterCode(code: string): Promise<void> {
  await fireEvent.input(screen.getByRole('textbox', { name: 'Verification code' }), { target: { value: code } })
  await fireEvent.click(screen.getByRole('button', { name: 'Verify' }))
}

describe('verification screen', () => {
  it('follows a sign-in that needs a code, and sends the SMS on request', async () => {
    const fake = verifyingApi()
    await startApp(fake)
    await signIn()

    expect(screen.getByText(/SMS to your phone ending in 42/)).toBeInTheDocument()
    await fireEvent.click(screen.getByRole('button', { name: 'Send code' }))

    expect(await screen.findByRole('button', { name: 'Resend code' })).toBeInTheDocument()
    expect(fake.callsTo('session:sendCode')).toHaveLength(1)
  })

  it('signs in with the right code', async () => {
    const fake = verifyingApi().returns('session:confirmCode', { status: 'signedIn', me })
    await startApp(fake)
    await signIn()

    await enterCode(' 123 456 ')

    expect(await screen.findByRole('list', { name: 'Conversations' })).toBeInTheDocument()
    expect(fake.callsTo('session:confirmCode')).toEqual([{ code: '123456' }])
  })

  it('tells how many attempts are left after a wrong code', async () => {
    const fake = verifyingApi().returns('session:confirmCode', { status: 'wrongCode', remainingAttempts: 2 })
    await startApp(fake)
    await signIn()

    await enterCode('000000')

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Wrong code — 2 attempts left'))
    expect(screen.getByRole('button', { name: 'Verify' })).toBeEnabled()
  })

  it('locks when no attempts are left and sends the user back', async () => {
    const fake = verifyingApi().returns('session:confirmCode', { status: 'wrongCode', remainingAttempts: 0 })
    await startApp(fake)
    await signIn()

    await enterCode('000000')

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Go back and sign in again'))
    expect(screen.getByRole('button', { name: 'Verify' })).toBeDisabled()

    await fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument()
    expect(fake.callsTo('session:cancelVerification')).toHaveLength(1)
  })

  it('follows main when it moves the session on by itself', async () => {
    const fake = verifyingApi()
    await startApp(fake)
    await signIn()

    fake.emit('session:changed', { status: 'signedOut', notice: 'The code expired. Sign in again.' })

    expect(await screen.findByText('The code expired. Sign in again.')).toBeInTheDocument()
  })
})
