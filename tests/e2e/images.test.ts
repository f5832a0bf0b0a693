// Pictures end to end, as two people use them: Ada attaches a PNG (through the file chooser the
// Attach image button opens), it uploads through main to the local image service and goes out
// with her text; Grace sees the picture load live and opens it in the viewer, which Escape
// closes. Ada's wrong file type and eleventh picture are refused before any upload, and an upload
// that fails while the service is down keeps the draft and goes with Retry once it is back. The
// picture Grace was sent is kept on her device, and shows from there with the service down.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blankBitmap, setPixel } from '../../src/main/desktop/bitmap'
import { encodePng } from '../../src/main/desktop/png'
import { conversation, EndToEnd, FIRST_GROUP } from './support'

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

/** A real PNG, twice as wide as it is high, that Chromium can draw. */
function landscapePng(): Buffer {
  const bitmap = blankBitmap(40, 20)
  for (let x = 0; x < 40; x += 1) for (let y = 0; y < 20; y += 1) setPixel(bitmap, x, y, [x * 6, 120, 200, 255])
  return encodePng(bitmap)
}

/** Picks files in the chooser the composer's Attach image button opens. */
async function attach(page: Page, files: { name: string; mimeType: string; buffer: Buffer }[]): Promise<void> {
  const chooser = page.waitForEvent('filechooser')
  await page.getByRole('button', { name: 'Attach image' }).click()
  await (await chooser).setFiles(files)
}

const attachments = (page: Page) => page.getByRole('list', { name: 'Attachments' })

/** How wide the picture is, once the page has decoded it (0 until then). This file is typed without the DOM. */
function loadedWidth(picture: Locator): Promise<number> {
  return picture.evaluate((image) => ('complete' in image && image.complete && 'naturalWidth' in image ? Number(image.naturalWidth) : 0))
}

describe('pictures between two people', () => {
  let ada: Page
  let grace: Page

  it('signs both in and opens the same group', async () => {
    ;({ ada, grace } = await world.adaAndGrace())
    await conversation(ada, FIRST_GROUP).click()
    await conversation(grace, FIRST_GROUP).click()
  })

  it('A attaches a PNG and sends it with text; B sees the picture load live, and opens it', async () => {
    await attach(ada, [{ name: 'ridge.png', mimeType: 'image/png', buffer: landscapePng() }])
    const waiting = attachments(ada).getByRole('listitem')
    await expect.poll(() => waiting.count()).toBe(1)
    await expect.poll(() => loadedWidth(waiting.getByRole('img', { name: 'ridge.png' }))).toBe(40)
    await expect.poll(() => ada.getByRole('button', { name: 'Send' }).isEnabled(), { timeout: 30_000 }).toBe(true)
    await ada.getByRole('textbox', { name: 'Message' }).fill('The view from the ridge')
    await ada.getByRole('button', { name: 'Send' }).click()
    await expect.poll(() => attachments(ada).count()).toBe(0)

    const messages = grace.getByRole('list', { name: 'Messages' })
    const message = messages.getByRole('listitem').filter({ hasText: 'The view from the ridge' })
    const picture = message.getByRole('img', { name: /^Picture from / })
    await expect.poll(() => picture.count(), { timeout: 30_000 }).toBe(1)
    expect(await picture.getAttribute('loading')).toBe('lazy')
    expect(await picture.getAttribute('src')).toMatch(new RegExp(`^${world.origin}/image/i/[0-9a-f]{32}$`))
    await picture.scrollIntoViewIfNeeded()
    await expect.poll(() => loadedWidth(picture), { timeout: 30_000 }).toBe(40)
    // Drawn at its own size, smaller than the largest box: not enlarged, nor padded into it.
    await expect.poll(async () => (await picture.boundingBox())?.width).toBe(40)
    expect((await picture.boundingBox())?.height).toBe(20)

    await message.getByRole('button', { name: /^Picture from / }).click()
    const viewer = grace.getByRole('dialog', { name: /^Picture from / })
    await expect.poll(() => viewer.isVisible()).toBe(true)
    await grace.keyboard.press('Escape')
    await expect.poll(() => viewer.count()).toBe(0)
  })

  it('refuses a file that is not a picture before any upload, with a clear message', async () => {
    await attach(ada, [{ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('not a picture') }])
    await expect.poll(() => ada.getByRole('alert').filter({ hasText: '“notes.txt” is not a JPEG, PNG or GIF picture, so it cannot be sent.' }).count()).toBe(1)
    expect(await attachments(ada).count()).toBe(0)
  })

  it('takes ten pictures and refuses an eleventh, with a clear message', async () => {
    const png = landscapePng()
    await attach(ada, Array.from({ length: 10 }, (_, index) => ({ name: `p${index + 1}.png`, mimeType: 'image/png', buffer: png })))
    await expect.poll(() => attachments(ada).getByRole('listitem').count()).toBe(10)
    await attach(ada, [{ name: 'p11.png', mimeType: 'image/png', buffer: png }])
    await expect.poll(() => ada.getByRole('alert').filter({ hasText: 'A message can carry at most 10 pictures, so “p11.png” was not added.' }).count()).toBe(1)
    expect(await attachments(ada).getByRole('listitem').count()).toBe(10)

    await attachments(ada).getByRole('listitem').first().getByRole('button', { name: 'Remove image' }).click()
    await expect.poll(() => attachments(ada).getByRole('listitem').count()).toBe(9)
    while ((await attachments(ada).getByRole('listitem').count()) > 0) {
      await attachments(ada).getByRole('listitem').first().getByRole('button', { name: 'Remove image' }).click()
    }
  })

  it('keeps the draft when an upload fails while the service is down, and Retry sends it once it is back', async () => {
    await world.stopService()
    await ada.getByRole('textbox', { name: 'Message' }).fill('Second try')
    await attach(ada, [{ name: 'retry.png', mimeType: 'image/png', buffer: landscapePng() }])
    const item = attachments(ada).getByRole('listitem')
    await expect.poll(() => item.textContent(), { timeout: 30_000 }).toMatch(/Upload failed/)
    expect(await ada.getByRole('button', { name: 'Send' }).isEnabled()).toBe(false)

    await world.restartService()
    await item.getByRole('button', { name: 'Retry' }).click()
    await expect.poll(() => ada.getByRole('button', { name: 'Send' }).isEnabled(), { timeout: 30_000 }).toBe(true)
    expect(await ada.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('Second try')
    await ada.getByRole('button', { name: 'Send' }).click()

    const message = grace.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'Second try' })
    await expect.poll(() => message.getByRole('img', { name: /^Picture from / }).count(), { timeout: 60_000 }).toBe(1)
    expect(world.pageErrors).toEqual([])
  })

  it("shows Grace the picture she was sent from her own device once kept there, with the service down too", async () => {
    const picture = () =>
      grace.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'The view from the ridge' }).getByRole('img', { name: /^Picture from / })
    const reopen = async (): Promise<void> => {
      await grace.reload()
      await conversation(grace, FIRST_GROUP).click()
      await picture().waitFor({ timeout: 30_000 })
    }
    await reopen()
    expect(await picture().getAttribute('src')).toMatch(/^\/kept-pictures\/[\w-]+\?url=/)

    await world.stopService()
    try {
      await reopen()
      await picture().scrollIntoViewIfNeeded()
      await expect.poll(() => loadedWidth(picture()), { timeout: 30_000 }).toBe(40)
    } finally {
      await world.restartService()
    }
    expect(world.pageErrors).toEqual([])
  })
})
