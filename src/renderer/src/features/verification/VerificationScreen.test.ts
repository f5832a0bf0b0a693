import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it, onTestFinished } from 'vitest'
import type { TextRoute } from '@shared/account'
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

async function sendCode(): Promise<void> {
  await fireEvent.click(screen.getByRole('button', { name: 'Send code' }))
  await screen.findByRole('button', { name: 'Resend code' })
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
    expect(screen.getByRole('textbox', { name: 'Verification code' })).toHaveFocus()
    await fireEvent.click(screen.getByRole('button', { name: 'Send code' }))

    expect(await screen.findByRole('button', { name: 'Resend code' })).toBeInTheDocument()
    expect(fake.callsTo('session:sendCode')).toHaveLength(1)
  })

  it('signs in with the right code', async () => {
    const fake = verifyingApi().returns('session:confirmCode', { status: 'signedIn', me })
    await startApp(fake)
    await signIn()
    await sendCode()

    await enterCode(' 123 456 ')

    expect(await screen.findByRole('list', { name: 'Conversations' })).toBeInTheDocument()
    expect(fake.callsTo('session:confirmCode')).toEqual([{ code: '123456' }])
  })

  it('tells how many attempts are left after a wrong code', async () => {
    const fake = verifyingApi().returns('session:confirmCode', { status: 'wrongCode', remainingAttempts: 2 })
    await startApp(fake)
    await signIn()
    await sendCode()

    await enterCode('000000')

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Wrong code — 2 attempts left'))
    expect(screen.getByRole('button', { name: 'Verify' })).toBeEnabled()
  })

  it('says the sign-in is locked when no attempts are left, and starting again asks for a new code afresh', async () => {
    const fake = verifyingApi()
      .returns('session:confirmCode', { status: 'wrongCode', remainingAttempts: 0 })
      .returns('session:startOver', { status: 'verificationRequired', challenge: { smsHint: '42' } })
    await startApp(fake)
    await signIn()
    await sendCode()

    await enterCode('000000')

    await waitFor(() => expect(screen.getByText(/locked after too many wrong codes/)).toBeInTheDocument())
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start again' })).toHaveFocus())
    expect(screen.queryByRole('textbox', { name: 'Verification code' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Verify' })).not.toBeInTheDocument()

    await fireEvent.click(screen.getByRole('button', { name: 'Start again' }))

    // Nothing of the spent verification is left: no countdown, no code said to be sent.
    expect(await screen.findByRole('button', { name: 'Send code' })).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Verification code' })).toHaveValue('')
    expect(screen.queryByText(/locked|attempt/)).not.toBeInTheDocument()
    expect(fake.callsTo('session:startOver')).toHaveLength(1)
  })

  it('goes back to sign-in from a locked sign-in too', async () => {
    const fake = verifyingApi()
    await startApp(fake)
    await signIn()
    fake.emit('session:changed', { status: 'verifying', challenge: { smsHint: '42', spent: 'locked' } })

    await screen.findByText(/locked after too many wrong codes/)
    await fireEvent.click(screen.getByRole('button', { name: 'Back' }))
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument()
    expect(fake.callsTo('session:cancelVerification')).toHaveLength(1)
  })

  it('says the sign-in expired when a code comes too late, and shows why starting again failed', async () => {
    const fake = verifyingApi()
    fake.handle('session:confirmCode', () => {
      // Main publishes the spent verification before it answers the call.
      fake.emit('session:changed', { status: 'verifying', challenge: { smsHint: '42', spent: 'expired' } })
      return { ok: false, error: { code: 'NOT_FOUND', message: 'This sign-in has expired. Start again to get a new code.' } }
    })
    fake.fails('session:startOver', 'NETWORK', 'Cannot reach the service.')
    await startApp(fake)
    await signIn()
    await sendCode()

    await enterCode('123456')

    expect(await screen.findByText('This sign-in has expired. Start again to get a new code.')).toBeInTheDocument()
    await waitFor(() => expect(screen.getByRole('button', { name: 'Start again' })).toHaveFocus())
    expect(screen.getAllByRole('alert').filter((alert) => alert.textContent !== '')).toHaveLength(1)

    await fireEvent.click(screen.getByRole('button', { name: 'Start again' }))
    expect(await screen.findByText('Cannot reach the service. Check your connection and try again.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Start again' })).toBeEnabled()
  })

  it('asks for Send code before a code is typed, and forgets that once the code is sent', async () => {
    const fake = verifyingApi()
    await startApp(fake)
    await signIn()

    await fireEvent.click(screen.getByRole('button', { name: 'Verify' }))
    await waitFor(() =>
      expect(screen.getByRole('alert')).toHaveTextContent('No code has been sent yet: press Send code, then enter the code from the text message.')
    )
    // Before V2 only a backup code can verify: a PIN typed now is wrong for certain, and stays here.
    await enterCode('123456')
    expect(screen.getByRole('alert')).toHaveTextContent('No code has been sent yet')
    expect(fake.callsTo('session:confirmCode')).toEqual([])

    await sendCode()
    expect(screen.getByRole('alert')).toHaveTextContent(/^$/)
    expect(screen.getByText('We sent a verification code by SMS to your phone ending in 42. Enter it below.')).toBeInTheDocument()
    await fireEvent.input(screen.getByRole('textbox', { name: 'Verification code' }), { target: { value: '' } })
    await fireEvent.click(screen.getByRole('button', { name: 'Verify' }))
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Enter the code from the text message.'))
  })

  it('refuses a code that is not six digits before it can spend an attempt, and keeps it to correct', async () => {
    const fake = verifyingApi().returns('session:confirmCode', { status: 'wrongCode', remainingAttempts: 4 })
    await startApp(fake)
    await signIn()
    await sendCode()

    for (const typed of ['12345a', '12345', '1234567', '１２３４５６']) {
      await enterCode(typed)
      await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('The code from the text message is 6 digits: check what you typed.'))
      expect(screen.getByRole('textbox', { name: 'Verification code' })).toHaveValue(typed)
      expect(screen.getByRole('textbox', { name: 'Verification code' })).toHaveAttribute('aria-invalid', 'true')
    }
    expect(fake.callsTo('session:confirmCode')).toEqual([])

    await enterCode('123-456')
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Wrong code — 4 attempts left'))
    expect(fake.callsTo('session:confirmCode')).toEqual([{ code: '123456' }])
  })

  it('follows main when it moves the session on by itself', async () => {
    const fake = verifyingApi()
    await startApp(fake)
    await signIn()

    fake.emit('session:changed', { status: 'signedOut', notice: 'The code expired. Sign in again.' })

    expect(await screen.findByText('The code expired. Sign in again.')).toBeInTheDocument()
  })
})

