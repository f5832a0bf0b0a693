// Two-step verification and signed-in apps, end to end in Chromium: Ada turns two-step
// verification on from Settings ▸ Security and keeps the backup code, signs out, signs back in
// with that code, and turns it off again; Grace, signed in on two devices, signs the other one out
// from Signed-in apps, and that one is back at the sign-in screen at its next call; then the laptop
// signs itself out, and its sign-in screen says so.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, FIRST_GROUP } from './support'

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

/** Opens Settings on its Security tab. */
async function openSecurity(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  const settings = page.getByRole('dialog', { name: 'Settings', exact: true })
  await settings.getByRole('tab', { name: 'Security' }).click()
  return settings
}

async function closeSettings(settings: Locator): Promise<void> {
  await settings.getByRole('button', { name: 'Close' }).click()
  await settings.waitFor({ state: 'hidden' })
}

/**
 * Waits for the signed-in apps to load in Settings ▸ Security, which takes a call the service
 * accepts (T1): a refused token would end at the sign-in screen instead. Answers how many are listed.
 */
async function signedInAppsListed(page: Page): Promise<number> {
  const settings = await openSecurity(page)
  const apps = settings.getByRole('list', { name: 'Signed-in apps' })
  await apps.getByRole('listitem').first().waitFor()
  const count = await apps.getByRole('listitem').count()
  await closeSettings(settings)
  return count
}

describe('two-step verification and signed-in apps', () => {
  it('Ada turns two-step verification on and keeps the backup code, signs in again with it, and turns it off', async () => {
    const ada = world.account('Ada')
    const { page } = await world.openApp('ada')
    await world.signIn(page, ada)

    let settings = await openSecurity(page)
    const toggle = settings.getByRole('switch', { name: 'Two-step verification' })
    await expect.poll(() => toggle.isChecked()).toBe(false)
    await toggle.click()
    const codeField = settings.getByRole('textbox', { name: 'Verification code' })
    await codeField.waitFor()
    await codeField.fill(await world.lastSmsCode(ada.phoneNumber))
    await settings.getByRole('button', { name: 'Confirm' }).click()

    const shown = settings.getByRole('status').filter({ hasText: 'Store it now' })
    await shown.waitFor()
    const backupCode = (await shown.textContent())?.match(/\b[a-z0-9]{16}\b/)?.[0]
    if (backupCode === undefined) throw new Error('no backup code was shown')
    await expect.poll(() => toggle.isChecked()).toBe(true)
    await expect.poll(() => settings.textContent()).toContain(`ending in ${ada.phoneNumber.slice(-2)}`)
    await settings.getByRole('button', { name: 'I have stored it' }).click()
    await closeSettings(settings)

    // The app carries on with the token two-step verification issued, the only one left.
    expect(await signedInAppsListed(page)).toBe(1)

    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('textbox', { name: 'Username' }).fill(ada.email)
    await page.getByRole('textbox', { name: 'Password' }).fill(ada.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    // This device is known, yet with two-step verification on the service asks for a code.
    await page.getByRole('textbox', { name: 'Verification code' }).waitFor()
    await page.getByRole('button', { name: 'Use a backup code' }).click()
    await page.getByRole('textbox', { name: 'Verification code' }).fill(backupCode)
    await page.getByRole('button', { name: 'Verify' }).click()
    await conversation(page, FIRST_GROUP).waitFor()

    settings = await openSecurity(page)
    await expect.poll(() => toggle.isChecked()).toBe(true)
    // A new backup code replaces the one just used, once Ada agrees.
    await settings.getByRole('button', { name: 'New backup code' }).click()
    const replace = page.getByRole('alertdialog', { name: 'Make a new backup code?' })
    await expect.poll(() => replace.textContent()).toContain('Your current backup code will stop working.')
    await replace.getByRole('button', { name: 'New backup code' }).click()
    const replaced = settings.getByRole('status').filter({ hasText: 'Your new backup code' })
    await replaced.waitFor()
    expect((await replaced.textContent())?.match(/\b[a-z0-9]{16}\b/)?.[0]).not.toBe(backupCode)
    await settings.getByRole('button', { name: 'I have stored it' }).click()

    await toggle.click()
    await page.getByRole('alertdialog', { name: 'Turn two-step verification off?' }).getByRole('button', { name: 'Turn off' }).click()
    await expect.poll(() => toggle.isChecked()).toBe(false)
    await expect.poll(() => settings.getByRole('button', { name: 'New backup code' }).count()).toBe(0)
    await closeSettings(settings)

    // Off for good: signing in on this known device needs only the password again.
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.getByRole('textbox', { name: 'Username' }).fill(ada.email)
    await page.getByRole('textbox', { name: 'Password' }).fill(ada.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await conversation(page, FIRST_GROUP).waitFor()
    expect(world.pageErrors).toEqual([])
  })

  it('Grace signs her other device out from Signed-in apps, and that one shows the sign-in screen at its next call; signing the laptop itself out says so', async () => {
    const grace = world.account('Grace')
    const laptop = (await world.openApp('grace-laptop')).page
    const phone = (await world.openApp('grace-phone')).page
    await world.signIn(laptop, grace)
    await world.signIn(phone, grace)

    const settings = await openSecurity(laptop)
    const apps = settings.getByRole('list', { name: 'Signed-in apps' })
    await expect.poll(() => apps.getByRole('listitem').count()).toBe(2)
    // Oldest first: the phone signed in last.
    await apps.getByRole('listitem').last().getByRole('button', { name: 'Sign out' }).click()
    await laptop.getByRole('alertdialog', { name: /^Sign out / }).getByRole('button', { name: 'Sign out' }).click()
    await expect.poll(() => apps.getByRole('listitem').count()).toBe(1)
    await closeSettings(settings)

    // Its next call meets the refusal: the user's, or one the history download makes first.
    const signIn = phone.getByRole('button', { name: 'Sign in' })
    if (!(await signIn.isVisible())) await conversation(phone, FIRST_GROUP).click({ timeout: 2_000 }).catch(() => undefined)
    await signIn.waitFor()
    // The laptop carries on, its own token still accepted.
    expect(await signedInAppsListed(laptop)).toBe(1)

    // Signing the laptop itself out ends its session, and the sign-in screen says how.
    const own = await openSecurity(laptop)
    await own.getByRole('list', { name: 'Signed-in apps' }).getByRole('button', { name: 'Sign out' }).click()
    await laptop.getByRole('alertdialog', { name: /^Sign out / }).getByRole('button', { name: 'Sign out' }).click()
    await laptop.getByRole('button', { name: 'Sign in' }).waitFor()
    await laptop.getByText('You signed this app out from Signed-in apps.').waitFor()
    expect(world.pageErrors).toEqual([])
  })
})
