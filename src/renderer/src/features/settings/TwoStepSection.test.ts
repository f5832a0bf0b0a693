// Settings ▸ Security ▸ Two-step verification, through the whole renderer against a fake main.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { afterEach, describe, expect, it, vi } from 'vitest'
import type { Account } from '@shared/account'
import { forgetShownBackupCode } from './two-step.svelte'
import { account, FakeApi, me } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'
import { stubClipboard } from '../../testing/clipboard'

const enabledAccount: Account = { ...account, twoStep: { enabled: true, phoneHint: '42' } }
const BACKUP_CODE = 'k3v9q2m7x1p8z4w6'

function signedIn(current: Account = account): FakeApi {
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('account:get', current)
    .returns('security:cancelTwoStep', null)
}

async function openSecurity(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: 'Settings' }))
  const dialog = screen.getByRole('dialog', { name: 'Settings' })
  await fireEvent.click(within(dialog).getByRole('tab', { name: 'Security' }))
  return within(dialog).getByRole('group', { name: 'Two-step verification' })
}

async function openSecurityAgain(): Promise<HTMLElement> {
  await fireEvent.click(screen.getByRole('button', { name: 'Settings' }))
  const dialog = await screen.findByRole('dialog', { name: 'Settings' })
  await fireEvent.click(within(dialog).getByRole('tab', { name: 'Security' }))
  return within(dialog).getByRole('group', { name: 'Two-step verification' })
}

async function startSetup(section: HTMLElement): Promise<HTMLElement> {
  await fireEvent.click(await within(section).findByRole('switch', { name: 'Two-step verification' }))
  return within(section).findByRole('textbox', { name: 'Verification code' })
}

async function typeCodeAndConfirm(section: HTMLElement, code: string): Promise<void> {
  await fireEvent.input(within(section).getByRole('textbox', { name: 'Verification code' }), { target: { value: code } })
  await fireEvent.click(within(section).getByRole('button', { name: 'Confirm' }))
}

async function askForNewBackupCode(section: HTMLElement): Promise<void> {
  await fireEvent.click(await within(section).findByRole('button', { name: 'New backup code' }))
  const question = await screen.findByRole('alertdialog', { name: 'Make a new backup code?' })
  await fireEvent.click(within(question).getByRole('button', { name: 'New backup code' }))
}

afterEach(() => {
  forgetShownBackupCode()
  vi.unstubAllGlobals()
})

