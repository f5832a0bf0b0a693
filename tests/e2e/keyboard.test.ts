// The app from the keyboard alone, against the real service: Ctrl+K's Go to (conversations and
// people found by any part of the name, fuzzy and accent-insensitive, recent first; a chat started
// with someone who has none), Alt+↓/↑ and Alt+Shift+↓/↑ through the list and its unread
// conversations, Ctrl+/'s Keyboard shortcuts, Escape's order (menu or dialog, then panel, then the
// search, then nothing), and Page Up/Down, Home and End in the history, text boxes left alone.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ServiceRest } from '../support/service-rest'
import { conversation, EndToEnd, FIRST_GROUP, send } from './support'

/** Ada's own group, named with accents a person seldom types. */
const ACCENTED = 'Randonnée d’été'
const NAMES = [FIRST_GROUP, 'Book Club', 'Launch Team', 'Grace Hopper', ACCENTED, 'Katherine Johnson', 'Alan Turing'] as const

let world: EndToEnd
let ada: Page

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

function goTo(): Locator {
  return ada.getByRole('dialog', { name: 'Go to', exact: true })
}

function combobox(): Locator {
  return goTo().getByRole('combobox', { name: 'Conversation or person', exact: true })
}

function options(): Locator {
  return goTo().getByRole('option')
}

/** The open conversation's name, as its header says it. */
function openName(): Promise<string | null> {
  return ada.getByRole('main').getByRole('heading', { level: 2 }).textContent()
}

function composer(): Locator {
  return ada.getByRole('textbox', { name: 'Message' })
}

function history(): Locator {
  return ada.getByRole('region', { name: 'Message history' })
}

function hasFocus(target: Locator): Promise<boolean> {
  return target.evaluate((element) => element === element.ownerDocument.activeElement)
}

/** The known name each text starts with (a list entry goes on with its preview, which may name someone too). */
function named(texts: string[]): string[] {
  return texts.map((text) => {
    const found = NAMES.map((name) => ({ name, at: text.indexOf(name) })).filter(({ at }) => at !== -1)
    return found.sort((a, b) => a.at - b.at)[0]?.name ?? text
  })
}

/** A conversation's entry in the list by the name it starts with, not by a preview that names someone. */
function entry(name: string): Locator {
  return ada.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: new RegExp(`^${name}`) })
}

/** The list's conversations, top to bottom. */
async function listOrder(): Promise<string[]> {
  return named(await ada.getByRole('list', { name: 'Conversations' }).getByRole('button').allTextContents())
}

async function optionOrder(): Promise<string[]> {
  return named(await options().allTextContents())
}

function scrollTop(): Promise<number> {
  return history().evaluate((element) => element.scrollTop)
}

/** Where a row is drawn, from the top of the history's box. */
function rowTop(row: Locator): Promise<number> {
  return row.evaluate((element) => element.getBoundingClientRect().top - (element.closest('[role="region"]')?.getBoundingClientRect().top ?? 0))
}

async function groupIds(token: string): Promise<Map<string, string>> {
  const groups = await world.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', token)
  return new Map(groups.response.map((group) => [group.name, group.id]))
}

