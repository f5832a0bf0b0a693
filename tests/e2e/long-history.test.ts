// A long conversation end to end: thousands of messages seeded on the real service, opened in the
// browser-mode app in Chromium, scrolled to the top. The DOM must stay bounded on the way, every
// message must be drawn at some point, and the first unread one marked (behaviour only; the
// timings are the benchmark's, `npm run bench:history`).
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { drawnRows, scrollToTop, seedHistory, seededText } from './long-history'
import { conversation, EndToEnd, FIRST_GROUP, send } from './support'

const GROUP = 'Launch Team'
const COUNT = 3_000
/** "About 200 message rows": the history never draws more. */
const ROW_BOUND = 200

let world: EndToEnd
let ada: Page

beforeAll(async () => {
  world = await EndToEnd.start()
  // Seeded before Ada's app signs in, so it finds them as history rather than 3,000 pushes.
  await seedHistory(world, GROUP, COUNT, 'Grace')
}, 180_000)

afterAll(async () => {
  await world?.close()
})

describe('a long history', () => {
  it('opens at the newest message with a bounded number of rows drawn', async () => {
    ada = (await world.openApp('ada')).page
    await world.signIn(ada, world.account('Ada'))
    await conversation(ada, GROUP).click()
    await expect.poll(() => ada.getByText(seededText(COUNT - 1), { exact: true }).isVisible(), { timeout: 30_000 }).toBe(true)
    expect(await drawnRows(ada)).toBeLessThanOrEqual(ROW_BOUND)
    await expect.poll(() => ada.getByRole('button', { name: /Jump to latest/ }).count()).toBe(0)
  })

  it('draws every message on the way to the top, never more than about 200 rows at once', async () => {
    const report = await scrollToTop(ada, { step: 600, collect: true, timeoutMs: 150_000 })

    expect(report.reachedTop).toBe(true)
    expect(report.peakRows).toBeLessThanOrEqual(ROW_BOUND)
    const missing = Array.from({ length: COUNT }, (_, index) => index).filter((index) => !report.seen.includes(index))
    expect(missing).toEqual([])
    // At the top the conversation's first messages are drawn under its beginning (the demo's own,
    // older than the seeded ones: 'Message 0' may be further down than the window reaches).
    await expect(ada.getByText('This is the beginning of the conversation.').isVisible()).resolves.toBe(true)
    expect(await ada.getByRole('list', { name: 'Messages' }).getByRole('listitem').first().isVisible()).toBe(true)
    expect(world.pageErrors).toEqual([])
  }, 180_000)

  it('jumps back to the latest, where a new message shows', async () => {
    await ada.getByRole('button', { name: /Jump to latest/ }).click()
    await expect.poll(() => ada.getByText(seededText(COUNT - 1), { exact: true }).isVisible()).toBe(true)
    expect(await drawnRows(ada)).toBeLessThanOrEqual(ROW_BOUND)

    await send(ada, 'Back at the bottom')
    await expect.poll(() => ada.getByText('Back at the bottom', { exact: true }).isVisible()).toBe(true)
  })

  it('marks where the unread messages begin when the conversation is opened again', async () => {
    await conversation(ada, FIRST_GROUP).click()
    await seedHistory(world, GROUP, 3, 'Grace', COUNT)
    await expect.poll(() => conversation(ada, GROUP).textContent(), { timeout: 30_000 }).toMatch(/3 unread/)

    await conversation(ada, GROUP).click()

    const divider = ada.getByRole('separator', { name: 'New messages' })
    await expect.poll(() => divider.isVisible(), { timeout: 30_000 }).toBe(true)
    const firstUnread = ada.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ has: divider })
    await expect(firstUnread.textContent()).resolves.toContain(seededText(COUNT))
    await expect(firstUnread.textContent()).resolves.not.toContain(seededText(COUNT + 1))
  })
})
