// Searching every message kept on this device, end to end in Chromium against the real service.
// Grace wrote of a café and, in Chinese, of going hiking, long ago in `Launch Team`, and 160
// messages since, so neither was ever on Ada's screen: once the history has downloaded, Ada finds
// them by `cafe` and by a word inside the sentence, opens one in place, and narrows a search to the
// open conversation with Ctrl+F.
import { randomUUID } from 'node:crypto'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ServiceRest } from '../support/service-rest'
import { seededText, seedHistory } from './long-history'
import { conversation, EndToEnd, FIRST_GROUP } from './support'

const GROUP = 'Launch Team'
const AFTER = 160
const CAFE = 'We met at the café by the river'
const CHINESE = '我们明天去爬山'
const HOSTILE = '<img src=x onerror="window.__searchXss=1"> café <b>bold</b>'

let world: EndToEnd
let ada: Page

async function sendAs(first: string, group: string, text: string): Promise<void> {
  const rest = new ServiceRest(world.origin, { appId: 'e2e-check' })
  const token = await rest.restToken(world.account(first), `search-${first}`)
  const groups = await world.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', token)
  const id = groups.response.find((candidate) => candidate.name === group)?.id
  await world.sendGroupMessage(token, String(id), text, randomUUID())
}

beforeAll(async () => {
  world = await EndToEnd.start()
  await sendAs('Grace', GROUP, CAFE)
  await sendAs('Grace', GROUP, CHINESE)
  await sendAs('Grace', GROUP, HOSTILE)
  await seedHistory(world, GROUP, AFTER, 'Grace')
  await sendAs('Grace', FIRST_GROUP, 'The café in the hills was closed')
}, 120_000)

afterAll(async () => {
  await world?.close()
})

const box = (page: Page): Locator => page.getByRole('searchbox', { name: 'Search messages' })
const results = (page: Page): Locator => page.getByRole('list', { name: 'Search results' })
const result = (page: Page, text: string): Locator => results(page).getByRole('button').filter({ hasText: text })

/** Types the query afresh until a result holding `text` shows: the history downloads meanwhile. */
async function searchUntilFound(page: Page, query: string, text: string): Promise<void> {
  await expect
    .poll(
      async () => {
        await box(page).fill('')
        await box(page).fill(query)
        await page.locator('section[aria-label="Message search results"] .searched').waitFor()
        return result(page, text).count()
      },
      { timeout: 60_000, interval: 1000 }
    )
    .toBe(1)
}