describe('the keyboard', () => {
  it('signs Ada in with a group of her own whose name has accents', async () => {
    // Made as another client of Ada's would: the local service's own attestation value.
    const rest = new ServiceRest(world.origin, { appId: 'e2e-check', attestationSecret: 'local-dev-attestation' })
    const token = await world.restToken(world.account('Ada'), 'keys-setup-device')
    await rest.post('/v3/groups', { name: ACCENTED, description: 'Trails in the Alps' }, { token, attest: true })
    ;({ ada } = await world.adaAndGrace())
    await conversation(ada, ACCENTED).waitFor()
  })

  it('Ctrl+K opens Go to on its combobox, listing conversations as recent first as the list, then people', async () => {
    await entry(FIRST_GROUP).click()
    await composer().click()
    await ada.keyboard.press('Control+k')
    await goTo().waitFor()
    await expect.poll(() => hasFocus(combobox())).toBe(true)
    await expect.poll(() => options().count()).toBeGreaterThan(5)
    const conversations = await listOrder()
    expect((await optionOrder()).slice(0, conversations.length)).toEqual(conversations)
    // Alan and Katherine share groups with Ada, but no chat yet; Grace is offered as the chat Ada has.
    const people = (await options().allTextContents()).slice(conversations.length)
    expect(people.some((text) => text.includes('Alan Turing') && text.includes('Start a chat'))).toBe(true)
    expect(people.some((text) => text.includes('Grace Hopper'))).toBe(false)
    // The first option is chosen from the start, as the pattern wants.
    const first = options().first()
    expect(await combobox().getAttribute('aria-activedescendant')).toBe(await first.getAttribute('id'))
    expect(await first.getAttribute('aria-selected')).toBe('true')
  })

  it('finds by any part of a name, accents and case aside, and loosely by the letters in order', async () => {
    await combobox().fill('ETE')
    await expect.poll(optionOrder).toEqual([ACCENTED])
    await combobox().fill('tùring')
    await expect.poll(() => options().allTextContents()).toEqual([expect.stringContaining('Alan Turing')])
    await combobox().fill('wkndhk')
    await expect.poll(optionOrder).toEqual([FIRST_GROUP])
    // By the words first, then by the letters: "lau" is in Launch Team's name, and only strung through Alan Turing's.
    await combobox().fill('lau')
    await expect.poll(optionOrder).toEqual(['Launch Team', 'Alan Turing'])
    await combobox().fill('zzzz')
    await expect.poll(() => options().count()).toBe(0)
    await goTo().getByText('Nothing matches “zzzz”.').waitFor()
  })

  it('Escape closes it, and focus goes back to what had it', async () => {
    await ada.keyboard.press('Escape')
    await goTo().waitFor({ state: 'hidden' })
    expect(await hasFocus(composer())).toBe(true)
    expect(await openName()).toBe(FIRST_GROUP)
  })

  it('↓ and ↑ choose, and Enter opens the chosen conversation with focus in its Message box', async () => {
    await ada.keyboard.press('Control+k')
    await combobox().fill('o')
    await expect.poll(() => options().count()).toBeGreaterThan(2)
    const texts = await optionOrder()
    await ada.keyboard.press('ArrowDown')
    await ada.keyboard.press('ArrowDown')
    await ada.keyboard.press('ArrowUp')
    const chosen = options().nth(1)
    expect(await chosen.getAttribute('aria-selected')).toBe('true')
    expect(await combobox().getAttribute('aria-activedescendant')).toBe(await chosen.getAttribute('id'))
    await ada.keyboard.press('Enter')
    await goTo().waitFor({ state: 'hidden' })
    await expect.poll(openName).toBe(texts[1])
    await expect.poll(() => hasFocus(composer())).toBe(true)
  })

  it('Enter on a person with no chat starts one, as New message does', async () => {
    await ada.keyboard.press('Control+k')
    await combobox().fill('kath')
    await expect.poll(() => options().allTextContents()).toEqual([expect.stringMatching(/Katherine Johnson.*Start a chat/)])
    await ada.keyboard.press('Enter')
    await expect.poll(openName).toBe('Katherine Johnson')
    await expect.poll(() => hasFocus(composer())).toBe(true)
    await send(ada, 'Hello from the keyboard')
    await entry('Katherine Johnson').waitFor()
    // Now a chat of hers, she is offered as that chat, not as someone to start one with.
    await ada.keyboard.press('Control+k')
    await combobox().fill('kath')
    await expect.poll(() => options().allTextContents()).toEqual([expect.stringMatching(/Katherine Johnson.*Direct message/)])
    await ada.keyboard.press('Escape')
  })

  it('Alt+↓ and Alt+↑ open the next and the previous conversation of the list', async () => {
    const order = await listOrder()
    await entry(order[1] ?? '').click()
    await ada.keyboard.press('Alt+ArrowDown')
    await expect.poll(openName).toBe(order[2])
    await expect.poll(() => hasFocus(composer())).toBe(true)
    await ada.keyboard.press('Alt+ArrowUp')
    await expect.poll(openName).toBe(order[1])
    await ada.keyboard.press('Alt+ArrowUp')
    await expect.poll(openName).toBe(order[0])
    // At the top there is nothing before: it stays.
    await ada.keyboard.press('Alt+ArrowUp')
    await ada.waitForTimeout(300)
    expect(await openName()).toBe(order[0])
    // From the list itself too, where ↓ alone moves between conversations.
    await entry(order[0] ?? '').focus()
    await ada.keyboard.press('Alt+ArrowDown')
    await expect.poll(openName).toBe(order[1])
  })

  it('Alt+Shift+↓ and Alt+Shift+↑ open the next and the previous conversation with unread messages', async () => {
    const token = await world.restToken(world.account('Grace'), 'keys-grace-device')
    const ids = await groupIds(token)
    // A second apart: the list orders by the second of the last message, and a tie by name.
    await world.sendGroupMessage(token, ids.get('Book Club') ?? '', 'Chapter five, anyone?', 'keys-unread-1')
    await ada.waitForTimeout(1100)
    await world.sendGroupMessage(token, ids.get('Launch Team') ?? '', 'Build 43 is out', 'keys-unread-2')
    await ada.waitForTimeout(1100)
    await expect.poll(() => entry('Launch Team').textContent()).toMatch(/unread/)
    await expect.poll(() => entry('Book Club').textContent()).toMatch(/unread/)
    // Ada writes in her own group: it goes to the top, above the two unread.
    await entry(ACCENTED).click()
    await send(ada, 'Who packs the map?')
    await expect.poll(async () => (await listOrder()).slice(0, 3)).toEqual([ACCENTED, 'Launch Team', 'Book Club'])
    const readBelow = (await listOrder())[3]

    await ada.keyboard.press('Alt+Shift+ArrowDown')
    await expect.poll(openName).toBe('Launch Team')
    await ada.keyboard.press('Alt+Shift+ArrowDown')
    await expect.poll(openName).toBe('Book Club')
    // Nothing unread before it now: it stays, and plain Alt+↓ still goes on to a read one.
    await ada.keyboard.press('Alt+Shift+ArrowUp')
    await ada.waitForTimeout(300)
    expect(await openName()).toBe('Book Club')
    await ada.keyboard.press('Alt+ArrowDown')
    await expect.poll(openName).toBe(readBelow)

    await world.sendGroupMessage(token, ids.get(FIRST_GROUP) ?? '', 'Boots on, leaving now', 'keys-unread-3')
    await expect.poll(() => entry(FIRST_GROUP).textContent()).toMatch(/unread/)
    await ada.keyboard.press('Alt+Shift+ArrowUp')
    await expect.poll(openName).toBe(FIRST_GROUP)
  })

  it('Ctrl+/ lists every shortcut, with Ctrl named as this platform names it; Escape closes it and focus goes back', async () => {
    await composer().click()
    await ada.keyboard.press('Control+/')
    const sheet = ada.getByRole('dialog', { name: 'Keyboard shortcuts', exact: true })
    await sheet.waitFor()
    const text = (await sheet.textContent()) ?? ''
    for (const words of [
      'Go to a conversation or person',
      'Search all messages',
      'Search this conversation',
      'Edit your last message',
      'Scroll a page up or down',
      'Send the message',
      'Start a new line',
      'Open the next conversation with unread messages',
      'Show these keyboard shortcuts'
    ]) {
      expect(text).toContain(words)
    }
    const keysOf = async (does: string): Promise<string[]> =>
      (await sheet.getByRole('term').filter({ hasText: does }).locator('xpath=following-sibling::dd').first().locator('kbd').allTextContents()).map((key) => key.trim())
    expect(await keysOf('Go to a conversation or person')).toEqual(['Ctrl', 'K'])
    expect(await keysOf('Search all messages')).toEqual(['Ctrl', 'Shift', 'F'])
    expect(await keysOf('Show these keyboard shortcuts')).toEqual(['Ctrl', '/'])
    expect(await keysOf('Open the next conversation with unread messages')).toEqual(['Alt', 'Shift', '↓Down arrow'])
    expect(text).not.toContain('Cmd')
    await ada.keyboard.press('Escape')
    await sheet.waitFor({ state: 'hidden' })
    expect(await hasFocus(composer())).toBe(true)
  })

  it('Escape closes the menu, then the dialog or panel, then clears the search, then does nothing', async () => {
    const search = ada.getByRole('textbox', { name: 'Search conversations' })
    await search.fill('e')
    const pinned = ada.getByRole('button', { name: 'Pinned messages', exact: true })
    await pinned.click()
    await ada.getByRole('region', { name: 'Pinned messages' }).waitFor()

    // A menu over the panel: Escape closes the menu only.
    await ada.getByRole('button', { name: 'Conversation options', exact: true }).click()
    await ada.getByRole('menu').waitFor()
    await ada.keyboard.press('Escape')
    await ada.getByRole('menu').waitFor({ state: 'detached' })
    expect(await pinned.getAttribute('aria-expanded')).toBe('true')

    // A dialog over the panel: Escape closes the dialog only.
    await ada.keyboard.press('Control+/')
    await ada.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor()
    await ada.keyboard.press('Escape')
    await ada.getByRole('dialog', { name: 'Keyboard shortcuts' }).waitFor({ state: 'hidden' })
    expect(await pinned.getAttribute('aria-expanded')).toBe('true')

    // Then the panel, wherever the focus is.
    await history().focus()
    await ada.keyboard.press('Escape')
    await expect.poll(() => pinned.getAttribute('aria-expanded')).toBe('false')
    expect(await search.inputValue()).toBe('e')

    // From inside a panel, focus goes back to the button that opened it.
    const polls = ada.getByRole('button', { name: 'Polls', exact: true })
    await polls.click()
    const pollsPanel = ada.getByRole('region', { name: 'Polls' })
    await pollsPanel.getByRole('button', { name: 'Close' }).focus()
    await ada.keyboard.press('Escape')
    await expect.poll(() => polls.getAttribute('aria-expanded')).toBe('false')
    expect(await hasFocus(polls)).toBe(true)
    expect(await search.inputValue()).toBe('e')

    // Then the search.
    await ada.keyboard.press('Escape')
    await expect.poll(() => search.inputValue()).toBe('')
    await ada.keyboard.press('Escape')
    expect(await search.inputValue()).toBe('')
    expect(await openName()).toBe(FIRST_GROUP)
  })

  it('Page Up, Page Down, Home and End scroll the history from it or from a row in it, and leave the Message box alone', async () => {
    await entry(FIRST_GROUP).click()
    const rows = ada.getByRole('list', { name: 'Messages' }).getByRole('listitem')
    await expect.poll(() => rows.count()).toBeGreaterThan(20)
    const height = await history().evaluate((element) => element.clientHeight)
    const newest = rows.last()

    // From a message row in it: a page up, most of the view's height.
    await newest.focus()
    const before = await rowTop(newest)
    await ada.keyboard.press('PageUp')
    await expect.poll(async () => (await rowTop(newest)) - before).toBeGreaterThan(height * 0.8)
    expect((await rowTop(newest)) - before).toBeLessThan(height)

    // From the history itself: a page down, back to the newest.
    const up = await rowTop(newest)
    await history().focus()
    await ada.keyboard.press('PageDown')
    await expect.poll(async () => up - (await rowTop(newest))).toBeGreaterThan(height * 0.8)
    await expect.poll(() => history().evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeLessThan(2)

    // Home: the oldest rows drawn, and on to the beginning as older ones come in above.
    await history().focus()
    const beginning = ada.getByText('This is the beginning of the conversation.')
    for (let press = 0; press < 30 && !(await beginning.isVisible()); press += 1) {
      await ada.keyboard.press('Home')
      await ada.waitForTimeout(200)
    }
    await expect.poll(() => beginning.isVisible()).toBe(true)
    await ada.keyboard.press('Home')
    await expect.poll(scrollTop).toBeLessThan(5)

    // End: back to the newest, drawn again.
    await ada.keyboard.press('End')
    await expect.poll(() => ada.getByRole('button', { name: /^Jump to latest/ }).count()).toBe(0)
    await expect.poll(() => history().evaluate((element) => element.scrollHeight - element.scrollTop - element.clientHeight)).toBeLessThan(2)

    // In the Message box, Home and End move the caret, and the history stays where it is: its rows
    // where they were on screen (the scroll offset itself moves as rows are drawn in above them).
    await history().evaluate((element) => {
      element.scrollTop -= 300
    })
    const kept = await rowTop(newest)
    await composer().fill('hello world')
    await composer().press('Home')
    await composer().press('X')
    await composer().press('End')
    await composer().press('Y')
    expect(await composer().inputValue()).toBe('Xhello worldY')
    expect(Math.abs((await rowTop(newest)) - kept)).toBeLessThan(1)
    await composer().fill('')
  })

  it('on macOS, Cmd is the command key, and the sheet names Cmd and Option', async () => {
    const mac = (await world.openApp('ada-mac', { initScript: `Object.defineProperty(Navigator.prototype, 'platform', { get: () => 'MacIntel' })` })).page
    await world.signIn(mac, world.account('Ada'))
    // Ctrl+K on a Mac belongs to the text field (delete to the end of the line), not to Go to.
    const macGoTo = mac.getByRole('dialog', { name: 'Go to', exact: true })
    await mac.keyboard.press('Control+k')
    await mac.waitForTimeout(300)
    expect(await macGoTo.count()).toBe(0)
    await mac.keyboard.press('Meta+k')
    await macGoTo.getByRole('combobox', { name: 'Conversation or person' }).fill('hikers')
    await macGoTo.getByRole('option', { name: new RegExp(FIRST_GROUP) }).waitFor()
    await mac.keyboard.press('Enter')
    await expect.poll(() => mac.getByRole('main').getByRole('heading', { level: 2 }).textContent()).toBe(FIRST_GROUP)
    await mac.keyboard.press('Meta+/')
    const sheet = mac.getByRole('dialog', { name: 'Keyboard shortcuts', exact: true })
    await sheet.waitFor()
    const keys = (await sheet.locator('kbd').allTextContents()).map((key) => key.trim())
    // Cmd is drawn, and read out as Command.
    expect(keys).toContain('CmdCommand')
    expect(keys).toContain('Option')
    expect(keys).not.toContain('Ctrl')
    await mac.keyboard.press('Escape')
    await sheet.waitFor({ state: 'hidden' })
    expect(world.pageErrors).toEqual([])
  })
})
