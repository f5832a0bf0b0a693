// Settings ▸ Account and Settings ▸ Security ▸ Password in Chromium, against the real service: a
// saved name is the header's at once, and a password change ends the session, says why on the
// sign-in screen, and the new password signs in where the old one no longer does.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { DemoAccount } from '../../server/src/index'
import { EndToEnd } from './support'

let world: EndToEnd
let ada: Page
let account: DemoAccount
const NEW_PASSWORD = 'a much longer secret'

beforeAll(async () => {
  world = await EndToEnd.start()
  account = world.account('Ada')
})

afterAll(async () => {
  await world?.close()
})

async function openSettingsTab(tab: 'Account' | 'Security'): Promise<void> {
  await ada.getByRole('button', { name: 'Settings', exact: true }).click()
  await ada.getByRole('dialog', { name: 'Settings' }).getByRole('tab', { name: tab }).click()
}

describe('the account and its password', () => {
  it('signs Ada in', async () => {
    ada = (await world.openApp('ada')).page
    await world.signIn(ada, account)
  })

  it('Account: a saved name is shown in the header at once', async () => {
    await openSettingsTab('Account')
    const dialog = ada.getByRole('dialog', { name: 'Settings' })
    await dialog.getByRole('textbox', { name: 'Name' }).fill('Ada King')
    await dialog.getByRole('button', { name: 'Save profile' }).click()
    await dialog.getByRole('status').filter({ hasText: 'Your profile was saved.' }).waitFor()
    await ada.keyboard.press('Escape')
    await ada.getByRole('banner').getByText('Ada King', { exact: true }).waitFor()
  })

  it('Security: a wrong current password is refused at its field, and the session goes on', async () => {
    await openSettingsTab('Security')
    const dialog = ada.getByRole('dialog', { name: 'Settings' })
    const current = dialog.getByRole('textbox', { name: 'Current password' })
    await current.fill('not the password')
    await dialog.getByRole('textbox', { name: 'New password', exact: true }).fill(NEW_PASSWORD)
    await dialog.getByRole('textbox', { name: 'Repeat new password' }).fill(NEW_PASSWORD)
    await dialog.getByRole('button', { name: 'Change password' }).click()

    await dialog.getByText('The current password is wrong. Check it and try again.').waitFor()
    expect(await current.getAttribute('aria-invalid')).toBe('true')
    expect(await dialog.getByRole('textbox', { name: 'New password', exact: true }).inputValue()).toBe(NEW_PASSWORD)
  })

  it('Security: Change password ends the session and says so on the sign-in screen', async () => {
    const dialog = ada.getByRole('dialog', { name: 'Settings' })
    await dialog.getByRole('textbox', { name: 'Current password' }).fill(account.password)
    await dialog.getByRole('button', { name: 'Change password' }).click()

    await ada.getByRole('button', { name: 'Sign in' }).waitFor()
    await ada.getByText(/Your password was changed/).waitFor()
  })

  it('the old password no longer signs in, and the new one does', async () => {
    await ada.getByRole('textbox', { name: 'Username' }).fill(account.email)
    await ada.getByRole('textbox', { name: 'Password' }).fill(account.password)
    await ada.getByRole('button', { name: 'Sign in' }).click()
    await ada.getByText('Wrong username or password.', { exact: false }).waitFor()

    await world.signIn(ada, { ...account, password: NEW_PASSWORD })
    await ada.getByRole('banner').getByText('Ada King', { exact: true }).waitFor()
    expect(world.pageErrors).toEqual([])
  })
})
