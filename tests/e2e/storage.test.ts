// Settings ▸ Storage in Chromium, against the real service: Keep full history on this device is on
// by default with the download's progressbar, Pause and the switch are kept across a restart of the
// app, and Resume and the switch bring the download back.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connection, EndToEnd, type OpenedApp } from './support'

let world: EndToEnd
let opened: OpenedApp

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

async function openStorage(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  await settings.getByRole('tab', { name: 'Storage' }).click()
  const panel = settings.getByRole('tabpanel', { name: 'Storage' })
  await panel.getByRole('switch', { name: 'Keep full history on this device' }).waitFor()
  return panel
}

/** The app stops and starts again on the same data folder, signed in from the token it kept. */
async function restart(): Promise<Page> {
  await opened.context.close()
  await opened.app.close()
  opened = await world.openApp('ada')
  await expect.poll(() => connection(opened.page), { timeout: 20_000 }).toBe('Connected')
  return opened.page
}

describe('Settings ▸ Storage', () => {
  it('keeps full history by default, and shows the download or its end', async () => {
    opened = await world.openApp('ada')
    await world.signIn(opened.page, world.account('Ada'))
    const panel = await openStorage(opened.page)
    expect(await panel.getByRole('switch', { name: 'Keep full history on this device' }).isChecked()).toBe(true)
    await panel.getByRole('progressbar', { name: 'Downloading history' }).or(panel.getByText('All history is on this device')).first().waitFor()
    await opened.page.keyboard.press('Escape')
  })

  it('keeps Pause across a restart of the app, and Resume brings the download back', async () => {
    let panel = await openStorage(opened.page)
    await panel.getByRole('button', { name: 'Pause' }).click()
    await panel.getByRole('button', { name: 'Resume' }).waitFor()
    const page = await restart()
    panel = await openStorage(page)
    await panel.getByRole('button', { name: 'Resume' }).click()
    await panel.getByRole('button', { name: 'Pause' }).waitFor()
    expect(await panel.getByRole('button', { name: 'Resume' }).count()).toBe(0)
    await page.keyboard.press('Escape')
  })

  it('keeps the switch off across a restart, with nothing downloading, and on again brings the download back', async () => {
    let panel = await openStorage(opened.page)
    await panel.getByRole('switch', { name: 'Keep full history on this device' }).click()
    await panel.getByText('Older history is not downloaded. What is kept stays until you delete it.').waitFor()
    expect(await panel.getByRole('progressbar').count()).toBe(0)

    const page = await restart()
    panel = await openStorage(page)
    const keep = panel.getByRole('switch', { name: 'Keep full history on this device' })
    expect(await keep.isChecked()).toBe(false)
    expect(await panel.getByRole('button', { name: 'Pause' }).count()).toBe(0)
    await keep.click()
    await panel.getByRole('progressbar', { name: 'Downloading history' }).or(panel.getByText('All history is on this device')).first().waitFor()
    expect(await keep.isChecked()).toBe(true)
    expect(world.pageErrors).toEqual([])
  })
})
