// The app's layout as a person meets it in Chromium: the frame never scrolls, only its
// panes; every control keeps its contrast in every state and both themes; long words and side
// panels keep to their room; the app header stays one row; Contacts is a dialog of its own.
import type { CDPSession, Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { contrastSession, contrastShortfalls, type Scene, type Theme } from './contrast'
import { conversation, EndToEnd, FIRST_GROUP, send } from './support'

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

/**
 * The browser has not yet asked about notifications, as for anyone new to the app, so the header
 * offers Turn on desktop notifications too: its longest button.
 */
const NOT_ASKED_YET = `Object.defineProperty(Notification, 'permission', { get: () => 'default' })`

/** Ada, signed in once for the items below, with Weekend Hikers open. */
let signedIn: Promise<Page> | null = null

function ada(): Promise<Page> {
  signedIn ??= (async () => {
    const page = (await world.openApp('ada', { initScript: NOT_ASKED_YET })).page
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

describe('the frame never scrolls, only its panes', () => {
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

describe('every state of every control keeps AA contrast, in both themes', () => {
  const THEMES: Theme[] = ['light', 'dark']
  const sessions = new Map<Page, CDPSession>()

  async function shortfalls(page: Page, scene: Scene): Promise<string[]> {
    const cdp = sessions.get(page) ?? (await contrastSession(page))
    sessions.set(page, cdp)
    const found: string[] = []
    for (const theme of THEMES) found.push(...(await contrastShortfalls(page, cdp, theme, scene)))
    return found
  }

  it('on the sign-in screen', async () => {
    const page = (await world.openApp('ada-contrast-sign-in')).page
    await page.getByRole('button', { name: 'Sign in' }).waitFor()
    const found = await shortfalls(page, { name: 'sign-in' })
    await page.getByRole('textbox', { name: 'Username' }).fill('ada@demo.test')
    found.push(...(await shortfalls(page, { name: 'sign-in, typed' })))
    await page.close()
    expect(found).toEqual([])
  }, 180_000)

  it('on the verification screen, before and after Send code', async () => {
    const page = (await world.openApp('ada-contrast-verify')).page
    await page.getByRole('textbox', { name: 'Username' }).fill(world.account('Ada').email)
    await page.getByRole('textbox', { name: 'Password' }).fill(world.account('Ada').password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    await page.getByRole('button', { name: 'Send code' }).waitFor()
    const found = await shortfalls(page, { name: 'verification' })
    await page.getByRole('button', { name: 'Send code' }).click()
    await page.getByRole('textbox', { name: 'Verification code' }).fill('12')
    found.push(...(await shortfalls(page, { name: 'verification, code sent' })))
    await page.close()
    expect(found).toEqual([])
  }, 180_000)

  it('in the main window with Weekend Hikers open: header, list, conversation header, history and composer', async () => {
    const page = await ada()
    // With a side panel open, so its toggle shows as pressed and the panel's own controls are in.
    await page.getByRole('button', { name: 'Pinned messages', exact: true }).click()
    await page.getByRole('region', { name: 'Pinned messages' }).waitFor()
    const found = await shortfalls(page, { name: 'main window', scroll: false })
    await page.getByRole('button', { name: 'Pinned messages', exact: true }).click()
    expect(found).toEqual([])
  }, 300_000)

  it('in the Status menu', async () => {
    const page = await ada()
    await page.getByRole('button', { name: 'Status', exact: true }).click()
    const found = await shortfalls(page, { name: 'Status menu', root: '[role="menu"]' })
    await page.keyboard.press('Escape')
    expect(found).toEqual([])
  }, 180_000)

  it('in New group (Create), and in the new group’s settings (Save, Delete group) and a message’s Delete', async () => {
    const page = await ada()
    await page.getByRole('button', { name: 'New group', exact: true }).click()
    const newGroup = dialog(page, 'New group')
    await newGroup.getByRole('textbox', { name: 'Group name' }).fill('Contrast Check')
    const found = await shortfalls(page, { name: 'New group', root: 'dialog[open]' })
    await newGroup.getByRole('button', { name: 'Create' }).click()
    await page.getByRole('heading', { name: 'Contrast Check', level: 2 }).waitFor()

    await page.getByRole('button', { name: 'Group settings' }).click()
    const settings = dialog(page, 'Group settings')
    await settings.getByRole('button', { name: 'Delete group' }).waitFor()
    found.push(...(await shortfalls(page, { name: 'Group settings', root: 'dialog[open]' })))
    await settings.getByRole('textbox', { name: /Type “Contrast Check”/ }).fill('Contrast Check')
    found.push(...(await shortfalls(page, { name: 'Group settings, delete ready', root: 'dialog[open] form.danger-zone' })))
    await settings.getByRole('button', { name: 'Close' }).click()

    await send(page, 'A message to delete')
    const row = page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: 'A message to delete' })
    await row.hover()
    await row.getByRole('button', { name: 'Delete', exact: true }).click()
    await row.getByRole('button', { name: 'Cancel' }).waitFor()
    found.push(...(await shortfalls(page, { name: 'Delete message?', root: '[aria-label="Messages"]', scroll: false })))
    await row.getByRole('button', { name: 'Cancel' }).click()
    expect(found).toEqual([])
  }, 300_000)

  it('in Join with a link (Join), New poll (Create) and a poll’s Vote', async () => {
    const page = await ada()
    await page.getByRole('button', { name: 'Join with a link', exact: true }).click()
    const found = await shortfalls(page, { name: 'Join with a link', root: 'dialog[open]' })
    await dialog(page, 'Join with a link').getByRole('button', { name: 'Close' }).click()

    await conversation(page, FIRST_GROUP).click()
    await page.getByRole('button', { name: 'Create poll' }).click()
    const newPoll = dialog(page, 'New poll')
    await newPoll.getByRole('textbox', { name: 'Question' }).fill('Which trail?')
    await newPoll.getByRole('textbox', { name: 'Option 1' }).fill('Ridge')
    await newPoll.getByRole('textbox', { name: 'Option 2' }).fill('Lakeside')
    found.push(...(await shortfalls(page, { name: 'New poll', root: 'dialog[open]' })))
    await newPoll.getByRole('button', { name: 'Create' }).click()
    const poll = page.getByRole('list', { name: 'Messages' }).getByRole('region', { name: 'Which trail?' })
    await poll.getByRole('radio', { name: 'Ridge' }).check()
    found.push(...(await shortfalls(page, { name: 'poll', root: '[aria-label="Messages"]', scroll: false })))
    expect(found).toEqual([])
  }, 300_000)

  it('in Contacts, New message’s suggestions, Members and a member’s profile', async () => {
    const page = await ada()
    await page.getByRole('button', { name: 'Contacts', exact: true }).click()
    await page.getByRole('dialog', { name: 'Contacts' }).getByRole('textbox', { name: 'Your contact link' }).waitFor()
    const found = await shortfalls(page, { name: 'Contacts', root: 'dialog[open]' })
    await page.keyboard.press('Escape')

    await page.getByRole('button', { name: 'New message', exact: true }).click()
    const newMessage = dialog(page, 'New message')
    await newMessage.getByRole('combobox', { name: 'To' }).fill('a')
    await newMessage.getByRole('option').first().waitFor()
    // The suggestions first: focus on any other control closes them.
    found.push(...(await shortfalls(page, { name: 'New message’s suggestions', root: 'dialog[open] [role="listbox"]' })))
    await newMessage.getByRole('combobox', { name: 'To' }).press('Escape')
    found.push(...(await shortfalls(page, { name: 'New message', root: 'dialog[open]' })))
    await page.keyboard.press('Escape')

    await conversation(page, FIRST_GROUP).click()
    await page.getByRole('button', { name: 'Members', exact: true }).click()
    const members = dialog(page, 'Members')
    await members.getByRole('list', { name: 'Members' }).getByRole('listitem').first().waitFor()
    found.push(...(await shortfalls(page, { name: 'Members', root: 'dialog[open]' })))
    await members.getByRole('list', { name: 'Members' }).getByRole('button', { name: /Grace Hopper/ }).first().click()
    await dialog(page, 'Grace Hopper').getByRole('button', { name: 'Send message' }).waitFor()
    found.push(...(await shortfalls(page, { name: 'profile', root: 'dialog[open][aria-busy]' })))
    await page.keyboard.press('Escape')
    await page.keyboard.press('Escape')
    expect(found).toEqual([])
  }, 300_000)

  it('in Go to with its options, and in Keyboard shortcuts', async () => {
    const page = await ada()
    await page.keyboard.press('Control+k')
    const goTo = dialog(page, 'Go to')
    await goTo.getByRole('option').first().waitFor()
    const found = await shortfalls(page, { name: 'Go to', root: 'dialog[open]' })
    await page.keyboard.press('Escape')
    await page.keyboard.press('Control+/')
    await dialog(page, 'Keyboard shortcuts').waitFor()
    found.push(...(await shortfalls(page, { name: 'Keyboard shortcuts', root: 'dialog[open]' })))
    await page.keyboard.press('Escape')
    expect(found).toEqual([])
  }, 180_000)

  it('in Settings, each of its tabs', async () => {
    const page = await ada()
    await page.getByRole('button', { name: 'Settings', exact: true }).click()
    const settings = dialog(page, 'Settings')
    const found: string[] = []
    for (const tab of ['Notifications', 'Account', 'Security', 'Storage', 'Service']) {
      await settings.getByRole('tab', { name: tab }).click()
      // Loaded: the tab's first button or choice is drawn.
      await settings.getByRole('tabpanel').locator('button, select').first().waitFor()
      found.push(...(await shortfalls(page, { name: `Settings ▸ ${tab}`, root: 'dialog[open]' })))
    }
    await settings.getByRole('button', { name: 'Close' }).click()
    expect(found).toEqual([])
  }, 180_000)
})

/**
 * Where content spills out sideways inside `root` (a CSS selector): a box narrower than what it
 * holds and showing the rest, or anything reaching past the root's right edge. Boxes that clip on
 * purpose (an ellipsis) are fine.
 */
const SPILLS_IN_PAGE = `(root) => {
  const problems = []
  const scope = document.querySelector(root)
  if (scope === null) return ['nothing matches ' + root]
  const edge = scope.getBoundingClientRect().right
  const name = (element) => element.tagName.toLowerCase() + '.' + String(element.className).trim().split(/\\s+/).join('.') + ' "' + (element.textContent || '').trim().slice(0, 30) + '"'
  for (const element of [scope, ...scope.querySelectorAll('*')]) {
    const style = getComputedStyle(element)
    if (style.display === 'none' || style.display === 'contents' || element.closest('.visually-hidden') !== null) continue
    if (style.display !== 'inline' && style.overflowX === 'visible' && element.scrollWidth > element.clientWidth + 1) problems.push(name(element) + ' spills: ' + element.scrollWidth + ' > ' + element.clientWidth)
    const box = element.getBoundingClientRect()
    if (box.width > 0 && box.right > edge + 1) problems.push(name(element) + ' reaches past ' + root + ': ' + Math.round(box.right) + ' > ' + Math.round(edge))
  }
  return problems
}`

async function spills(page: Page, root: string): Promise<string[]> {
  return page.evaluate<string[]>(`(${SPILLS_IN_PAGE})(${JSON.stringify(root)})`)
}

interface Box {
  x: number
  y: number
  width: number
  height: number
}

/** The part of an element a person sees: its box cut by every scrolling or clipping box around it. */
async function visibleBox(locator: Locator): Promise<Box> {
  return locator.evaluate((element) => {
    const view = element.ownerDocument.defaultView
    let { left, top, right, bottom } = element.getBoundingClientRect()
    for (let at = element.parentElement; at !== null; at = at.parentElement) {
      if (view?.getComputedStyle(at).overflow === 'visible') continue
      const clip = at.getBoundingClientRect()
      left = Math.max(left, clip.left)
      top = Math.max(top, clip.top)
      right = Math.min(right, clip.right)
      bottom = Math.min(bottom, clip.bottom)
    }
    return { x: left, y: top, width: Math.max(0, right - left), height: Math.max(0, bottom - top) }
  })
}

describe('long words and side panels keep to their room', () => {
  const QUESTION = 'Q'.repeat(160)

  it('wraps a 160-character question without a space, in the history and in Polls', async () => {
    const page = await ada()
    await conversation(page, FIRST_GROUP).click()
    await page.getByRole('button', { name: 'Create poll' }).click()
    const newPoll = dialog(page, 'New poll')
    await newPoll.getByRole('textbox', { name: 'Question' }).fill(QUESTION)
    await newPoll.getByRole('textbox', { name: 'Option 1' }).fill('Yes')
    await newPoll.getByRole('textbox', { name: 'Option 2' }).fill('No')
    await newPoll.getByRole('button', { name: 'Create' }).click()
    await page.getByRole('list', { name: 'Messages' }).getByRole('region', { name: QUESTION }).waitFor()

    await page.getByRole('button', { name: 'Polls', exact: true }).click()
    await page.getByRole('region', { name: 'Polls' }).getByText(QUESTION).waitFor()
    expect(await spills(page, 'main')).toEqual([])
    expect(await spills(page, 'nav')).toEqual([])
  })

  it('gives the history most of the pane with Polls and Most liked both asked for, at any window size', async () => {
    const page = await ada()
    const history = page.getByRole('region', { name: 'Message history' })
    const problems: string[] = []
    for (const size of [{ width: 1280, height: 757 }, { width: 800, height: 600 }, { width: 640, height: 480 }]) {
      await page.setViewportSize(size)
      await settled(page)
      for (const name of ['Polls', 'Pinned messages', 'Most liked'] as const) {
        if ((await page.getByRole('region', { name, exact: true }).count()) > 0) await chooseAction(page, name)
      }
      const alone = (await visibleBox(history)).height
      await chooseAction(page, 'Polls')
      await chooseAction(page, 'Most liked')
      await page.getByRole('region', { name: 'Most liked' }).waitFor()
      const shared = (await visibleBox(history)).height
      if (shared < alone / 2) problems.push(`${size.width} × ${size.height}: the history is ${shared} px tall, ${alone} px with no panel`)
      // Whatever is open has room to be read (a quarter of the history's at least), beside or above the history, not over it.
      const historyBox = await visibleBox(history)
      for (const name of ['Polls', 'Most liked']) {
        const panel = page.getByRole('region', { name, exact: true })
        if ((await panel.count()) === 0) continue
        const box = await visibleBox(panel)
        if (box.height < alone / 4 || box.width < 200) problems.push(`${size.width} × ${size.height}: ${name} is ${box.width} × ${box.height} px`)
        const overlaps = box.x < historyBox.x + historyBox.width && historyBox.x < box.x + box.width && box.y < historyBox.y + historyBox.height && historyBox.y < box.y + box.height
        if (overlaps) problems.push(`${size.width} × ${size.height}: ${name} lies over the history`)
      }
      problems.push(...(await spills(page, 'main')).map((spill) => `${size.width} × ${size.height}: ${spill}`))
    }
    await page.setViewportSize({ width: 1280, height: 757 })
    expect(problems).toEqual([])
  })
})

/**
 * Where a bar (a header) does not keep to one row inside the window: its parts, and its buttons
 * within them, as far as they are drawn (a strip that scrolls sideways shows only part of its own).
 */
async function rowProblems(bar: Locator, width: number): Promise<string[]> {
  const parts = await bar.evaluate((element) => {
    const view = element.ownerDocument.defaultView
    return [...element.querySelectorAll('*')]
      .filter((part) => part.parentElement === element || part.matches('button'))
      .filter((part) => part.checkVisibility() && part.getBoundingClientRect().width > 1 && part.getBoundingClientRect().height > 1)
      .map((part) => {
        const { top, bottom } = part.getBoundingClientRect()
        let { left, right } = part.getBoundingClientRect()
        for (let at = part.parentElement; at !== null && at !== element; at = at.parentElement) {
          if (view?.getComputedStyle(at).overflowX === 'visible') continue
          const clip = at.getBoundingClientRect()
          left = Math.max(left, clip.left)
          right = Math.min(right, clip.right)
        }
        return { what: `${part.tagName} ${(part.textContent ?? '').trim().slice(0, 30)}`, top, bottom, left, right }
      })
  })
  const problems: string[] = []
  // One row: a line across the bar passes through every part.
  if (Math.max(...parts.map((part) => part.top)) >= Math.min(...parts.map((part) => part.bottom))) {
    problems.push(`${width} px: more than one row: ${parts.map((part) => `${part.what} at ${Math.round(part.top)}–${Math.round(part.bottom)}`).join(', ')}`)
  }
  for (const part of parts) if (part.left < -1 || part.right > width + 1) problems.push(`${width} px: ${part.what} reaches past the window`)
  return problems
}

describe('the app header stays one row at every width, and so does the conversation header', () => {
  const WIDTHS = [1400, 1280, 1024, 800, 640, 480, 427, 320]

  it('with Do not disturb and notifications muted until tomorrow, every part on one line and every action in the window', async () => {
    const page = await ada()
    await page.getByRole('button', { name: 'Status', exact: true }).click()
    await page.getByRole('menuitemradio', { name: 'Do not disturb' }).click()
    await page.getByRole('button', { name: 'Status', exact: true }).click()
    await page.getByRole('menuitem', { name: 'Mute notifications until tomorrow' }).click()
    const header = page.getByRole('banner')
    await header.getByText(/Notifications muted until/).waitFor()

    const problems: string[] = []
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 })
      problems.push(...(await rowProblems(header, width)))
      for (const name of ['Status', 'Turn on desktop notifications', 'Settings', 'Sign out']) {
        if (!(await header.getByRole('button', { name, exact: true }).isVisible())) problems.push(`${width} px: no ${name} in sight`)
      }
      // Shortened, the words are still there for a screen reader.
      if ((await header.getByRole('status').textContent())?.trim() !== 'Connected') problems.push(`${width} px: the connection is not read as Connected`)
    }
    await page.setViewportSize({ width: 1280, height: 757 })
    await page.getByRole('button', { name: 'Status', exact: true }).click()
    await page.getByRole('menuitem', { name: 'Turn notifications back on' }).click()
    await page.getByRole('button', { name: 'Status', exact: true }).click()
    await page.getByRole('menuitemradio', { name: 'Active' }).click()
    expect(problems).toEqual([])
  })

  it('keeps a group’s header one row too, every action within reach', async () => {
    const page = await ada()
    await conversation(page, FIRST_GROUP).click()
    const header = groupHeader(page)
    const problems: string[] = []
    for (const width of WIDTHS) {
      await page.setViewportSize({ width, height: 800 })
      await settled(page)
      problems.push(...(await rowProblems(header, width)))
      const options = header.getByRole('button', { name: 'Conversation options', exact: true })
      const box = await visibleBox(options)
      if (box.width < 16 || box.x + box.width > width + 1) problems.push(`${width} px: Conversation options cannot be reached`)
      const where = await whereActionsAre(page, header)
      for (const name of HEADER_ACTIONS) if (where[name].length === 0) problems.push(`${width} px: ${name} is neither a button in sight nor a whole item of Conversation options`)
    }
    await page.setViewportSize({ width: 1280, height: 757 })
    expect(problems).toEqual([])
  })
})

/** The conversation header's actions, by the names of their buttons and of their menu items. */
const HEADER_ACTIONS = ['Pictures', 'Pinned messages', 'Most liked', 'Create poll', 'Polls', 'Group settings', 'Members'] as const
type HeaderAction = (typeof HEADER_ACTIONS)[number]

function groupHeader(page: Page): Locator {
  return page.getByRole('region', { name: FIRST_GROUP }).locator('header').first()
}

/** After a resize, a frame drawn: the header measures its room as a frame is laid out. */
async function settled(page: Page): Promise<void> {
  await page.evaluate('new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))')
}

function optionsMenu(page: Page): Locator {
  return page.getByRole('menu', { name: 'Conversation options' })
}

/** An item of Conversation options: an action, or a panel shown or not. */
function menuItem(page: Page, name: string): Locator {
  const menu = optionsMenu(page)
  return menu.getByRole('menuitem', { name, exact: true }).or(menu.getByRole('menuitemcheckbox', { name, exact: true }))
}

/**
 * Where each of the header's actions is offered: as a button a person sees inside the window, as
 * an item of Conversation options not cut off at either side, or both (Pictures is always in the
 * menu). A menu taller than the pane is fine: the pane scrolls.
 */
async function whereActionsAre(page: Page, header: Locator): Promise<Record<HeaderAction, ('button' | 'menu')[]>> {
  const width = page.viewportSize()?.width ?? 0
  const where = Object.fromEntries(HEADER_ACTIONS.map((name) => [name, [] as ('button' | 'menu')[]])) as Record<HeaderAction, ('button' | 'menu')[]>
  for (const name of HEADER_ACTIONS) {
    const button = header.getByRole('button', { name, exact: true })
    if ((await button.count()) === 0) continue
    const box = await visibleBox(button)
    if (box.width >= 16 && box.x >= 0 && box.x + box.width <= width + 1) where[name].push('button')
  }
  await header.getByRole('button', { name: 'Conversation options', exact: true }).click()
  await optionsMenu(page).waitFor()
  for (const name of HEADER_ACTIONS) {
    const item = menuItem(page, name)
    if ((await item.count()) === 0) continue
    const [whole, seen] = [await item.boundingBox(), await visibleBox(item)]
    if (whole !== null && seen.width >= whole.width - 1) where[name].push('menu')
  }
  await page.keyboard.press('Escape')
  await optionsMenu(page).waitFor({ state: 'detached' })
  return where
}

/** Chooses one of the header's actions: its button where the header has room for it, else its item in Conversation options. */
async function chooseAction(page: Page, name: HeaderAction): Promise<void> {
  const header = groupHeader(page)
  const button = header.getByRole('button', { name, exact: true })
  if ((await button.count()) > 0) return button.click()
  await header.getByRole('button', { name: 'Conversation options', exact: true }).click()
  await menuItem(page, name).click()
}

/** Pairs of the header's parts that lie over each other. */
async function overlaps(header: Locator): Promise<string[]> {
  return header.evaluate((element) => {
    const parts = [...element.children, ...element.querySelectorAll(':scope > .actions > button')]
      .filter((part) => part.checkVisibility() && !part.matches('.actions'))
      .map((part) => ({ what: `${part.tagName} ${(part.textContent ?? '').trim().slice(0, 20)}`, box: part.getBoundingClientRect() }))
    const found: string[] = []
    for (const [index, one] of parts.entries()) {
      for (const other of parts.slice(index + 1)) {
        const across = Math.min(one.box.right, other.box.right) - Math.max(one.box.left, other.box.left)
        const down = Math.min(one.box.bottom, other.box.bottom) - Math.max(one.box.top, other.box.top)
        if (across > 0.5 && down > 0.5) found.push(`${one.what} and ${other.what}`)
      }
    }
    return found
  })
}

/** 1280 × 800, 800 × 600, and 1280 × 800 at 200 % zoom (the same window, laid out at half its size). */
const HEADER_WINDOWS = [
  { width: 1280, height: 800, what: '1280 × 800' },
  { width: 800, height: 600, what: '800 × 600' },
  { width: 640, height: 400, what: '1280 × 800 at 200 %' }
]

describe('what has no room in the conversation header goes to Conversation options', () => {
  it('keeps the header one row with nothing over anything, its strip unscrolled, and each action once: a button, or else an item of the menu', async () => {
    const page = await ada()
    await conversation(page, FIRST_GROUP).click()
    const header = groupHeader(page)
    const problems: string[] = []
    const moved: Record<string, string[]> = {}
    for (const { width, height, what } of HEADER_WINDOWS) {
      await page.setViewportSize({ width, height })
      await settled(page)
      problems.push(...(await rowProblems(header, width)).map((problem) => `${what}: ${problem}`))
      problems.push(...(await overlaps(header)).map((pair) => `${what}: ${pair} overlap`))
      const strip = await header.locator('.actions').evaluate((element) => ({ scroll: element.scrollWidth, client: element.clientWidth }))
      if (strip.scroll > strip.client) problems.push(`${what}: the strip scrolls, ${strip.scroll} > ${strip.client}`)
      if ((await frameSize(page)).documentWidth > width) problems.push(`${what}: the window scrolls sideways`)
      const where = await whereActionsAre(page, header)
      moved[what] = HEADER_ACTIONS.filter((name) => !where[name].includes('button'))
      for (const name of HEADER_ACTIONS) {
        const expected = name === 'Pictures' ? [['button', 'menu'], ['menu']] : [['button'], ['menu']]
        if (!expected.some((places) => places.join() === where[name].join())) problems.push(`${what}: ${name} is offered as ${where[name].join(' and ') || 'nothing'}`)
      }
    }
    await page.setViewportSize({ width: 1280, height: 757 })
    expect(problems).toEqual([])
    // Everything has room at 1280 × 800. Where some has not, the least used go first: what moved is
    // the tail of this order, and Members and Polls stay at 200 % still.
    const KEPT_LONGEST = ['Members', 'Polls', 'Pictures', 'Pinned messages', 'Most liked', 'Create poll', 'Group settings']
    expect(moved['1280 × 800']).toEqual([])
    for (const [what, names] of Object.entries(moved)) {
      expect([...names].sort(), what).toEqual(KEPT_LONGEST.slice(KEPT_LONGEST.length - names.length).sort())
    }
    expect(moved['1280 × 800 at 200 %']).not.toContain('Members')
    expect(moved['1280 × 800 at 200 %']).not.toContain('Polls')
  })

  it('does from the menu what the buttons do: toggles a panel, opens a dialog, and gives focus back to Conversation options on closing', async () => {
    const page = await ada()
    await conversation(page, FIRST_GROUP).click()
    const header = groupHeader(page)
    const options = header.getByRole('button', { name: 'Conversation options', exact: true })
    const hasFocus = (locator: Locator): Promise<boolean> => locator.evaluate((element) => element.matches(':focus'))
    // At the narrowest, 640 × 480 at 200 %, every action but Pictures is in the menu alone.
    await page.setViewportSize({ width: 320, height: 240 })
    await settled(page)
    expect(await header.locator('.actions > button').count()).toBe(0)

    // A panel: on, shown as checked in the menu, and off again.
    for (const [name, region] of [
      ['Pinned messages', 'Pinned messages'],
      ['Most liked', 'Most liked'],
      ['Polls', 'Polls']
    ] as const) {
      await chooseAction(page, name)
      await page.getByRole('region', { name: region, exact: true }).waitFor()
      expect(await hasFocus(options)).toBe(true)
      await options.click()
      expect(await menuItem(page, name).getAttribute('aria-checked')).toBe('true')
      await menuItem(page, name).click()
      await page.getByRole('region', { name: region, exact: true }).waitFor({ state: 'detached' })
    }
    // Closed from inside, a panel the menu opened gives focus back to the menu's button.
    await chooseAction(page, 'Polls')
    await page.getByRole('region', { name: 'Polls', exact: true }).getByRole('button', { name: 'Close' }).click()
    await page.getByRole('region', { name: 'Polls', exact: true }).waitFor({ state: 'detached' })
    expect(await hasFocus(options)).toBe(true)

    // A dialog: open, closed by Escape or its own button, and focus back on Conversation options.
    for (const [name, title] of [
      ['Create poll', 'New poll'],
      ['Group settings', 'Group settings'],
      ['Members', 'Members'],
      ['Pictures', 'Pictures']
    ] as const) {
      await chooseAction(page, name)
      const opened = dialog(page, title)
      await expect.poll(() => opened.isVisible()).toBe(true)
      await page.keyboard.press('Escape')
      await expect.poll(() => opened.isVisible()).toBe(false)
      expect(await hasFocus(options), `focus after ${title}`).toBe(true)
    }
    await chooseAction(page, 'Members')
    await dialog(page, 'Members').getByRole('button', { name: 'Close' }).click()
    await expect.poll(() => dialog(page, 'Members').isVisible()).toBe(false)
    expect(await hasFocus(options)).toBe(true)

    // A poll made from the menu's Create poll is made.
    await chooseAction(page, 'Create poll')
    const newPoll = dialog(page, 'New poll')
    await newPoll.getByRole('textbox', { name: 'Question' }).fill('Which summit?')
    await newPoll.getByRole('textbox', { name: 'Option 1' }).fill('North')
    await newPoll.getByRole('textbox', { name: 'Option 2' }).fill('South')
    await newPoll.getByRole('button', { name: 'Create' }).click()
    await expect.poll(() => newPoll.isVisible()).toBe(false)
    expect(await hasFocus(options)).toBe(true)
    await page.setViewportSize({ width: 1280, height: 757 })
    await page.getByRole('list', { name: 'Messages' }).getByRole('region', { name: 'Which summit?' }).waitFor()
    expect(world.pageErrors).toEqual([])
  })
})

describe('Contacts opens as a dialog of its own', () => {
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