describe('Two-step verification', () => {
  it('shows that it is off, and turns it on with the code texted to the phone, showing the backup code once', async () => {
    const fake = signedIn()
      .returns('security:beginTwoStep', { phoneHint: '42' })
      .returns('security:confirmTwoStep', { status: 'enabled', backupCode: BACKUP_CODE, account: enabledAccount })
    const section = await openSecurity(fake)
    // Stubbed once the app is up: Svelte reads the real navigator as it first mounts.
    const writeText = vi.fn(async (_text: string) => undefined)
    stubClipboard(writeText)
    const toggle = await within(section).findByRole('switch', { name: 'Two-step verification' })
    expect(toggle).not.toBeChecked()
    expect(toggle).toHaveAccessibleDescription(/^Off\./)

    const field = await startSetup(section)
    expect(field).toHaveFocus()
    expect(section).toHaveTextContent('We sent a code by SMS to your phone ending in 42.')
    expect(toggle).not.toBeChecked()
    await typeCodeAndConfirm(section, ' 123456 ')

    const shown = await within(section).findByRole('status')
    expect(shown).toHaveTextContent(BACKUP_CODE)
    expect(shown).toHaveTextContent(/Store it now/)
    expect(fake.callsTo('security:confirmTwoStep')).toEqual([{ code: '123456' }])
    expect(toggle).toBeChecked()
    expect(toggle).toHaveAccessibleDescription('On. Every sign-in asks for a code sent by SMS to your phone ending in 42.')
    expect(within(section).queryByRole('textbox', { name: 'Verification code' })).toBeNull()

    await fireEvent.click(within(section).getByRole('button', { name: 'Copy' }))
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(BACKUP_CODE))
    expect(section).toHaveTextContent('Backup code copied.')
    await fireEvent.click(within(section).getByRole('button', { name: 'I have stored it' }))
    expect(section).not.toHaveTextContent(BACKUP_CODE)
    expect(within(section).getByRole('button', { name: 'New backup code' })).toBeInTheDocument()
  })

  it('reads the signed-in apps afresh once two-step verification is on, since every earlier token is gone', async () => {
    const fake = signedIn()
      .returns('security:beginTwoStep', { phoneHint: '42' })
      .returns('security:confirmTwoStep', { status: 'enabled', backupCode: BACKUP_CODE, account: enabledAccount })
      .returns('security:signedInApps', [{ id: '1', appId: 'parley-desktop', createdAt: 1_700_000_000 }])
    const section = await openSecurity(fake)
    const apps = await screen.findByRole('list', { name: 'Signed-in apps' })
    expect(apps).toHaveTextContent('parley-desktop')
    fake.returns('security:signedInApps', [{ id: '2', appId: 'parley-after', createdAt: 1_700_000_100 }])
    await startSetup(section)
    await typeCodeAndConfirm(section, '123456')
    await waitFor(() => expect(screen.getByRole('list', { name: 'Signed-in apps' })).toHaveTextContent('parley-after'))
  })

  it('counts down a wrong code at the field, and takes the right one after it', async () => {
    const fake = signedIn().returns('security:beginTwoStep', { phoneHint: '42' }).returns('security:confirmTwoStep', { status: 'wrongCode', remainingAttempts: 3 })
    const section = await openSecurity(fake)
    await startSetup(section)
    await typeCodeAndConfirm(section, '000000')
    expect(await within(section).findByRole('alert')).toHaveTextContent('That code is not right. 3 attempts left.')
    expect(within(section).getByRole('textbox', { name: 'Verification code' })).toHaveAttribute('aria-invalid', 'true')

    fake.returns('security:confirmTwoStep', { status: 'enabled', backupCode: BACKUP_CODE, account: enabledAccount })
    await typeCodeAndConfirm(section, '123456')
    expect(await within(section).findByRole('status')).toHaveTextContent(BACKUP_CODE)
  })

  it('ends the setup when no attempts are left, saying how to start again', async () => {
    const fake = signedIn().returns('security:beginTwoStep', { phoneHint: '42' }).returns('security:confirmTwoStep', { status: 'wrongCode', remainingAttempts: 0 })
    const section = await openSecurity(fake)
    await startSetup(section)
    await typeCodeAndConfirm(section, '000000')
    expect(await within(section).findByRole('alert')).toHaveTextContent('no attempts are left. Turn two-step verification on again for a new code.')
    expect(within(section).queryByRole('textbox', { name: 'Verification code' })).toBeNull()
    expect(within(section).getByRole('switch', { name: 'Two-step verification' })).toBeEnabled()
  })

  it('asks for a code before confirming an empty one', async () => {
    const fake = signedIn().returns('security:beginTwoStep', { phoneHint: '42' })
    const section = await openSecurity(fake)
    await startSetup(section)
    await fireEvent.click(within(section).getByRole('button', { name: 'Confirm' }))
    expect(await within(section).findByRole('alert')).toHaveTextContent('Type the code we sent to your phone.')
    expect(fake.callsTo('security:confirmTwoStep')).toEqual([])
  })

  it('refuses a code that is not six digits before it can spend an attempt, and keeps it to correct', async () => {
    const fake = signedIn().returns('security:beginTwoStep', { phoneHint: '42' })
    const section = await openSecurity(fake)
    await startSetup(section)
    await typeCodeAndConfirm(section, '12345a')
    expect(await within(section).findByRole('alert')).toHaveTextContent('The code from the text message is 6 digits: check what you typed.')
    expect(within(section).getByRole('textbox', { name: 'Verification code' })).toHaveValue('12345a')
    expect(fake.callsTo('security:confirmTwoStep')).toEqual([])
  })

  it('says why a code could not be sent, and stays off', async () => {
    const fake = signedIn().fails('security:beginTwoStep', 'NETWORK', 'Cannot reach the service.')
    const section = await openSecurity(fake)
    await fireEvent.click(await within(section).findByRole('switch', { name: 'Two-step verification' }))
    expect(await within(section).findByRole('alert')).toHaveTextContent('Two-step verification could not be turned on. Cannot reach the service.')
    expect(within(section).getByRole('switch', { name: 'Two-step verification' })).not.toBeChecked()
    expect(within(section).queryByRole('textbox', { name: 'Verification code' })).toBeNull()
  })

  it('says why a confirmation failed (an expired code), and lets the user start again', async () => {
    const fake = signedIn()
      .returns('security:beginTwoStep', { phoneHint: '42' })
      .fails('security:confirmTwoStep', 'NOT_FOUND', 'This code has expired. Turn two-step verification on again for a new code.')
    const section = await openSecurity(fake)
    await startSetup(section)
    await typeCodeAndConfirm(section, '123456')
    expect(await within(section).findByRole('alert')).toHaveTextContent('This code has expired.')
    expect(within(section).queryByRole('textbox', { name: 'Verification code' })).toBeNull()
    await startSetup(section)
    expect(fake.callsTo('security:beginTwoStep')).toHaveLength(2)
  })

  it('keeps the setup and the typed code when the service cannot be reached, and Confirm tries again', async () => {
    const fake = signedIn()
      .returns('security:beginTwoStep', { phoneHint: '42' })
      .fails('security:confirmTwoStep', 'NETWORK', 'Cannot reach the service.')
    const section = await openSecurity(fake)
    await startSetup(section)
    await typeCodeAndConfirm(section, '123456')
    expect(await within(section).findByRole('alert')).toHaveTextContent('Cannot reach the service.')
    const field = within(section).getByRole('textbox', { name: 'Verification code' })
    expect(field).toHaveValue('123456')
    expect(field).toHaveAttribute('aria-invalid', 'true')
    expect(field).toHaveFocus()
    expect(fake.callsTo('security:cancelTwoStep')).toEqual([])

    fake.returns('security:confirmTwoStep', { status: 'enabled', backupCode: BACKUP_CODE, account: enabledAccount })
    await fireEvent.click(within(section).getByRole('button', { name: 'Confirm' }))
    expect(await within(section).findByRole('status')).toHaveTextContent(BACKUP_CODE)
    expect(fake.callsTo('security:confirmTwoStep')).toEqual([{ code: '123456' }, { code: '123456' }])
  })

  it('cancels a setup begun', async () => {
    const fake = signedIn().returns('security:beginTwoStep', { phoneHint: '42' })
    const section = await openSecurity(fake)
    await startSetup(section)
    await fireEvent.click(within(section).getByRole('button', { name: 'Cancel' }))
    await waitFor(() => expect(fake.callsTo('security:cancelTwoStep')).toHaveLength(1))
    expect(within(section).queryByRole('textbox', { name: 'Verification code' })).toBeNull()
    expect(within(section).getByRole('switch', { name: 'Two-step verification' })).not.toBeChecked()
  })

  it('asks before turning it off, and stays on when the user cancels', async () => {
    const fake = signedIn(enabledAccount).returns('security:disableTwoStep', account)
    const section = await openSecurity(fake)
    const toggle = await within(section).findByRole('switch', { name: 'Two-step verification' })
    expect(toggle).toBeChecked()

    await fireEvent.click(toggle)
    const question = await screen.findByRole('alertdialog', { name: 'Turn two-step verification off?' })
    await fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }))
    expect(fake.callsTo('security:disableTwoStep')).toEqual([])
    expect(toggle).toBeChecked()

    await fireEvent.click(toggle)
    await fireEvent.click(within(await screen.findByRole('alertdialog', { name: 'Turn two-step verification off?' })).getByRole('button', { name: 'Turn off' }))
    await waitFor(() => expect(toggle).not.toBeChecked())
    expect(fake.callsTo('security:disableTwoStep')).toHaveLength(1)
    expect(within(section).queryByRole('button', { name: 'New backup code' })).toBeNull()
  })

  it('stays on, saying why, when turning it off fails', async () => {
    const fake = signedIn(enabledAccount).fails('security:disableTwoStep', 'NETWORK', 'Cannot reach the service.')
    const section = await openSecurity(fake)
    await fireEvent.click(await within(section).findByRole('switch', { name: 'Two-step verification' }))
    await fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Turn off' }))
    expect(await within(section).findByRole('alert')).toHaveTextContent('Two-step verification could not be turned off. Cannot reach the service.')
    expect(within(section).getByRole('switch', { name: 'Two-step verification' })).toBeChecked()
  })

  it('asks before making a new backup code, and keeps the current one when the user cancels', async () => {
    const fake = signedIn(enabledAccount).returns('security:newBackupCode', { backupCode: BACKUP_CODE })
    const section = await openSecurity(fake)
    await fireEvent.click(await within(section).findByRole('button', { name: 'New backup code' }))
    const question = await screen.findByRole('alertdialog', { name: 'Make a new backup code?' })
    expect(question).toHaveTextContent('Your current backup code will stop working.')
    await fireEvent.click(within(question).getByRole('button', { name: 'Cancel' }))
    expect(fake.callsTo('security:newBackupCode')).toEqual([])
    expect(section).not.toHaveTextContent(BACKUP_CODE)
  })

  it('shows a new backup code once, saying the earlier one no longer works', async () => {
    const fake = signedIn(enabledAccount).returns('security:newBackupCode', { backupCode: BACKUP_CODE })
    const section = await openSecurity(fake)
    await askForNewBackupCode(section)
    const shown = await within(section).findByRole('status')
    expect(shown).toHaveTextContent(BACKUP_CODE)
    expect(shown).toHaveTextContent('Your earlier backup code no longer works.')
    expect(shown).toHaveFocus()
  })

  it('keeps showing the backup code after Settings closes or another tab opens, until the user stored it', async () => {
    const fake = signedIn(enabledAccount).returns('security:newBackupCode', { backupCode: BACKUP_CODE })
    const section = await openSecurity(fake)
    await askForNewBackupCode(section)
    expect(await within(section).findByRole('status')).toHaveTextContent(BACKUP_CODE)

    const dialog = screen.getByRole('dialog', { name: 'Settings' })
    await fireEvent.click(within(dialog).getByRole('tab', { name: 'Account' }))
    await fireEvent.click(within(dialog).getByRole('tab', { name: 'Security' }))
    expect(await within(dialog).findByText(BACKUP_CODE)).toBeInTheDocument()

    await fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull())
    const reopened = await openSecurityAgain()
    expect(await within(reopened).findByText(BACKUP_CODE)).toBeInTheDocument()
    await fireEvent.click(within(reopened).getByRole('button', { name: 'I have stored it' }))

    await fireEvent.click(within(screen.getByRole('dialog', { name: 'Settings' })).getByRole('button', { name: 'Close' }))
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Settings' })).toBeNull())
    const again = await openSecurityAgain()
    expect(await within(again).findByRole('button', { name: 'New backup code' })).toBeInTheDocument()
    expect(again).not.toHaveTextContent(BACKUP_CODE)
  })

  it('says why no new backup code was made', async () => {
    const fake = signedIn(enabledAccount).fails('security:newBackupCode', 'NETWORK', 'Cannot reach the service.')
    const section = await openSecurity(fake)
    await askForNewBackupCode(section)
    expect(await within(section).findByRole('alert')).toHaveTextContent('No new backup code was made. Cannot reach the service.')
  })

  it('says when its state could not be loaded, and tries again', async () => {
    const fake = signedIn().fails('account:get', 'NETWORK', 'Cannot reach the service.')
    const section = await openSecurity(fake)
    expect(await within(section).findByText('Two-step verification could not be loaded. Cannot reach the service.')).toBeInTheDocument()
    fake.returns('account:get', enabledAccount)
    await fireEvent.click(within(section).getByRole('button', { name: 'Try again' }))
    expect(await within(section).findByRole('switch', { name: 'Two-step verification' })).toBeChecked()
  })
})
