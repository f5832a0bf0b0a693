// Reading a conversation, end to end in Chromium against the real service: a conversation with more
// unread messages than its newest page opens at its "New messages" divider, and `Jump to first
// unread` takes the reader back to it from wherever they scrolled; every row tells a screen reader
// where it stands in the whole conversation (aria-posinset of aria-setsize, the service's count);
// what others write is announced politely, several messages at once by count and sender, the
// reader's own not at all; and pictures are drawn at their own ratio, a small one at its size, in
// a box that does not change when the picture loads.
import { randomUUID } from 'node:crypto'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { blankBitmap, setPixel } from '../../src/main/desktop/bitmap'
import { encodePng } from '../../src/main/desktop/png'
import { ServiceRest } from '../support/service-rest'
import { seedHistory, seededText } from './long-history'
import { conversation, EndToEnd, FIRST_GROUP, send } from './support'

const GROUP = 'Launch Team'
/** More than the newest page the conversation opens with (50), fewer than the unread count's cap (100). */
const UNREAD = 90

let world: EndToEnd
let ada: Page
let rest: ServiceRest
let graceToken: string

beforeAll(async () => {
  world = await EndToEnd.start()
  rest = new ServiceRest(world.origin, { appId: 'e2e-check' })
  graceToken = await rest.restToken(world.account('Grace'), 'reading-grace')
})

afterAll(async () => {
  await world?.close()
})

async function groupOf(name: string): Promise<{ id: string; messages: { count: number } }> {
  const groups = await world.get<{ response: { id: string; name: string; messages: { count: number } }[] }>('/v3/groups?per_page=100', graceToken)
  const group = groups.response.find((candidate) => candidate.name === name)
  if (!group) throw new Error(`Grace is not in ${name}`)
  return group
}

const history = (page: Page): Locator => page.getByRole('region', { name: 'Message history' })
const rows = (page: Page): Locator => page.getByRole('list', { name: 'Messages' }).getByRole('listitem')
const row = (page: Page, text: string): Locator => rows(page).filter({ hasText: text })
const liveRegion = (page: Page): Locator => history(page).locator('[aria-live="polite"]')

/** Whether any of the element shows inside the history's visible box. */
function showing(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const viewport = element.closest('[aria-label="Message history"]')?.getBoundingClientRect()
    const box = element.getBoundingClientRect()
    return viewport !== undefined && box.height > 0 && box.bottom > viewport.top && box.top < viewport.bottom
  })
}

describe('unread messages', () => {
  it('opens at the New messages divider when more are unread than the newest page holds', async () => {
    ada = (await world.openApp('ada')).page
    await world.signIn(ada, world.account('Ada'))
    await conversation(ada, GROUP).click()
    await expect.poll(() => rows(ada).count(), { timeout: 30_000 }).toBeGreaterThan(0)
    await conversation(ada, FIRST_GROUP).click()
    await seedHistory(world, GROUP, UNREAD, 'Grace')
    await expect.poll(() => conversation(ada, GROUP).textContent(), { timeout: 30_000 }).toMatch(new RegExp(`${UNREAD} unread`))

    await conversation(ada, GROUP).click()

    const divider = ada.getByRole('separator', { name: 'New messages' })
    await expect.poll(() => divider.count(), { timeout: 30_000 }).toBe(1)
    await expect.poll(() => showing(divider)).toBe(true)
    await expect(rows(ada).filter({ has: divider }).textContent()).resolves.toContain(seededText(0))
    // A moment later it is still there: nothing moved the view on to the newest.
    await ada.waitForTimeout(1_000)
    expect(await showing(divider)).toBe(true)
    expect(await ada.getByRole('button', { name: 'Jump to first unread' }).count()).toBe(0)
  })

  it('offers Jump to first unread once the divider is above the view, and takes the reader back to it', async () => {
    await ada.getByRole('button', { name: /^Jump to latest/ }).click()
    await expect.poll(() => showing(row(ada, seededText(UNREAD - 1)))).toBe(true)
    const jump = ada.getByRole('button', { name: 'Jump to first unread' })
    await expect.poll(() => jump.count()).toBe(1)

    await jump.click()

    const divider = ada.getByRole('separator', { name: 'New messages' })
    await expect.poll(() => showing(divider)).toBe(true)
    await expect.poll(() => jump.count()).toBe(0)
    // Focus goes to the message, not to the page, as the button goes.
    expect(await ada.evaluate('document.activeElement?.textContent ?? ""')).toContain(seededText(0))
  })
})

describe('where a row stands', () => {
  it('gives each row its place in the whole conversation, of which only some rows are drawn', async () => {
    await ada.getByRole('button', { name: /^Jump to latest/ }).click()
    const { messages } = await groupOf(GROUP)
    const newest = row(ada, seededText(UNREAD - 1))
    await expect.poll(() => newest.getAttribute('aria-posinset')).toBe(String(messages.count))
    expect(await newest.getAttribute('aria-setsize')).toBe(String(messages.count))
    expect(await row(ada, seededText(UNREAD - 2)).getAttribute('aria-posinset')).toBe(String(messages.count - 1))
    // Fewer rows are drawn than the conversation has, and none says it is outside it.
    const places = await rows(ada).evaluateAll((items) => items.map((item) => Number(item.getAttribute('aria-posinset'))))
    expect(places.length).toBeLessThan(messages.count)
    expect(places.every((place) => place >= 1 && place <= messages.count)).toBe(true)
  })

  it('counts a new message in', async () => {
    const { id, messages } = await groupOf(GROUP)
    await world.sendGroupMessage(graceToken, id, 'One more for the count', randomUUID())
    const arrived = row(ada, 'One more for the count')
    await expect.poll(() => arrived.getAttribute('aria-posinset'), { timeout: 30_000 }).toBe(String(messages.count + 1))
    await expect.poll(() => arrived.getAttribute('aria-setsize')).toBe(String(messages.count + 1))
  })
})

