// The icon buttons of the sidebar, the conversation header and a message's actions, end to end in
// Chromium: each draws an icon, keeps its words as its accessible name, and shows them as a
// tooltip while hovered or focused from the keyboard, which Escape, leaving or blurring takes away.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, FIRST_GROUP } from './support'

let world: EndToEnd
let ada: Page

beforeAll(async () => {
  world = await EndToEnd.start()
  ada = (await world.openApp('ada')).page
  await ada.setViewportSize({ width: 1280, height: 800 })
  await world.signIn(ada, world.account('Ada'))
  await conversation(ada, FIRST_GROUP).click()
  await ada.getByRole('heading', { name: FIRST_GROUP, level: 2 }).waitFor()
}, 120_000)

afterAll(async () => {
  await world?.close()
})

const SIDEBAR = ['New message', 'Contacts', 'New group', 'Join with a link', 'Former groups']
const HEADER = ['Pictures', 'Pinned messages', 'Most liked', 'Create poll', 'Polls', 'Group settings', 'Members']

function tooltip(page: Page): Locator {
  return page.locator('.tooltip:popover-open')
}

/** The button's words are hidden, its icon drawn, and its name is the words. */
async function expectIconButton(button: Locator, name: string): Promise<void> {
  expect(await button.count(), name).toBe(1)
  expect(await button.locator('svg').isVisible(), `${name} draws its icon`).toBe(true)
  // Its lines are there and take room: an SVG with nothing drawn in it would be visible too.
  const drawn = await button.locator('svg').evaluate((svg) => {
    const lines = [...svg.querySelectorAll('path, circle, rect, line, polyline, polygon, ellipse')] as unknown as { getBBox(): { width: number; height: number } }[]
    return lines.length > 0 && lines.every((line) => line.getBBox().width + line.getBBox().height > 0)
  })
  expect(drawn, `${name}'s icon has its lines`).toBe(true)
  const words = button.locator('.bar-words')
  expect(await words.textContent()).toBe(name)
  expect(await words.evaluate((element) => element.getBoundingClientRect().width <= 1), `${name}'s words are hidden`).toBe(true)
}

describe('icon buttons', () => {
  it('draw an icon for each action of the sidebar and the header, each named by its words', async () => {
    for (const name of SIDEBAR) await expectIconButton(ada.getByRole('navigation', { name: 'Conversation list' }).getByRole('button', { name, exact: true }), name)
    const header = ada.getByRole('region', { name: FIRST_GROUP }).locator('header').first()
    for (const name of HEADER) await expectIconButton(header.getByRole('button', { name, exact: true }), name)
  })

  it('show the name as a tooltip under the mouse, and hide it when the mouse leaves', async () => {
    const members = ada.getByRole('button', { name: 'Members', exact: true })
    await members.hover()
    await expect.poll(() => tooltip(ada).textContent()).toBe('Members')
    // Drawn by the button, inside the window, hidden from screen readers that read the name already.
    const [bubble, button] = await Promise.all([tooltip(ada).boundingBox(), members.boundingBox()])
    expect(bubble !== null && button !== null && bubble.y >= button.y + button.height && bubble.x + bubble.width <= 1280).toBe(true)
    expect(await tooltip(ada).getAttribute('aria-hidden')).toBe('true')
    await ada.mouse.move(5, 700)
    await expect.poll(() => tooltip(ada).count()).toBe(0)
  })

  it('show the name on keyboard focus, and Escape or moving on takes it away', async () => {
    await ada.getByRole('button', { name: 'Contacts', exact: true }).focus()
    await ada.keyboard.press('Shift+Tab')
    await expect.poll(() => tooltip(ada).textContent()).toBe('New message')
    await ada.keyboard.press('Tab')
    await expect.poll(() => tooltip(ada).textContent()).toBe('Contacts')
    await ada.keyboard.press('Escape')
    await expect.poll(() => tooltip(ada).count()).toBe(0)
  })

  it('draw a message’s actions as icons with their names', async () => {
    const row = ada.locator('li[data-message-id]').last()
    await row.hover()
    const toolbar = row.getByRole('toolbar', { name: 'Message actions' })
    await toolbar.waitFor()
    for (const name of ['Delete', 'Pin']) {
      const button = toolbar.getByRole('button', { name, exact: true })
      if ((await button.count()) > 0) await expectIconButton(button, name)
    }
    expect(await toolbar.locator('.bar-words').count()).toBeGreaterThan(0)
    expect(world.pageErrors).toEqual([])
  })
})
