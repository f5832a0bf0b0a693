// Drafts in Chromium, against the real service: what Ada writes in a conversation and has not sent
// (its text and a picture she chose) stays there when she moves to another conversation, reloads
// the page and restarts the app, the list saying `Draft: …` for it meanwhile; sending it leaves no
// draft behind.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blankBitmap, setPixel } from '../../src/main/desktop/bitmap'
import { encodePng } from '../../src/main/desktop/png'
import { connection, conversation, EndToEnd, FIRST_GROUP, type OpenedApp } from './support'

const OTHER_GROUP = 'Book Club'
const DRAFT = 'Half a thought about the ridge'

let world: EndToEnd
let opened: OpenedApp

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

function squarePng(): Buffer {
  const bitmap = blankBitmap(16, 16)
  for (let x = 0; x < 16; x += 1) for (let y = 0; y < 16; y += 1) setPixel(bitmap, x, y, [200, 40, 40, 255])
  return encodePng(bitmap)
}

const messageBox = (page: Page) => page.getByRole('textbox', { name: 'Message' })
const tray = (page: Page) => page.getByRole('list', { name: 'Attachments' })

/** The list's entry for the conversation, whose name says `Draft: …` while one is kept there. */
async function listedPreview(page: Page, name: string): Promise<string> {
  return (await conversation(page, name).textContent()) ?? ''
}

/** The group's composer holds the draft: its text, and the picture, drawn. */
async function draftIsBack(page: Page): Promise<void> {
  await conversation(page, FIRST_GROUP).click()
  await expect.poll(() => messageBox(page).inputValue(), { timeout: 20_000 }).toBe(DRAFT)
  const picture = tray(page).getByRole('img', { name: 'red.png' })
  await expect.poll(() => picture.count(), { timeout: 20_000 }).toBe(1)
  await expect
    .poll(() => picture.evaluate((image) => ('complete' in image && image.complete && 'naturalWidth' in image ? Number(image.naturalWidth) : 0)), { timeout: 20_000 })
    .toBe(16)
}

/** Moves to another conversation: the list then shows the group's draft. */
async function leaveForOther(page: Page): Promise<void> {
  await conversation(page, OTHER_GROUP).click()
  await expect.poll(() => listedPreview(page, FIRST_GROUP), { timeout: 20_000 }).toContain(`Draft: ${DRAFT}`)
}

describe('drafts', () => {
  it('keeps the text and the picture chosen when Ada moves to another conversation, with Draft: in the list', async () => {
    opened = await world.openApp('ada')
    const page = opened.page
    await world.signIn(page, world.account('Ada'))
    await conversation(page, FIRST_GROUP).click()
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: 'Attach image' }).click()
    await (await chooser).setFiles([{ name: 'red.png', mimeType: 'image/png', buffer: squarePng() }])
    await messageBox(page).fill(DRAFT)
    // Uploaded: a draft keeps the picture as the message will carry it.
    await expect.poll(() => page.getByRole('button', { name: 'Send' }).isEnabled(), { timeout: 30_000 }).toBe(true)
    await expect.poll(() => tray(page).getByRole('progressbar').count(), { timeout: 30_000 }).toBe(0)

    await leaveForOther(page)
    expect(await listedPreview(page, OTHER_GROUP)).not.toContain('Draft:')
    await draftIsBack(page)
    // The open conversation's own entry shows its last message, not the draft being written.
    expect(await listedPreview(page, FIRST_GROUP)).not.toContain('Draft:')
  })

  it('keeps it across a reload of the page', async () => {
    const page = opened.page
    await leaveForOther(page)
    await page.reload()
    await expect.poll(() => listedPreview(page, FIRST_GROUP), { timeout: 20_000 }).toContain(`Draft: ${DRAFT}`)
    await draftIsBack(page)
  })

  it('keeps it when the page goes while Ada is still typing', async () => {
    const page = opened.page
    await messageBox(page).fill(`${DRAFT} and more`)
    await page.reload()
    await conversation(page, FIRST_GROUP).click()
    await expect.poll(() => messageBox(page).inputValue(), { timeout: 20_000 }).toBe(`${DRAFT} and more`)
    await messageBox(page).fill(DRAFT)
  })

  it('keeps it across a restart of the app, from the store on the device', async () => {
    await leaveForOther(opened.page)
    await opened.context.close()
    await opened.app.close()
    opened = await world.openApp('ada')
    const page = opened.page
    await expect.poll(() => connection(page), { timeout: 20_000 }).toBe('Connected')
    await expect.poll(() => listedPreview(page, FIRST_GROUP), { timeout: 20_000 }).toContain(`Draft: ${DRAFT}`)
    await draftIsBack(page)
  })

  it('sends the draft with its picture, and leaves no draft behind, after a reload too', async () => {
    const page = opened.page
    await page.getByRole('button', { name: 'Send' }).click()
    const sent = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: DRAFT })
    await expect.poll(() => sent.getByRole('img', { name: /^Picture from / }).count(), { timeout: 30_000 }).toBe(1)
    expect(await messageBox(page).inputValue()).toBe('')
    expect(await tray(page).count()).toBe(0)
    await conversation(page, OTHER_GROUP).click()
    await page.reload()
    await conversation(page, OTHER_GROUP).waitFor()
    await expect.poll(() => listedPreview(page, FIRST_GROUP), { timeout: 20_000 }).toContain(DRAFT)
    expect(await listedPreview(page, FIRST_GROUP)).not.toContain('Draft:')
    await conversation(page, FIRST_GROUP).click()
    await page.getByRole('list', { name: 'Messages' }).waitFor()
    expect(await messageBox(page).inputValue()).toBe('')
    expect(await tray(page).count()).toBe(0)
    expect(world.pageErrors).toEqual([])
  })
})
