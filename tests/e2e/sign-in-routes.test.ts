// Signing in other ways than an SMS code, in Chromium against browser mode and the local service:
// Katherine texts the service from her phone with the text the app shows her, and Grace uses a
// backup code she got earlier. Neither receives an SMS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, FIRST_GROUP } from './support'

let e2e: EndToEnd

beforeAll(async () => {
  e2e = await EndToEnd.start()
}, 60_000)

afterAll(async () => {
  await e2e.close()
  expect(e2e.pageErrors).toEqual([])
})

async function post(path: string, body: unknown, token?: string): Promise<{ status: number; body: unknown }> {
  const url = new URL(path, e2e.origin)
  if (token !== undefined) url.searchParams.set('token', token)
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
  return { status: response.status, body: (await response.json()) as unknown }
}

async function smsSentTo(phoneNumber: string): Promise<unknown[]> {
  const response = await fetch(`${e2e.origin}/dev/outbox?to=${encodeURIComponent(phoneNumber)}`)
  return (await response.json()) as unknown[]
}

describe('signing in without an SMS code', () => {
  it('Text us instead: the person texts what the app shows, and the app signs in by itself', async () => {
    const katherine = e2e.account('Katherine')
    const { page } = await e2e.openApp('katherine', { permissions: ['clipboard-read', 'clipboard-write'] })
    await page.getByRole('textbox', { name: 'Username' }).fill(katherine.email)
    await page.getByRole('textbox', { name: 'Password' }).fill(katherine.password)
    await page.getByRole('button', { name: 'Sign in' }).click()

    await page.getByRole('button', { name: 'Text us instead' }).click()
    const steps = page.getByText(/^From your phone ending in \d{2}, text [0-9a-f]{12} to \+1 5555550199\./)
    await steps.waitFor()
    const [, shownText, systemNumber] = /text ([0-9a-f]{12}) to (\+1 5555550199)/.exec((await steps.textContent()) ?? '') ?? []
    // The app shows it is checking: the first check comes a second after the route starts.
    await page.getByRole('status').filter({ hasText: /Last checked at/ }).waitFor()

    // What Copy puts on the clipboard is what she sends.
    await page.getByRole('button', { name: 'Copy' }).click()
    await page.getByText('Copied the text to send.').waitFor()
    const copied = await page.evaluate<string>('navigator.clipboard.readText()')
    expect(copied).toBe(shownText)
    const texted = await post('/dev/sms', { from: katherine.phoneNumber, to: systemNumber, text: copied })
    expect(texted).toMatchObject({ status: 200, body: { verified: [expect.any(String)] } })

    await conversation(page, FIRST_GROUP).waitFor()
    expect(await smsSentTo(katherine.phoneNumber)).toEqual([])
  })

  it('Use a backup code: the code goes where a PIN would, and signs in', async () => {
    const grace = e2e.account('Grace')
    const token = await e2e.restToken(grace, 'graces-other-computer')
    const backup = await post('/v3/user/mfa/backup', {}, token)
    expect(backup.status).toBe(200)
    const backupCode = (backup.body as { response: { mfa: { backup_code: string } } }).response.mfa.backup_code
    const smsBefore = (await smsSentTo(grace.phoneNumber)).length

    const { page } = await e2e.openApp('grace')
    await page.getByRole('textbox', { name: 'Username' }).fill(grace.email)
    await page.getByRole('textbox', { name: 'Password' }).fill(grace.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('button', { name: 'Use a backup code' }).click()

    // A wrong one counts down like a PIN.
    await page.getByRole('textbox', { name: 'Verification code' }).fill('0000000000000000')
    await page.getByRole('button', { name: 'Verify' }).click()
    await page.getByRole('alert').filter({ hasText: 'Wrong code — 4 attempts left.' }).waitFor()

    await page.getByRole('textbox', { name: 'Verification code' }).fill(backupCode)
    await page.getByRole('button', { name: 'Verify' }).click()
    await conversation(page, FIRST_GROUP).waitFor()
    expect(await smsSentTo(grace.phoneNumber)).toHaveLength(smsBefore)
  })
})
