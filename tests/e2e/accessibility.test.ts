// Accessibility, measured: axe-core (through @axe-core/playwright) audits every screen, dialog,
// menu and panel of the app in Chromium, in the light theme and the dark one, against WCAG 2.2 A
// and AA. A finding of impact `serious` or `critical` fails the test; every other finding is
// printed, with where it was met, so it can be planned.
import AxeBuilder from '@axe-core/playwright'
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, FIRST_GROUP } from './support'

const WCAG_22_AA = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22a', 'wcag22aa']
const THEMES = ['light', 'dark'] as const
const CHAT = 'Grace Hopper'

let world: EndToEnd
let ada: Page

/** Findings below serious, by where they were met: printed at the end, never failing. */
const minor: string[] = []

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  if (minor.length > 0) console.log(`axe: findings below serious, to plan:\n${minor.join('\n')}`)
  await world?.close()
})

/** One line per element a rule found, for a test's message. */
function described(violation: { id: string; impact?: string | null; help: string; nodes: { target: unknown[] }[] }): string[] {
  return violation.nodes.map((node) => `${violation.impact ?? 'unknown'} ${violation.id} (${violation.help}) at ${node.target.join(' ')}`)
}

/**
 * Audits what the page shows now, in each theme (the app follows the system's when its Theme is
 * System, as it is by default). `within` narrows it to a dialog or panel.
 */
async function audit(where: string, within?: string): Promise<void> {
  for (const theme of THEMES) {
    await ada.emulateMedia({ colorScheme: theme })
    // Animations end before the look: axe reads colours as drawn.
    await ada.waitForTimeout(250)
    let builder = new AxeBuilder({ page: ada }).withTags(WCAG_22_AA)
    if (within !== undefined) builder = builder.include(within)
    const { violations, passes } = await builder.analyze()
    // A run that checked nothing (the script kept out of the page, say) would pass in silence.
    expect(passes.length, `${where}: axe ran no rule`).toBeGreaterThan(10)
    // Every screen has text: its contrast was judged, not passed over. Inside a modal dialog axe
    // cannot (it does not see the top layer, and calls every text there overlapped): there the
    // contrast of every control in every state is measured by tests/e2e/layout.test.ts instead.
    if ((await ada.locator('dialog[open]').count()) === 0) {
      expect(passes.map((rule) => rule.id), `${where}: no contrast was judged`).toContain('color-contrast')
    }
    const blocking = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    for (const violation of violations.filter((candidate) => !blocking.includes(candidate))) {
      minor.push(...described(violation).map((line) => `  ${where} (${theme}): ${line}`))
    }
    expect(blocking.flatMap(described), `${where}, ${theme} theme`).toEqual([])
  }
  await ada.emulateMedia({ colorScheme: 'light' })
}

function dialog(name: string): Locator {
  return ada.getByRole('dialog', { name, exact: true })
}

async function openDialog(button: string, name = button): Promise<Locator> {
  await ada.getByRole('button', { name: button, exact: true }).click()
  const opened = dialog(name)
  await opened.waitFor()
  return opened
}

/** Closes a dialog as the keyboard does. */
async function close(opened: Locator): Promise<void> {
  await ada.keyboard.press('Escape')
  await opened.waitFor({ state: 'hidden' })
}

/** The text colour as drawn, which differs between the themes. */
function textColour(): Promise<string> {
  return ada.evaluate('getComputedStyle(document.body).color')
}