const route: TextRoute = {
  systemNumber: '+1 5555550199',
  text: '0123456789ab',
  expiresAt: Date.parse('2026-11-24T10:10:00Z'),
  checkedAt: null,
  expired: false
}

describe('verification screen: texting the service instead', () => {
  function textingApi(): FakeApi {
    return verifyingApi().returns('session:textInstead', route).returns('session:cancelTextRoute', null)
  }

  async function textInstead(): Promise<void> {
    await fireEvent.click(screen.getByRole('button', { name: 'Text us instead' }))
    await screen.findByRole('button', { name: 'Copy' })
  }

  it('shows what to text and where, and signs in when main has seen the text', async () => {
    const fake = textingApi()
    await startApp(fake)
    await signIn()
    await textInstead()

    const steps = screen.getByText((_, element) => element?.tagName === 'P' && /^From your phone ending in 42, text 0123456789ab to \+1 5555550199\./.test(element.textContent ?? ''))
    expect(steps).toBeInTheDocument()
    expect(screen.getByRole('progressbar', { name: 'Waiting for your text' })).toBeInTheDocument()
    expect(screen.getByText('Waiting for your text…')).toBeInTheDocument()
    expect(screen.queryByRole('textbox', { name: 'Verification code' })).not.toBeInTheDocument()

    // Each check main makes shows.
    const checkedAt = Date.parse('2026-11-24T10:01:02Z')
    fake.emit('session:changed', { status: 'verifying', challenge: { smsHint: '42', textRoute: { ...route, checkedAt } } })
    const checkedTime = new Date(checkedAt).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' })
    expect(await screen.findByText(`Waiting for your text… Last checked at ${checkedTime}.`)).toBeInTheDocument()

    fake.emit('session:changed', { status: 'signedIn', me })
    expect(await screen.findByRole('list', { name: 'Conversations' })).toBeInTheDocument()
  })

  it('says why the route is stuck, in the route’s status', async () => {
    const fake = textingApi()
    await startApp(fake)
    await signIn()
    await textInstead()

    const problem = 'Your text arrived, but the service refused the sign-in: your password may have changed. Go back and sign in again.'
    fake.emit('session:changed', { status: 'verifying', challenge: { smsHint: '42', textRoute: { ...route, problem } } })
    const steps = screen.getByRole('group', { name: 'Text us instead' })
    await waitFor(() => expect(within(steps).getAllByRole('status').map((status) => status.textContent)).toContain(problem))

    fake.emit('session:changed', { status: 'verifying', challenge: { smsHint: '42', textRoute: { ...route, problem: null } } })
    expect(await within(steps).findByText('Waiting for your text…')).toBeInTheDocument()
  })

  it('copies the text to send, and says so when the clipboard refuses', async () => {
    const copied: string[] = []
    let refuse = false
    Object.defineProperty(navigator, 'clipboard', {
      configurable: true,
      value: { writeText: async (text: string) => (refuse ? Promise.reject(new Error('denied')) : void copied.push(text)) }
    })
    onTestFinished(() => void Reflect.deleteProperty(navigator, 'clipboard'))
    await startApp(textingApi())
    await signIn()
    await textInstead()

    await fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    expect(await screen.findByText('Copied the text to send.')).toBeInTheDocument()
    expect(copied).toEqual(['0123456789ab'])

    refuse = true
    await fireEvent.click(screen.getByRole('button', { name: 'Copy' }))
    expect(await screen.findByText('Could not copy. Select the text and copy it yourself.')).toBeInTheDocument()
  })

  it('goes back to the codes on Cancel', async () => {
    const fake = textingApi()
    await startApp(fake)
    await signIn()
    await textInstead()

    expect(screen.getByRole('group', { name: 'Text us instead' })).toHaveFocus()
    await fireEvent.click(screen.getByRole('button', { name: 'Cancel' }))

    expect(await screen.findByRole('textbox', { name: 'Verification code' })).toHaveFocus()
    expect(screen.queryByRole('button', { name: 'Copy' })).not.toBeInTheDocument()
    expect(fake.callsTo('session:cancelTextRoute')).toHaveLength(1)
  })

  it('says the sign-in expired when the text never came, and starting again offers every route afresh', async () => {
    const fake = textingApi().returns('session:startOver', { status: 'verificationRequired', challenge: { smsHint: '42' } })
    await startApp(fake)
    await signIn()
    await textInstead()

    fake.emit('session:changed', { status: 'verifying', challenge: { smsHint: '42', textRoute: { ...route, expired: true }, spent: 'expired' } })

    expect(await screen.findByText('This sign-in has expired. Start again to get a new code.')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Start again' })).toHaveFocus()
    expect(screen.queryByRole('button', { name: 'Copy' })).not.toBeInTheDocument()
    await fireEvent.click(screen.getByRole('button', { name: 'Start again' }))

    expect(await screen.findByRole('button', { name: 'Text us instead' })).toBeInTheDocument()
    expect(screen.getByRole('button', { name: 'Send code' })).toBeInTheDocument()
  })

  it('stays on the codes, saying why, when the text route cannot start', async () => {
    const fake = verifyingApi().fails('session:textInstead', 'NETWORK', 'Cannot reach the service. Check your connection; we will keep trying.')
    await startApp(fake)
    await signIn()

    await fireEvent.click(screen.getByRole('button', { name: 'Text us instead' }))

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Cannot reach the service'))
    expect(screen.getByRole('textbox', { name: 'Verification code' })).toBeInTheDocument()
  })
})

describe('verification screen: a backup code', () => {
  async function useBackupCode(): Promise<void> {
    await fireEvent.click(screen.getByRole('button', { name: 'Use a backup code' }))
    await screen.findByText(/Enter one of your backup codes/)
    expect(screen.getByRole('textbox', { name: 'Verification code' })).toHaveFocus()
  }

  it('takes a backup code in the code field, with no SMS sent', async () => {
    const fake = verifyingApi().returns('session:confirmCode', { status: 'signedIn', me })
    await startApp(fake)
    await signIn()
    await useBackupCode()
    expect(screen.queryByRole('button', { name: 'Send code' })).not.toBeInTheDocument()

    await enterCode('abcd1234efgh5678')

    expect(await screen.findByRole('list', { name: 'Conversations' })).toBeInTheDocument()
    expect(fake.callsTo('session:confirmCode')).toEqual([{ code: 'abcd1234efgh5678' }])
    expect(fake.callsTo('session:sendCode')).toEqual([])
  })

  it('counts down a wrong backup code like a PIN, and asks for one when the field is empty', async () => {
    const fake = verifyingApi().returns('session:confirmCode', { status: 'wrongCode', remainingAttempts: 3 })
    await startApp(fake)
    await signIn()
    await useBackupCode()

    await fireEvent.click(screen.getByRole('button', { name: 'Verify' }))
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Enter one of your backup codes.'))
    expect(fake.callsTo('session:confirmCode')).toEqual([])

    // Not a backup code's shape: refused here, no attempt spent.
    await enterCode('not-a-backup')
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('A backup code is 16 letters and digits: check what you typed.'))
    expect(fake.callsTo('session:confirmCode')).toEqual([])

    // Read in lower case, the only case backup codes come in.
    await enterCode('WRONGWRONGWRONG1')
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Wrong code — 3 attempts left'))
    expect(fake.callsTo('session:confirmCode')).toEqual([{ code: 'wrongwrongwrong1' }])

    // Back to the SMS code, the field starts empty.
    await fireEvent.click(screen.getByRole('button', { name: 'Use a code sent by SMS' }))
    expect(await screen.findByRole('button', { name: 'Send code' })).toBeInTheDocument()
    expect(screen.getByRole('textbox', { name: 'Verification code' })).toHaveValue('')
    expect(screen.getByRole('textbox', { name: 'Verification code' })).toHaveFocus()
  })
})
