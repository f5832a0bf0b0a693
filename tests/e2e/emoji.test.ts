// Emoji in browser mode in Chromium against the real local service: every emoji the app draws comes
// from the colour font it ships, on a machine with no colour emoji font of its own (Debian's
// chromium here has none: without the app's font, 👍 is a box), and the Emoji picker beside the
// Message box puts the one chosen in at the caret.
import type { CDPSession, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { REACTION_EMOJI } from '../../src/shared/messages'
import { conversation, EndToEnd, FIRST_GROUP, send } from './support'

/** The family name inside the font the app ships (@infolektuell/noto-color-emoji's woff2 files). */
const SHIPPED_EMOJI_FONT = 'Noto Color Emoji'

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

function row(page: Page, text: string): Locator {
  return page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: text })
}

interface PlatformFont {
  familyName: string
  isCustomFont: boolean
  glyphCount: number
}

/**
 * The fonts Chromium drew the text of this element with, as DevTools shows them (CSS domain,
 * getPlatformFontsForNode): what was on screen, not what the style asked for.
 */
async function fontsDrawing(cdp: CDPSession, element: Locator): Promise<PlatformFont[]> {
  // The font comes in parts, each fetched once a page shows one of its emoji: drawn once they are in.
  await element.page().evaluate('document.fonts.ready.then(() => undefined)')
  await element.evaluate((node) => {
    Object.assign(node.ownerDocument.defaultView ?? {}, { fontProbe: node })
  })
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'window.fontProbe' })
  if (result.objectId === undefined) throw new Error('the element is not in the page')
  const { nodeId } = await cdp.send('DOM.requestNode', { objectId: result.objectId })
  const { fonts } = await cdp.send('CSS.getPlatformFontsForNode', { nodeId })
  return fonts
}

async function devTools(page: Page): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('DOM.enable')
  await cdp.send('CSS.enable')
  await cdp.send('DOM.getDocument', { depth: 0 })
  return cdp
}

describe('the emoji the app draws', () => {
  let ada: Page
  let grace: Page
  let cdp: CDPSession

  it('signs both in and opens the same group', async () => {
    ;({ ada, grace } = await world.adaAndGrace())
    await conversation(ada, FIRST_GROUP).click()
    await conversation(grace, FIRST_GROUP).click()
    cdp = await devTools(grace)
  })

  it('draws every one of the fifteen reaction chips with the font the app ships', async () => {
    const text = 'React to this with everything'
    await send(ada, text)
    await row(grace, text).waitFor()
    // One reaction each: choosing another replaces it, so the chip changes fifteen times.
    for (const emoji of REACTION_EMOJI) {
      await row(ada, text).getByRole('toolbar', { name: 'Message actions' }).getByRole('button', { name: 'React' }).click()
      await ada.getByRole('menuitem', { name: emoji, exact: true }).click()
      const chip = row(grace, text).getByRole('button', { name: `${emoji} 1`, exact: true })
      await chip.waitFor()
      const drawn = await fontsDrawing(cdp, chip.locator('span').first())
      expect(drawn, emoji).toEqual([expect.objectContaining({ familyName: SHIPPED_EMOJI_FONT, isCustomFont: true, glyphCount: 1 })])
    }
  })

  it('draws emoji in a message with it, sequences whole, and the words and digits beside them with the text font', async () => {
    const text = 'Summit at 12 🫠 then cake 🫶🏽 👍 🤷‍♀️ 🏳️‍🌈 🐦‍🔥'
    await send(ada, text)
    const message = row(grace, 'Summit at 12').getByText(text, { exact: true })
    await message.waitFor()
    const drawn = await fontsDrawing(cdp, message)
    const emojiFont = drawn.find((font) => font.familyName === SHIPPED_EMOJI_FONT)
    // One glyph each: 🫠, 👍, 🫶🏽 (heart hands and a skin tone), 🤷‍♀️ and 🏳️‍🌈 (joined sequences)
    // and 🐦‍🔥 (Emoji 15.1). The 1 and 2 of "12" are the text font's.
    expect(emojiFont).toEqual(expect.objectContaining({ isCustomFont: true, glyphCount: 6 }))
    const textFonts = drawn.filter((font) => font.familyName !== SHIPPED_EMOJI_FONT)
    expect(textFonts.length).toBeGreaterThan(0)
    expect(textFonts.every((font) => !font.isCustomFont)).toBe(true)
  })

  it('puts the emoji chosen in the Emoji picker at the caret, from the keyboard, and draws the picker with the same font', async () => {
    const message = grace.getByRole('textbox', { name: 'Message' })
    await message.fill('See you at the top')
    await message.press('Home')
    for (let step = 0; step < 'See '.length; step++) await message.press('ArrowRight')

    const button = grace.getByRole('button', { name: 'Emoji', exact: true })
    await button.focus()
    await button.press('Enter')
    const picker = grace.getByRole('dialog', { name: 'Emoji' })
    const search = picker.getByRole('combobox', { name: 'Search emoji' })
    await expect.poll(() => search.evaluate((field) => field.ownerDocument.activeElement === field)).toBe(true)
    const melting = picker.getByRole('option', { name: 'melting face', exact: true })
    await melting.waitFor()
    expect(await fontsDrawing(cdp, melting)).toEqual([expect.objectContaining({ familyName: SHIPPED_EMOJI_FONT, glyphCount: 1 })])

    await search.pressSequentially('melting')
    // The first match is the one Enter takes; the field says so through aria-activedescendant.
    await expect.poll(async () => search.getAttribute('aria-activedescendant')).toBe(await melting.getAttribute('id'))
    await search.press('Enter')
    expect(await picker.isVisible()).toBe(false)
    expect(await message.inputValue()).toBe('See 🫠you at the top')
    expect(await message.evaluate((box) => [box.ownerDocument.activeElement === box, 'selectionStart' in box && box.selectionStart, 'selectionEnd' in box && box.selectionEnd])).toEqual([true, 6, 6])
  })

  it('replaces the selection with an emoji picked by pointer after moving with the arrows, and Escape changes nothing', async () => {
    const message = grace.getByRole('textbox', { name: 'Message' })
    await message.press('End')
    for (let step = 0; step < 'top'.length; step++) await message.press('Shift+ArrowLeft')

    await grace.getByRole('button', { name: 'Emoji', exact: true }).click()
    const picker = grace.getByRole('dialog', { name: 'Emoji' })
    const search = picker.getByRole('combobox', { name: 'Search emoji' })
    await search.pressSequentially('mountain')
    const first = await search.getAttribute('aria-activedescendant')
    await search.press('ArrowRight')
    await search.press('ArrowDown')
    await search.press('ArrowUp')
    expect(await search.getAttribute('aria-activedescendant')).not.toBe(first)
    await picker.getByRole('option', { name: 'snow-capped mountain', exact: true }).click()
    expect(await picker.isVisible()).toBe(false)
    expect(await message.inputValue()).toBe('See 🫠you at the 🏔️')

    // Escape closes it, puts focus back in the Message box and leaves the text as it was.
    await grace.getByRole('button', { name: 'Emoji', exact: true }).click()
    await search.waitFor()
    await search.press('Escape')
    expect(await picker.isVisible()).toBe(false)
    expect(await message.evaluate((box) => box.ownerDocument.activeElement === box)).toBe(true)
    expect(await message.inputValue()).toBe('See 🫠you at the 🏔️')
  })

  it('sends what was written with the picker, and the other side sees it', async () => {
    await grace.getByRole('textbox', { name: 'Message' }).press('Enter')
    await row(ada, 'See 🫠you at the 🏔️').waitFor()
  })
})
