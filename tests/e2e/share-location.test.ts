// Share location in browser mode in Chromium against the real local service: a place typed in the
// dialog, or the device's position where the browser gives it, goes as a location attachment that
// both sides show as a received location is shown (its name linked to a map page); coordinates off
// the Earth are refused in words with everything typed kept, and a refused position says so.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, FIRST_GROUP, history } from './support'

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

async function openDialog(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Share location', exact: true }).click()
  const dialog = page.getByRole('dialog', { name: 'Share location' })
  await dialog.waitFor()
  return dialog
}

describe('sharing a location', () => {
  let ada: Page
  let grace: Page

  it('signs both in and opens the same group', async () => {
    ;({ ada, grace } = await world.adaAndGrace())
    await conversation(ada, FIRST_GROUP).click()
    await conversation(grace, FIRST_GROUP).click()
  })

  it('refuses coordinates off the Earth in words, keeping all that was typed, then shares the place with both sides', async () => {
    const message = grace.getByRole('textbox', { name: 'Message' })
    await message.fill('Half a thought')

    const dialog = await openDialog(grace)
    const name = dialog.getByRole('textbox', { name: 'Place name' })
    await expect.poll(() => name.evaluate((field) => field.ownerDocument.activeElement === field)).toBe(true)
    await name.fill('Trailhead car park')
    const latitude = dialog.getByRole('textbox', { name: 'Latitude' })
    const longitude = dialog.getByRole('textbox', { name: 'Longitude' })
    await latitude.fill('95')
    await longitude.fill('two')
    await dialog.getByRole('button', { name: 'Share', exact: true }).click()

    await dialog.getByText('Latitude is between -90 (south) and 90 (north) degrees.').waitFor()
    await dialog.getByText(/^Longitude is a number of degrees/).waitFor()
    expect(await latitude.getAttribute('aria-invalid')).toBe('true')
    expect(await latitude.evaluate((field) => field.ownerDocument.activeElement === field)).toBe(true)
    expect([await name.inputValue(), await latitude.inputValue(), await longitude.inputValue()]).toEqual(['Trailhead car park', '95', 'two'])

    await latitude.fill('46.5583')
    await longitude.fill('7.8353')
    await dialog.getByRole('button', { name: 'Share', exact: true }).click()
    await dialog.waitFor({ state: 'hidden' })
    // Focus goes back to the button that opened it, and the message being written is still there.
    const button = grace.getByRole('button', { name: 'Share location', exact: true })
    expect(await button.evaluate((opener) => opener.ownerDocument.activeElement === opener)).toBe(true)
    expect(await message.inputValue()).toBe('Half a thought')

    for (const page of [grace, ada]) {
      const place = history(page).getByRole('link', { name: 'Trailhead car park' })
      await place.waitFor()
      expect(await place.getAttribute('href')).toBe('https://www.openstreetmap.org/?mlat=46.5583&mlon=7.8353#map=16/46.5583/7.8353')
    }
    // A place sent without words is named so in the list, not as some attachment.
    await expect.poll(() => conversation(ada, FIRST_GROUP).textContent()).toContain('Shared a location')
  })

  it("fills in the device's position where the browser gives it, and a place without a name shows as a location", async () => {
    await grace.context().grantPermissions(['geolocation'])
    await grace.context().setGeolocation({ latitude: 51.500729, longitude: -0.124625 })
    const dialog = await openDialog(grace)
    await dialog.getByRole('button', { name: 'Use my position' }).click()
    const latitude = dialog.getByRole('textbox', { name: 'Latitude' })
    await expect.poll(() => latitude.inputValue()).toBe('51.500729')
    expect(await dialog.getByRole('textbox', { name: 'Longitude' }).inputValue()).toBe('-0.124625')
    await dialog.getByRole('button', { name: 'Share', exact: true }).click()
    await dialog.waitFor({ state: 'hidden' })
    for (const page of [grace, ada]) {
      const place = history(page).getByRole('link', { name: 'A location' })
      await place.waitFor()
      expect(await place.getAttribute('href')).toContain('mlat=51.500729&mlon=-0.124625')
    }
  })

  it('says in words when the position is not given, and keeps what was typed', async () => {
    await ada.context().clearPermissions()
    const dialog = await openDialog(ada)
    await dialog.getByRole('textbox', { name: 'Place name' }).fill('Somewhere')
    await dialog.getByRole('button', { name: 'Use my position' }).click()
    await dialog.getByRole('alert').filter({ hasText: 'Your position was not shared: this app was not allowed to know it. Type the coordinates instead.' }).waitFor()
    expect(await dialog.getByRole('textbox', { name: 'Place name' }).inputValue()).toBe('Somewhere')
    expect(await dialog.getByRole('textbox', { name: 'Latitude' }).inputValue()).toBe('')
    await ada.keyboard.press('Escape')
    await dialog.waitFor({ state: 'hidden' })
  })
})
