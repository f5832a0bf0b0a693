// A conversation's pictures and its export, end to end in Chromium against the real service. Grace
// sent a picture long ago in a group, and 160 messages since, so it was never on Ada's screen: once
// the history has downloaded, Ada's Pictures shows it, opens it large, and Go to message brings the
// message into view in place, highlighted and focused, with Jump to latest back to the newest.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seededText } from './long-history'
import { AFTER, GROUP, PICTURE_TEXT, seedOldPicture } from './old-picture'
import { conversation, EndToEnd } from './support'

let world: EndToEnd
let ada: Page

beforeAll(async () => {
  world = await EndToEnd.start()
  await seedOldPicture(world, 'pictures-grace')
}, 120_000)

afterAll(async () => {
  await world?.close()
})

const pictures = (page: Page): Locator => page.getByRole('dialog', { name: 'Pictures' })
const thumbnails = (page: Page): Locator => pictures(page).getByRole('button', { name: /^Picture from Grace/ })

function loadedWidth(picture: Locator): Promise<number> {
  return picture.evaluate((image) => ('complete' in image && image.complete && 'naturalWidth' in image ? Number(image.naturalWidth) : 0))
}

describe('a conversation’s pictures', () => {
  it('shows a picture from far back in the history once it has downloaded, newest first', async () => {
    ada = (await world.openApp('ada')).page
    await world.signIn(ada, world.account('Ada'))
    await conversation(ada, GROUP).click()
    await ada.getByText(seededText(AFTER - 1), { exact: true }).waitFor({ timeout: 30_000 })
    expect(await ada.getByText(PICTURE_TEXT).count()).toBe(0)

    // The download of older history brings it in the background: the dialog shows what is kept when it opens.
    const header = ada.getByRole('region', { name: GROUP }).locator('header').first()
    await expect
      .poll(
        async () => {
          await header.getByRole('button', { name: 'Pictures', exact: true }).click()
          await pictures(ada).getByRole('heading', { name: 'Pictures' }).waitFor()
          await expect.poll(() => pictures(ada).getByRole('status').count()).toBe(0)
          const count = await thumbnails(ada).count()
          if (count === 0) await ada.keyboard.press('Escape')
          return count
        },
        { timeout: 30_000, interval: 500 }
      )
      .toBe(1)
    const thumbnail = thumbnails(ada).locator('img')
    expect(await thumbnail.getAttribute('loading')).toBe('lazy')
    // The page's picture rule: the image service's own address, or this device's kept copy.
    expect(await thumbnail.getAttribute('src')).toMatch(new RegExp(`^(${world.origin}/image/i/|/kept-pictures/)`))
    await expect.poll(() => loadedWidth(thumbnail)).toBe(30)
  })

  it('opens it large, then Go to message shows the message in place, highlighted and focused', async () => {
    await thumbnails(ada).focus()
    await ada.keyboard.press('Enter')
    const large = pictures(ada).getByRole('img', { name: /^Picture from Grace/ })
    await expect.poll(() => loadedWidth(large)).toBe(30)
    await pictures(ada).getByRole('button', { name: 'Go to message' }).click()
    await expect.poll(() => pictures(ada).count()).toBe(0)

    const row = ada.locator('li[data-message-id]').filter({ hasText: PICTURE_TEXT })
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await row.evaluate((element) => element.matches(':focus'))).toBe(true)
    expect(await row.evaluate((element) => element.classList.contains('highlight'))).toBe(true)
    // In its context: the messages around it are there too.
    await expect.poll(() => ada.getByText(seededText(0), { exact: true }).isVisible()).toBe(true)

    await ada.getByRole('button', { name: /Jump to latest/ }).click()
    await expect.poll(() => ada.getByText(seededText(AFTER - 1), { exact: true }).isVisible()).toBe(true)
    expect(world.pageErrors).toEqual([])
  })

  it('closes on Escape, the large picture going back to the grid first, and gives focus back', async () => {
    const button = ada.getByRole('region', { name: GROUP }).locator('header').first().getByRole('button', { name: 'Pictures', exact: true })
    await button.click()
    await thumbnails(ada).click()
    await pictures(ada).getByRole('button', { name: 'Go to message' }).waitFor()
    await ada.keyboard.press('Escape')
    await thumbnails(ada).waitFor()
    expect(await thumbnails(ada).evaluate((element) => element.matches(':focus'))).toBe(true)
    await ada.keyboard.press('Escape')
    await expect.poll(() => pictures(ada).count()).toBe(0)
    expect(await button.evaluate((element) => element.matches(':focus'))).toBe(true)
  })
})
