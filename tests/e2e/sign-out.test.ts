// Signing out in Chromium, through the app's own screens: with a message still waiting to be sent,
// Sign out asks first in a dialog named Unsent messages; Cancel keeps it (and the session), and
// Sign out anyway signs out, leaving nothing of the account's store on the device.
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connection, conversation, EndToEnd, FIRST_GROUP, send } from './support'

let world: EndToEnd
let ada: Page
let dataDir: string

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

function storeFiles(): string[] {
  const directory = join(dataDir, 'store')
  return existsSync(directory) ? readdirSync(directory) : []
}

describe('Sign out', () => {
  it('signs Ada in; she reads the group, so the device keeps it', async () => {
    const opened = await world.openApp('ada')
    ada = opened.page
    dataDir = opened.dataDir
    await world.signIn(ada, world.account('Ada'))
    await expect.poll(() => connection(ada)).toBe('Connected')
    await conversation(ada, FIRST_GROUP).click()
    await ada.getByRole('list', { name: 'Messages' }).getByRole('listitem').first().waitFor()
    await expect.poll(() => storeFiles().some((name) => name.endsWith('.db'))).toBe(true)
  })

  it('with a message unsent, asks first; Cancel keeps the message and the session', async () => {
    await world.stopService()
    await expect.poll(() => connection(ada), { timeout: 30_000 }).not.toBe('Connected')
    await send(ada, 'written while the service is down')
    await ada.getByText('written while the service is down').waitFor()

    await ada.getByRole('button', { name: 'Sign out', exact: true }).click()
    const dialog = ada.getByRole('alertdialog', { name: 'Unsent messages' })
    await dialog.waitFor()
    expect(await dialog.textContent()).toContain('1 message you wrote has not been sent yet.')
    await dialog.getByRole('button', { name: 'Cancel' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await ada.getByRole('button', { name: 'Sign out', exact: true }).waitFor()
    await ada.getByText('written while the service is down').waitFor()
    expect(storeFiles().some((name) => name.endsWith('.db'))).toBe(true)
  })

  it('Sign out anyway signs out and removes the store and its key from the device', async () => {
    await ada.getByRole('button', { name: 'Sign out', exact: true }).click()
    const dialog = ada.getByRole('alertdialog', { name: 'Unsent messages' })
    await dialog.getByRole('button', { name: 'Sign out anyway' }).click()
    await ada.getByRole('button', { name: 'Sign in' }).waitFor()
    // The page shows the sign-in as soon as the session ends; the store's thread then finishes its
    // writes and closes, and the files go.
    await expect.poll(() => storeFiles()).toEqual([])
    expect(world.pageErrors).toEqual([])
  })
})