describe('accessibility, measured with axe-core against WCAG 2.2 AA', () => {
  it('the sign-in screen', async () => {
    // An app of its own for the screens before signing in, left at the verification.
    ada = (await world.openApp('ada-signing-in')).page
    await ada.getByRole('textbox', { name: 'Username' }).waitFor()
    // The two themes are two looks: the dark one is no copy of the light.
    await ada.emulateMedia({ colorScheme: 'dark' })
    const dark = await textColour()
    await ada.emulateMedia({ colorScheme: 'light' })
    expect(await textColour()).not.toBe(dark)
    await audit('sign-in')
  })

  it('catches what it is there to catch: a field without a name and faint text, put in the page for the look', async () => {
    // On top of the app, where it is seen: axe judges only what a person could see.
    const probe =
      '<div id="axe-probe" style="position:fixed;inset:0 auto auto 0;z-index:2147483647;background:#ffffff;padding:1rem">' +
      '<input type="text"><p style="color:#c8c8c8;background:#ffffff">faint words</p></div>'
    await ada.evaluate(`document.body.insertAdjacentHTML('beforeend', ${JSON.stringify(probe)})`)
    const { violations } = await new AxeBuilder({ page: ada }).withTags(WCAG_22_AA).include('#axe-probe').analyze()
    expect(violations.map((violation) => violation.id).sort()).toEqual(['color-contrast', 'label'])
    await ada.evaluate(`document.getElementById('axe-probe').remove()`)
  })

  it('the verification screen, by text message and by texting the service', async () => {
    const who = world.account('Ada')
    await ada.getByRole('textbox', { name: 'Username' }).fill(who.email)
    await ada.getByRole('textbox', { name: 'Password' }).fill(who.password)
    await ada.getByRole('button', { name: 'Sign in' }).click()
    await ada.getByRole('button', { name: 'Send code' }).waitFor()
    await audit('verification, choosing a route')
    await ada.getByRole('button', { name: 'Text us instead' }).click()
    await ada.getByRole('button', { name: 'Copy' }).waitFor()
    await audit('verification, texting the service')
  })

  it('the main layout with a group open, then a chat', async () => {
    ada = (await world.openApp('ada')).page
    await world.signIn(ada, world.account('Ada'))
    await conversation(ada, FIRST_GROUP).click()
    await ada.getByRole('heading', { name: FIRST_GROUP, level: 2 }).waitFor()
    await ada.getByRole('list', { name: 'Messages' }).getByRole('listitem').first().waitFor()
    await audit('main layout, a group open')
    await conversation(ada, CHAT).click()
    await ada.getByRole('heading', { name: CHAT, level: 2 }).waitFor()
    await audit('main layout, a chat open')
  })

  it('the menus: Status and Conversation options', async () => {
    await ada.getByRole('button', { name: 'Status', exact: true }).click()
    await ada.getByRole('menu').waitFor()
    await audit('the Status menu')
    await ada.keyboard.press('Escape')
    await conversation(ada, FIRST_GROUP).click()
    await ada.getByRole('button', { name: 'Conversation options', exact: true }).click()
    await ada.getByRole('menu').waitFor()
    await audit('the Conversation options menu')
    await ada.keyboard.press('Escape')

    // Where the header has no room for some of its actions (1280 × 800 at 200 %), the menu holds
    // them too: a panel among them, shown as checked while it is open.
    const size = ada.viewportSize()
    await ada.setViewportSize({ width: 640, height: 400 })
    const options = ada.getByRole('button', { name: 'Conversation options', exact: true })
    await options.click()
    await ada.getByRole('menu').getByRole('menuitemcheckbox', { name: 'Most liked' }).click()
    await ada.getByRole('region', { name: 'Most liked' }).waitFor()
    await options.click()
    await ada.getByRole('menu').getByRole('menuitemcheckbox', { name: 'Most liked', checked: true }).waitFor()
    await audit('the Conversation options menu with the header’s actions in it', '[role="menu"]')
    // The panel itself, empty in a narrow window: its scroller takes focus, since nothing in it can.
    await ada.keyboard.press('Escape')
    await ada.getByRole('region', { name: 'Most liked' }).getByText('No reactions in the last day.').waitFor()
    await audit('an empty Most liked panel in a narrow window')
    await options.click()
    await ada.getByRole('menu').getByRole('menuitemcheckbox', { name: 'Most liked' }).click()
    if (size !== null) await ada.setViewportSize(size)
  })

  it('every tab of Settings', async () => {
    const settings = await openDialog('Settings')
    for (const tab of ['Notifications', 'Account', 'Security', 'Storage', 'Service']) {
      await settings.getByRole('tab', { name: tab }).click()
      await settings.getByRole('tabpanel').filter({ visible: true }).waitFor()
      await audit(`Settings ▸ ${tab}`)
    }
    await close(settings)
  })

  it("a group's settings, its members, and adding members", async () => {
    await conversation(ada, FIRST_GROUP).click()
    const settings = await openDialog('Group settings')
    await audit('Group settings')
    await close(settings)
    const members = await openDialog('Members')
    await audit('Members')
    await members.getByRole('button', { name: 'Add members', exact: true }).click()
    const add = dialog('Add members')
    await add.waitFor()
    await audit('Add members')
    await close(add)
    await close(members)
  })

  it('the side panels: pinned, most liked and polls, and a new poll', async () => {
    for (const panel of ['Pinned messages', 'Most liked', 'Polls']) {
      const toggle = ada.getByRole('button', { name: panel, exact: true })
      await toggle.click()
      await expect.poll(() => toggle.getAttribute('aria-expanded')).toBe('true')
      await audit(`the ${panel} panel`)
      await toggle.click()
    }
    const poll = await openDialog('Create poll', 'New poll')
    await audit('New poll')
    await close(poll)
  })

  it("the composer's Emoji picker, with a search", async () => {
    const picker = await openDialog('Emoji')
    await picker.getByRole('option', { name: 'grinning face', exact: true }).waitFor()
    // Searched, for the time axe takes over some 1,900 emoji: the groups and options are the same.
    await picker.getByRole('combobox', { name: 'Search emoji' }).fill('heart')
    await picker.getByRole('option', { name: 'red heart', exact: true }).waitFor()
    await audit('Emoji, searched')
    await close(picker)
  })

  it('the Share location dialog, empty and refusing coordinates off the Earth', async () => {
    const share = await openDialog('Share location')
    await audit('Share location')
    await share.getByRole('textbox', { name: 'Latitude' }).fill('95')
    await share.getByRole('button', { name: 'Share', exact: true }).click()
    await share.getByText('Enter the longitude.').waitFor()
    await audit('Share location, refusing')
    await close(share)
  })

  it('new group, join with a link, new message, contacts and a profile', async () => {
    for (const [button, name] of [
      ['New group', 'New group'],
      ['Join with a link', 'Join with a link'],
      ['New message', 'New message']
    ] as const) {
      const opened = await openDialog(button, name)
      await audit(name)
      await close(opened)
    }
    const contacts = await openDialog('Contacts')
    await audit('Contacts')
    await close(contacts)
    await conversation(ada, CHAT).click()
    await ada.getByRole('heading', { name: CHAT, level: 2 }).getByRole('button').click()
    const profile = ada.getByRole('dialog').filter({ hasText: CHAT })
    await profile.waitFor()
    await audit('a profile')
    await close(profile)
  })

  it('the search of messages: its results, its filters and the open conversation’s filter', async () => {
    await conversation(ada, CHAT).click()
    await ada.keyboard.press('Control+F')
    const box = ada.getByRole('searchbox', { name: 'Search messages' })
    await box.fill('a')
    await ada.getByRole('list', { name: 'Search results' }).waitFor()
    await ada.getByRole('button', { name: 'Filters' }).click()
    await audit('search results in one conversation, with the filters open')
    await box.fill('nothingmatchesthisword')
    await ada.getByText('No messages match “nothingmatchesthisword”.').waitFor()
    await audit('a search that found nothing')
    await box.press('Escape')
  })

  it('a conversation’s Pictures, and Export conversation from choosing to saved', async () => {
    await conversation(ada, FIRST_GROUP).click()
    const pictures = await openDialog('Pictures')
    await pictures.getByRole('status').filter({ hasText: 'Loading pictures…' }).waitFor({ state: 'detached' })
    await audit('Pictures')
    await close(pictures)
    await ada.getByRole('button', { name: 'Conversation options', exact: true }).click()
    await ada.getByRole('menuitem', { name: 'Export conversation…' }).click()
    const exporting = dialog('Export conversation')
    await exporting.getByRole('radio', { name: 'HTML' }).waitFor()
    await audit('Export conversation')
    const download = ada.waitForEvent('download', { timeout: 60_000 })
    await exporting.getByRole('button', { name: 'Export' }).click()
    await download
    await exporting.getByRole('status').filter({ hasText: /^Saved/ }).waitFor()
    await audit('Export conversation, saved')
    await close(exporting)
  })

  it('Go to and Keyboard shortcuts, opened from the keyboard', async () => {
    await ada.keyboard.press('Control+k')
    const goTo = dialog('Go to')
    await goTo.getByRole('option').first().waitFor()
    await audit('Go to')
    await goTo.getByRole('combobox', { name: 'Conversation or person' }).fill('no such name')
    await goTo.getByText('Nothing matches “no such name”.').waitFor()
    await audit('Go to, nothing found')
    await close(goTo)
    await ada.keyboard.press('Control+/')
    const shortcuts = dialog('Keyboard shortcuts')
    await shortcuts.waitFor()
    await audit('Keyboard shortcuts')
    await close(shortcuts)
  })
})
