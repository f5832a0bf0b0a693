// The app's layout as a person meets it in Chromium (issue 17): the frame never scrolls, only its
// panes; Contacts is a dialog of its own.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, FIRST_GROUP } from './support'

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

interface FrameSize {
  documentWidth: number
  documentHeight: number
  windowWidth: number
  windowHeight: number
  scrollX: number
  scrollY: number
}

async function frameSize(page: Page): Promise<FrameSize> {
  return page.evaluate<FrameSize>(`({
    documentWidth: document.documentElement.scrollWidth,
    documentHeight: document.documentElement.scrollHeight,
    windowWidth: window.innerWidth,
    windowHeight: window.innerHeight,
    scrollX: window.scrollX,
    scrollY: window.scrollY
  })`)
}

/**
 * Window sizes in CSS pixels. Browser zoom lays a page out in a window its zoom times smaller, so
 * 640 × 480 (the Electron window's minimum) at 150 % and 200 % are 427 × 320 and 320 × 240.
 */
const WINDOWS = [
  { width: 1280, height: 757 },
  { width: 1280, height: 800 },
  { width: 1024, height: 640 },
  { width: 640, height: 480 },
  { width: 427, height: 320 },
  { width: 320, height: 240 }
]

/** Ada, signed in once for the items below, with Weekend Hikers open. */
let signedIn: Promise<Page> | null = null

function ada(): Promise<Page> {
  signedIn ??= (async () => {
    const page = (await world.openApp('ada')).page
    await world.signIn(page, world.account('Ada'))
    await conversation(page, FIRST_GROUP).click()
    await page.getByRole('list', { name: 'Messages' }).getByRole('listitem').first().waitFor()
    return page
  })()
  return signedIn
}

function dialog(page: Page, name: string): Locator {
  return page.getByRole('dialog', { name, exact: true })
}

/** How the frame measured at each window size, against the window itself: they must be equal. */
async function framesAt(page: Page): Promise<{ measured: FrameSize[]; expected: FrameSize[] }> {
  const measured: FrameSize[] = []
  for (const size of WINDOWS) {
    await page.setViewportSize(size)
    measured.push(await frameSize(page))
  }
  await page.setViewportSize({ width: 1280, height: 757 })
  const expected = WINDOWS.map(({ width, height }) => ({ documentWidth: width, documentHeight: height, windowWidth: width, windowHeight: height, scrollX: 0, scrollY: 0 }))
  return { measured, expected }
}

describe('item 1: the frame never scrolls, only its panes', () => {
  it('keeps the sign-in screen inside the window at every size and zoom, its form in a pane of its own', async () => {
    const page = (await world.openApp('ada-sign-in')).page
    const signIn = page.getByRole('button', { name: 'Sign in' })
    await signIn.waitFor()
    const { measured, expected } = await framesAt(page)
    expect(measured).toEqual(expected)
    await page.setViewportSize({ width: 320, height: 240 })
    await signIn.scrollIntoViewIfNeeded()
    expect(await signIn.isVisible()).toBe(true)
    expect((await frameSize(page)).scrollY).toBe(0)
    await page.close()
  })

  it('keeps the document the size of the window with Weekend Hikers open, at every size and zoom', async () => {
    const { measured, expected } = await framesAt(await ada())
    expect(measured).toEqual(expected)
  })

  it('scrolls nothing but the panes under the mouse wheel', async () => {
    const page = await ada()
    const header = page.getByRole('banner')
    const sidebar = page.getByRole('navigation', { name: 'Conversation list' })
    const history = page.getByRole('region', { name: 'Message history' })
    for (const place of [header, sidebar, history]) {
      const box = await place.boundingBox()
      if (box === null) throw new Error('not drawn')
      await page.mouse.move(box.x + box.width / 2, box.y + Math.min(box.height / 2, 20))
      await page.mouse.wheel(0, 3000)
      await page.mouse.wheel(0, -800)
      await expect.poll(async () => (await frameSize(page)).scrollY).toBe(0)
    }
    expect((await header.boundingBox())?.y).toBe(0)
    // The history did scroll up under the wheel: its own pane moves, the frame does not.
    await expect.poll(() => history.evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeGreaterThan(0)
  })
})

describe('item 13: Contacts opens as a dialog of its own', () => {
  it('opens from the sidebar without moving the conversation list, takes focus, closes with Escape and gives focus back', async () => {
    const page = await ada()
    const list = page.getByRole('list', { name: 'Conversations' })
    const before = await list.boundingBox()
    const button = page.getByRole('button', { name: 'Contacts', exact: true })
    await button.focus()
    await page.keyboard.press('Enter')
    const contacts = dialog(page, 'Contacts')
    await expect.poll(() => contacts.isVisible()).toBe(true)
    expect(await list.boundingBox()).toEqual(before)
    expect(await contacts.evaluate((element) => element.matches(':focus-within'))).toBe(true)
    await contacts.getByRole('searchbox', { name: 'Search contacts' }).waitFor()

    await page.keyboard.press('Escape')
    await expect.poll(() => contacts.isVisible()).toBe(false)
    expect(await button.evaluate((element) => element.matches(':focus'))).toBe(true)

    // And by the mouse, closed by its Close button.
    await button.click()
    await contacts.getByRole('button', { name: 'Close' }).click()
    await expect.poll(() => contacts.isVisible()).toBe(false)
    expect(world.pageErrors).toEqual([])
  })
})