describe('searching messages', () => {
  it('finds `café` by `cafe` in a message far older than anything shown, once the history has downloaded', async () => {
    ada = (await world.openApp('ada')).page
    await world.signIn(ada, world.account('Ada'))
    await conversation(ada, GROUP).click()
    await ada.getByText(seededText(AFTER - 1), { exact: true }).waitFor({ timeout: 30_000 })
    expect(await ada.getByText(CAFE).count()).toBe(0)

    await ada.keyboard.press('Control+Shift+F')
    expect(await box(ada).evaluate((element) => element.matches(":focus"))).toBe(true)
    await searchUntilFound(ada, 'cafe', CAFE)
    const hit = result(ada, CAFE)
    expect(await hit.locator('mark').allTextContents()).toEqual(['café'])
    expect(await hit.textContent()).toContain(GROUP)
    expect(await hit.textContent()).toContain('Grace')
    // Every conversation is searched: the other group's café too, newest first.
    await expect.poll(() => result(ada, 'The café in the hills').count()).toBe(1)
    const texts = await results(ada).getByRole('button').allTextContents()
    expect(texts.findIndex((text) => text.includes('hills'))).toBeLessThan(texts.findIndex((text) => text.includes(CAFE)))
    // The line under them says what was searched.
    expect(await ada.locator('section[aria-label="Message search results"] .searched').textContent()).toMatch(/^Searched [\d,.\s]+ messages kept on this device, back to /)
    // The conversation list gives way to the results while the search is on.
    expect(await ada.getByRole('list', { name: 'Conversations' }).isVisible()).toBe(false)
  })

  it('keeps a message’s markup as text in its snippet', async () => {
    const hostile = result(ada, 'onerror')
    await expect.poll(() => hostile.count()).toBe(1)
    expect(await hostile.locator('img, b').count()).toBe(0)
    expect(await hostile.locator('mark').allTextContents()).toEqual(['café'])
    expect(await ada.evaluate('window.__searchXss')).toBeUndefined()
  })

  it('opens a result from the keyboard at its message, in place, highlighted and focused', async () => {
    await box(ada).focus()
    await ada.keyboard.press('ArrowDown')
    // Down from the box reaches the results; Down again moves through them.
    await expect.poll(() => ada.evaluate('document.activeElement?.closest("[aria-label=\\"Search results\\"]") !== null')).toBe(true)
    await result(ada, CAFE).focus()
    await ada.keyboard.press('Enter')

    const row = ada.locator('li[data-message-id]').filter({ hasText: CAFE })
    await expect.poll(() => row.isVisible(), { timeout: 15_000 }).toBe(true)
    expect(await row.evaluate((element) => element.matches(':focus'))).toBe(true)
    expect(await row.evaluate((element) => element.classList.contains('highlight'))).toBe(true)
    // In its context: the message sent just after it is there too.
    await expect.poll(() => ada.getByText(CHINESE, { exact: true }).isVisible()).toBe(true)
    // The results stay, for the next one.
    expect(await results(ada).isVisible()).toBe(true)

    await ada.getByRole('button', { name: /Jump to latest/ }).click()
    await expect.poll(() => ada.getByText(seededText(AFTER - 1), { exact: true }).isVisible()).toBe(true)
  })

  it('finds a Chinese word inside a sentence written without spaces', async () => {
    await searchUntilFound(ada, '爬山', CHINESE)
    expect(await result(ada, CHINESE).locator('mark').allTextContents()).toEqual(['爬山'])
  })

  it('searches only the open conversation with Ctrl+F, shown as a removable In: filter', async () => {
    await ada.getByRole('region', { name: GROUP }).getByRole('textbox', { name: 'Message' }).focus()
    await ada.keyboard.press('Control+F')
    const within = ada.getByRole('button', { name: `In: ${GROUP}`, exact: true })
    await within.waitFor()
    expect(await box(ada).evaluate((element) => element.matches(":focus"))).toBe(true)
    await searchUntilFound(ada, 'cafe', CAFE)
    expect(await result(ada, 'The café in the hills').count()).toBe(0)
    expect(await ada.locator('section[aria-label="Message search results"] .searched').textContent()).toMatch(/^Searched the messages of Launch Team kept/)

    // Backspace in the empty box, or a click on the filter, takes it away.
    await box(ada).fill('')
    await expect.poll(() => ada.getByText('Type a word to search the messages of Launch Team.').count()).toBe(1)
    await ada.keyboard.press('Backspace')
    await expect.poll(() => within.count()).toBe(0)
  })

  it('narrows by the filters set beside the box', async () => {
    await box(ada).fill('cafe')
    await expect.poll(() => result(ada, CAFE).count()).toBe(1)
    await ada.getByRole('button', { name: 'Filters' }).click()
    await ada.getByRole('textbox', { name: 'From' }).fill('Ada')
    await expect.poll(() => ada.getByText('No messages match “cafe from:Ada”.').count()).toBe(1)
    await ada.getByRole('textbox', { name: 'From' }).fill('grace')
    await expect.poll(() => result(ada, CAFE).count()).toBe(1)
    await ada.getByRole('button', { name: 'Clear filters' }).click()
  })

  it('says so in words when nothing matches, and Escape clears the search back to the list', async () => {
    await box(ada).fill('zebracrossingword')
    await expect.poll(() => ada.getByText('No messages match “zebracrossingword”.').count()).toBe(1)
    // A screen reader hears it too, from the one polite region.
    expect(await ada.locator('[aria-live="polite"]').filter({ hasText: 'No messages found.' }).count()).toBe(1)
    await box(ada).press('Escape')
    expect(await box(ada).inputValue()).toBe('')
    await expect.poll(() => ada.getByRole('list', { name: 'Conversations' }).isVisible()).toBe(true)
    expect(world.pageErrors).toEqual([])
  })
})