describe('announcing new messages', () => {
  it('announces several arrivals in a busy group at once, by count and sender', async () => {
    const { id } = await groupOf(GROUP)
    // The last announcement (of the message just counted) is a few seconds old at most: these wait and go together.
    for (const text of ['Busy one', 'Busy two', 'Busy three']) await world.sendGroupMessage(graceToken, id, text, randomUUID())
    await expect.poll(() => liveRegion(ada).textContent(), { timeout: 15_000 }).toBe('3 new messages from Grace Hopper')
    expect(await ada.locator('[aria-live]').filter({ hasText: 'new messages from' }).count()).toBe(1)
  })

  it('announces a lone arrival with its sender and text, and never the reader’s own', async () => {
    await ada.waitForTimeout(3_500)
    const { id } = await groupOf(GROUP)
    await world.sendGroupMessage(graceToken, id, 'Anyone around?', randomUUID())
    await expect.poll(() => liveRegion(ada).textContent(), { timeout: 15_000 }).toBe('Grace Hopper: Anyone around?')

    await ada.waitForTimeout(3_500)
    await send(ada, 'Yes, here')
    await expect.poll(() => row(ada, 'Yes, here').count(), { timeout: 15_000 }).toBe(1)
    await ada.waitForTimeout(3_500)
    expect(await liveRegion(ada).textContent()).toBe('Grace Hopper: Anyone around?')
  })
})

/** A real PNG of this size that Chromium can draw. */
function png(width: number, height: number): Buffer {
  const bitmap = blankBitmap(width, height)
  for (let x = 0; x < width; x += 1) for (let y = 0; y < height; y += 1) setPixel(bitmap, x, y, [(x * 7) % 256, 120, (y * 5) % 256, 255])
  return encodePng(bitmap)
}

async function postPicture(groupId: string, text: string, bytes: Buffer): Promise<void> {
  const response = await fetch(`${world.origin}/image/pictures`, { method: 'POST', headers: { 'content-type': 'image/png', 'x-access-token': graceToken }, body: bytes })
  const url = ((await response.json()) as { payload: { url: string } }).payload.url
  await rest.post(`/v3/groups/${groupId}/messages`, { message: { source_guid: randomUUID(), text, attachments: [{ type: 'image', url }] } }, { token: graceToken })
}

function pictureIn(page: Page, text: string): Locator {
  return row(page, text).getByRole('img', { name: /^Picture from / })
}

function loaded(picture: Locator): Promise<boolean> {
  return picture.evaluate((image) => 'complete' in image && image.complete === true && 'naturalWidth' in image && Number(image.naturalWidth) > 0)
}

describe('pictures', () => {
  const SMALL = 'A small picture'
  const WIDE = 'A wide picture'

  it('draws a small picture at its own size and a wide one at its ratio within the largest box', async () => {
    const { id } = await groupOf(FIRST_GROUP)
    await conversation(ada, FIRST_GROUP).click()
    await postPicture(id, SMALL, png(48, 32))
    await postPicture(id, WIDE, png(1200, 300))

    for (const text of [SMALL, WIDE]) await expect.poll(() => loaded(pictureIn(ada, text)), { timeout: 30_000 }).toBe(true)
    await expect.poll(async () => (await pictureIn(ada, SMALL).boundingBox())?.width).toBe(48)
    expect((await pictureIn(ada, SMALL).boundingBox())?.height).toBe(32)
    // 1200 × 300 in a box of at most 384 × 240: as wide as the box, a quarter of that high.
    await expect.poll(async () => (await pictureIn(ada, WIDE).boundingBox())?.width).toBe(384)
    expect((await pictureIn(ada, WIDE).boundingBox())?.height).toBe(96)
  })

  it('reserves each picture’s box before it loads: its row is as high before as after', async () => {
    // The pictures' bytes are held back until the rows are measured.
    let release: () => void = () => {}
    const held = new Promise<void>((resolve) => (release = resolve))
    await ada.route('**/*', async (route) => {
      if (route.request().resourceType() === 'image') await held
      await route.continue()
    })
    await conversation(ada, GROUP).click()
    await expect.poll(() => rows(ada).count(), { timeout: 30_000 }).toBeGreaterThan(0)
    await conversation(ada, FIRST_GROUP).click()
    await expect.poll(() => pictureIn(ada, WIDE).count(), { timeout: 30_000 }).toBe(1)
    const heights = async (): Promise<number[]> =>
      Promise.all([SMALL, WIDE].map(async (text) => (await row(ada, text).boundingBox())?.height ?? 0))

    const before = await heights()
    expect(await loaded(pictureIn(ada, SMALL))).toBe(false)
    expect((await pictureIn(ada, SMALL).boundingBox())?.width).toBe(48)
    expect((await pictureIn(ada, WIDE).boundingBox())?.height).toBe(96)
    release()
    for (const text of [SMALL, WIDE]) await expect.poll(() => loaded(pictureIn(ada, text)), { timeout: 30_000 }).toBe(true)

    expect(await heights()).toEqual(before)
    await ada.unroute('**/*')
    expect(world.pageErrors).toEqual([])
  })
})
