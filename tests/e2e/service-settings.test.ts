// Settings ▸ Service as a person uses it in browser mode: Test connection on the service in use,
// then Save to another deployment: the token is never shown to another origin, so the app returns
// to sign-in saying why, and signs in there while the first service is gone.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../server/src/index'
import { localServiceConfig } from '../../src/main/api/service-config'
import { NEW_SERVICE_SIGN_IN_NOTICE } from '../../src/main/core/service-settings'
import { SERVICE_SETTING_LABELS, SERVICE_SETTING_NAMES } from '@shared/service-settings'
import { connection, conversation, EndToEnd, FIRST_GROUP } from './support'

let e2e: EndToEnd
let second: RunningService

beforeAll(async () => {
  e2e = await EndToEnd.start()
  second = await startService({ port: 0, dev: true, seed: 'demo' })
})

afterAll(async () => {
  await e2e.close()
  await second.close()
})

async function lastSmsCodeOnSecond(phoneNumber: string): Promise<string | null> {
  const response = await fetch(`${second.origin}/dev/outbox?to=${encodeURIComponent(phoneNumber)}`)
  const outbox = (await response.json()) as { text: string }[]
  return outbox.at(-1)?.text.match(/\d{6}/)?.[0] ?? null
}

describe('Settings ▸ Service', () => {
  it('tests the service in use, then moves the app to another one, where the person signs in again', async () => {
    const { page } = await e2e.openApp('ada')
    const ada = e2e.account('Ada')
    await e2e.signIn(page, ada)
    await page.getByRole('button', { name: 'Settings' }).click()
    const dialog = page.getByRole('dialog', { name: 'Settings' })
    await dialog.getByRole('tab', { name: 'Service' }).click()
    await expect.poll(() => dialog.getByRole('textbox', { name: 'Base address' }).inputValue()).toBe(`${e2e.origin}/v3`)

    await dialog.getByRole('button', { name: 'Test connection' }).click()
    await expect.poll(() => dialog.getByRole('status').textContent()).toBe('Every address answers as the service does.')
    expect(await dialog.getByRole('list', { name: 'Connection test results' }).getByRole('listitem').count()).toBe(6)

    const elsewhere = localServiceConfig(second.origin)
    for (const name of SERVICE_SETTING_NAMES) await dialog.getByRole('textbox', { name: SERVICE_SETTING_LABELS[name] }).fill(elsewhere[name])
    await dialog.getByRole('button', { name: 'Save' }).click()

    await expect.poll(() => page.getByText(NEW_SERVICE_SIGN_IN_NOTICE).count()).toBe(1)
    await e2e.stopService()
    await page.getByRole('textbox', { name: 'Username' }).fill(ada.email)
    await page.getByRole('textbox', { name: 'Password' }).fill(ada.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('button', { name: 'Send code' }).click()
    await expect.poll(() => lastSmsCodeOnSecond(ada.phoneNumber)).not.toBeNull()
    await page.getByRole('textbox', { name: 'Verification code' }).fill((await lastSmsCodeOnSecond(ada.phoneNumber)) ?? '')
    await page.getByRole('button', { name: 'Verify' }).click()
    await conversation(page, FIRST_GROUP).waitFor()
    await expect.poll(() => connection(page)).toBe('Connected')
    expect(e2e.pageErrors).toEqual([])
  })
})
