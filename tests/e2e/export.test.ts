// Exporting a conversation end to end in Chromium against the real service: Grace sent a picture
// and 160 messages after it in a group, more than one page of history, most of it never on Ada's
// screen. Ada exports the group through Conversation options ▸ Export conversation…: the HTML file
// has every message, the picture embedded and no script; the JSON file parses with every message.
// The dialog is driven from the keyboard throughout.
import { readFile } from 'node:fs/promises'
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seededText } from './long-history'
import { AFTER, GROUP, PICTURE_TEXT, seedOldPicture } from './old-picture'
import { conversation, EndToEnd } from './support'

let world: EndToEnd
let ada: Page

beforeAll(async () => {
  world = await EndToEnd.start()
  await seedOldPicture(world, 'export-grace')
  ada = (await world.openApp('ada')).page
  await world.signIn(ada, world.account('Ada'))
  await conversation(ada, GROUP).click()
  await ada.getByText(seededText(AFTER - 1), { exact: true }).waitFor({ timeout: 30_000 })
}, 120_000)

afterAll(async () => {
  await world?.close()
})

const exportDialog = (page: Page) => page.getByRole('dialog', { name: 'Export conversation' })

/** Exports the open conversation from the keyboard; the file's text. */
async function exportAs(page: Page, format: 'HTML' | 'JSON'): Promise<string> {
  await page.getByRole('button', { name: 'Conversation options' }).focus()
  await page.keyboard.press('Enter')
  await page.getByRole('menuitem', { name: 'Export conversation…' }).waitFor()
  await page.keyboard.press('End')
  await page.keyboard.press('Enter')
  const dialog = exportDialog(page)
  await dialog.waitFor()
  // Focus starts on the chosen format; the arrows choose the other.
  expect(await dialog.getByRole('radio', { name: 'HTML' }).evaluate((radio) => radio.matches(':focus'))).toBe(true)
  if (format === 'JSON') await page.keyboard.press('ArrowDown')
  expect(await dialog.getByRole('radio', { name: format }).isChecked()).toBe(true)
  const download = page.waitForEvent('download', { timeout: 60_000 })
  await dialog.getByRole('button', { name: 'Export' }).focus()
  await page.keyboard.press('Enter')
  const path = await (await download).path()
  await dialog.getByRole('status').filter({ hasText: /^Saved/ }).waitFor()
  await page.keyboard.press('Escape')
  await expect.poll(() => dialog.count()).toBe(0)
  expect(await page.getByRole('button', { name: 'Conversation options' }).evaluate((button) => button.matches(':focus'))).toBe(true)
  return readFile(path, 'utf8')
}

describe('exporting a conversation', () => {
  it('saves the whole history as one HTML file: every message in order, the picture embedded, no script', async () => {
    const html = await exportAs(ada, 'HTML')
    expect(html.startsWith('<!doctype html>')).toBe(true)
    let at = html.indexOf(PICTURE_TEXT)
    expect(at).toBeGreaterThan(0)
    for (let index = 0; index < AFTER; index += 1) {
      const next = html.indexOf(`>${seededText(index)}</p>`)
      expect(next, seededText(index)).toBeGreaterThan(at)
      at = next
    }
    expect(html).toMatch(/<img alt="Picture from Grace[^"]*" src="data:image\/png;base64,/)
    expect(html.toLowerCase()).not.toContain('<script')
    expect(html).toContain('prefers-color-scheme: dark')
  })

  it('saves it as JSON that parses, every message in it as the app keeps it', async () => {
    const json = JSON.parse(await exportAs(ada, 'JSON')) as { conversation: { name: string }; messages: { text: string; attachments: { type: string }[] }[] }
    expect(json.conversation.name).toBe(GROUP)
    const texts = json.messages.map((message) => message.text)
    for (let index = 0; index < AFTER; index += 1) expect(texts).toContain(seededText(index))
    expect(json.messages.find((message) => message.text === PICTURE_TEXT)?.attachments[0]?.type).toBe('image')
    expect(world.pageErrors).toEqual([])
  })
})
