// The accessible names of the menus and dialogs, driven in Chromium by role and exact name where the
// other end-to-end files do not already: every item of the Status and Conversation options menus,
// every control of the Settings dialog, and the New poll dialog's options. Each step checks what
// the control did, not only that it is there.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, FIRST_GROUP } from './support'

let world: EndToEnd
let ada: Page

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

async function chooseFrom(menuButton: string, item: string, role: 'menuitem' | 'menuitemradio' = 'menuitem'): Promise<void> {
  await ada.getByRole('button', { name: menuButton, exact: true }).click()
  await ada.getByRole(role, { name: item, exact: true }).click()
}

/** Whether some visible text on the page matches. */
async function shows(text: string | RegExp): Promise<boolean> {
  return (await ada.getByText(text).filter({ visible: true }).count()) > 0
}

describe('the fixed accessible names', () => {
  it('signs Ada in', async () => {
    ada = (await world.openApp('ada')).page
    await world.signIn(ada, world.account('Ada'))
  })

  it('Status ▸ Away is shown next to the button', async () => {
    await chooseFrom('Status', 'Away', 'menuitemradio')
    await expect.poll(() => shows(/^Away$/)).toBe(true)
    await chooseFrom('Status', 'Active', 'menuitemradio')
    await expect.poll(() => shows(/^Active$/)).toBe(true)
  })

  it.each([
    ['Mute notifications for 8 hours', /^Notifications muted until /],
    ['Mute notifications until tomorrow', /^Notifications muted until /],
    ['Mute notifications until I turn them back on', /^Notifications muted$/]
  ])('Status ▸ %s mutes, and Turn notifications back on ends it', async (item, text) => {
    await chooseFrom('Status', item)
    await expect.poll(() => shows(text)).toBe(true)
    await chooseFrom('Status', 'Turn notifications back on')
    await expect.poll(() => shows(/^Notifications muted/)).toBe(false)
  })

  it.each([
    ['Mute for 8 hours', /^Muted until /],
    ['Mute until tomorrow', /^Muted until /],
    ['Mute until I turn it back on', /^Muted$/]
  ])('Conversation options ▸ %s mutes the group, and Unmute ends it', async (item, text) => {
    await conversation(ada, FIRST_GROUP).click()
    await chooseFrom('Conversation options', item)
    await expect.poll(() => shows(text)).toBe(true)
    await chooseFrom('Conversation options', 'Unmute')
    await expect.poll(() => shows(/^Muted/)).toBe(false)
  })

  it('Settings saves each checkbox and combobox, and offers no Start at login in browser mode', async () => {
    await ada.getByRole('button', { name: 'Settings', exact: true }).click()
    const dialog = ada.getByRole('dialog', { name: 'Settings' })
    for (const name of ['Desktop notifications', 'Sound', 'Keep running in the tray']) {
      const checkbox = dialog.getByRole('checkbox', { name, exact: true })
      const before = await checkbox.isChecked()
      await checkbox.click()
      await expect.poll(() => checkbox.isChecked()).toBe(!before)
      await checkbox.click()
      await expect.poll(() => checkbox.isChecked()).toBe(before)
    }
    expect(await dialog.getByRole('checkbox', { name: 'Start at login' }).count()).toBe(0)

    await dialog.getByRole('combobox', { name: 'Automatic away' }).selectOption({ label: '5 minutes' })
    await dialog.getByRole('combobox', { name: 'Theme' }).selectOption({ label: 'Dark' })
    await expect.poll(() => ada.evaluate<string | undefined>('document.documentElement.dataset.theme')).toBe('dark')
    await ada.keyboard.press('Escape')
    await ada.getByRole('button', { name: 'Settings', exact: true }).click()
    await expect.poll(() => dialog.getByRole('combobox', { name: 'Automatic away' }).inputValue()).toBe('5')
    await dialog.getByRole('combobox', { name: 'Theme' }).selectOption({ label: 'System' })
    await ada.keyboard.press('Escape')
  })

  it('New poll: Add option adds Option 3, and with Allow multiple answers and Anonymous ticked the poll takes several answers', async () => {
    await conversation(ada, FIRST_GROUP).click()
    await ada.getByRole('button', { name: 'Create poll', exact: true }).click()
    const dialog = ada.getByRole('dialog', { name: 'New poll' })
    await dialog.getByRole('textbox', { name: 'Question' }).fill('Which snacks?')
    await dialog.getByRole('textbox', { name: 'Option 1' }).fill('Nuts')
    await dialog.getByRole('textbox', { name: 'Option 2' }).fill('Dates')
    await dialog.getByRole('button', { name: 'Add option', exact: true }).click()
    await dialog.getByRole('textbox', { name: 'Option 3' }).fill('Cheese')
    await dialog.getByRole('checkbox', { name: 'Allow multiple answers' }).check()
    await dialog.getByRole('checkbox', { name: 'Anonymous' }).check()
    await dialog.getByRole('button', { name: 'Create', exact: true }).click()

    // Multiple answers: each option is a checkbox named by its title.
    for (const option of ['Nuts', 'Dates', 'Cheese']) {
      await ada.getByRole('checkbox', { name: option, exact: true }).last().waitFor()
    }
    expect(world.pageErrors).toEqual([])
  })
})
