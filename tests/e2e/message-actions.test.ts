// What two people do to messages already sent, in browser mode in Chromium against the real local
// service: reactions, edits, deletes and pins, each seen live by the other, both ways; the Pinned
// messages and Most liked panels; and the refusals the service makes (a delete the group's mode
// does not allow, an edit after the 15 minutes); and ↑ in an empty Message box, which edits your newest message.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, FIRST_GROUP, send } from './support'

/** Ada owns it (so she is an admin there); Grace is an ordinary member. */
const GROUP = FIRST_GROUP

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

/** The row of the message with this text in the open conversation's history. */
function row(page: Page, text: string): Locator {
  return page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: text })
}

function actions(page: Page, text: string): Locator {
  return row(page, text).getByRole('toolbar', { name: 'Message actions' })
}

function chip(page: Page, text: string, name: string): Locator {
  return row(page, text).getByRole('button', { name, exact: true })
}

async function react(page: Page, text: string, emoji: string): Promise<void> {
  await actions(page, text).getByRole('button', { name: 'React' }).click()
  await page.getByRole('menuitem', { name: emoji, exact: true }).click()
}

async function edit(page: Page, text: string, replacement: string): Promise<void> {
  await actions(page, text).getByRole('button', { name: 'Edit' }).click()
  const composer = page.getByRole('textbox', { name: 'Message' })
  await expect.poll(() => composer.inputValue()).toBe(text)
  await composer.fill(replacement)
  await page.getByRole('button', { name: 'Save' }).click()
}

async function deleteMessage(page: Page, text: string): Promise<void> {
  await actions(page, text).getByRole('button', { name: 'Delete' }).click()
  await row(page, text).getByRole('alertdialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click()
}

describe('acting on messages, two people', () => {
  let ada: Page
  let grace: Page

  it('signs both in and opens the same group', async () => {
    ;({ ada, grace } = await world.adaAndGrace())
    await conversation(ada, GROUP).click()
    await conversation(grace, GROUP).click()
    await send(ada, 'Pancakes at the trailhead?')
    await send(grace, 'Only if there is syrup')
    for (const page of [ada, grace]) {
      await row(page, 'Pancakes at the trailhead?').waitFor()
      await row(page, 'Only if there is syrup').waitFor()
    }
  })

  it('shows a reaction live on the other side, both ways, and takes it back when chosen again', async () => {
    await react(ada, 'Pancakes at the trailhead?', '👍')
    await expect.poll(() => chip(ada, 'Pancakes at the trailhead?', '👍 1').getAttribute('aria-pressed')).toBe('true')
    const seenByGrace = chip(grace, 'Pancakes at the trailhead?', '👍 1')
    await expect.poll(() => seenByGrace.getAttribute('aria-pressed')).toBe('false')
    expect(await seenByGrace.getAttribute('title')).toBe('Ada Lovelace')

    // Grace joins in from the chip; Ada sees two, and who they are.
    await seenByGrace.click()
    await expect.poll(() => chip(ada, 'Pancakes at the trailhead?', '👍 2').getAttribute('title')).toBe('You, Grace')
    await expect.poll(() => chip(grace, 'Pancakes at the trailhead?', '👍 2').getAttribute('aria-pressed')).toBe('true')

    // Her own reaction chosen again (from the menu this time) takes it back.
    await react(grace, 'Pancakes at the trailhead?', '👍')
    await expect.poll(() => chip(ada, 'Pancakes at the trailhead?', '👍 1').count()).toBe(1)
    await expect.poll(() => chip(grace, 'Pancakes at the trailhead?', '👍 1').getAttribute('aria-pressed')).toBe('false')

    await react(grace, 'Pancakes at the trailhead?', '🔥')
    await expect.poll(() => chip(ada, 'Pancakes at the trailhead?', '🔥 1').count()).toBe(1)
  })

  it('shows an edit live on the other side, both ways; Escape leaves the message as it was', async () => {
    // Grace may not edit Ada's message: the button is not offered.
    await row(grace, 'Pancakes at the trailhead?').hover()
    expect(await actions(grace, 'Pancakes at the trailhead?').getByRole('button', { name: 'Edit' }).count()).toBe(0)

    await edit(ada, 'Pancakes at the trailhead?', 'Pancakes at the north lot?')
    await row(grace, 'Pancakes at the north lot?').getByText('(edited)').waitFor()
    // The reactions stay with the edited message.
    await chip(grace, 'Pancakes at the north lot?', '🔥 1').waitFor()

    await edit(grace, 'Only if there is syrup', 'Only if there is maple syrup')
    await row(ada, 'Only if there is maple syrup').waitFor()

    await actions(grace, 'Only if there is maple syrup').getByRole('button', { name: 'Edit' }).click()
    const composer = grace.getByRole('textbox', { name: 'Message' })
    await composer.fill('Never mind')
    await composer.press('Escape')
    await grace.getByRole('button', { name: 'Send' }).waitFor()
    expect(await grace.getByRole('button', { name: 'Save' }).count()).toBe(0)
    expect(await row(grace, 'Only if there is maple syrup').count()).toBe(1)
  })

  it('↑ in an empty Message box edits the newest message of your own that can still be edited, past newer ones of others', async () => {
    await send(ada, 'Syrup is on me')
    await row(grace, 'Syrup is on me').waitFor()
    const box = grace.getByRole('textbox', { name: 'Message' })
    await box.press('ArrowUp')
    const editing = grace.getByRole('form', { name: 'Edit message' })
    await editing.waitFor()
    expect(await editing.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('Only if there is maple syrup')
    // Focus is in the edit box, to edit on from the end of the text.
    await expect.poll(() => grace.evaluate<string>("document.activeElement?.closest('form')?.getAttribute('aria-label') ?? ''")).toBe('Edit message')
    await editing.getByRole('textbox', { name: 'Message' }).press('Escape')
    await grace.getByRole('button', { name: 'Send' }).waitFor()

    // With something written, ↑ moves the caret as ever and edits nothing.
    await box.fill('not empty')
    await box.press('ArrowUp')
    expect(await grace.getByRole('form', { name: 'Edit message' }).count()).toBe(0)
    await box.fill('')
  })

  it('pins on one side and the other finds it in Pinned messages, both ways, and jumps to it', async () => {
    await actions(ada, 'Only if there is maple syrup').getByRole('button', { name: 'Pin' }).click()
    await actions(ada, 'Only if there is maple syrup').getByRole('button', { name: 'Unpin' }).waitFor()

    await grace.getByRole('button', { name: 'Pinned messages' }).click()
    const gracePins = grace.getByRole('region', { name: 'Pinned messages' })
    await gracePins.getByRole('button', { name: /Only if there is maple syrup/ }).click()
    await expect.poll(() => grace.locator(':focus').textContent()).toContain('Only if there is maple syrup')

    await actions(grace, 'Pancakes at the north lot?').getByRole('button', { name: 'Pin' }).click()
    await ada.getByRole('button', { name: 'Pinned messages' }).click()
    const adaPins = ada.getByRole('region', { name: 'Pinned messages' })
    await adaPins.getByRole('button', { name: /Pancakes at the north lot\?/ }).waitFor()
    await adaPins.getByRole('button', { name: /Only if there is maple syrup/ }).waitFor()
    await ada.getByRole('button', { name: 'Pinned messages' }).click()
    expect(await ada.getByRole('region', { name: 'Pinned messages' }).count()).toBe(0)
  })

  it('lists the most liked messages in the Most liked panel', async () => {
    await ada.getByRole('button', { name: 'Most liked' }).click()
    const panel = ada.getByRole('region', { name: 'Most liked' })
    await panel.getByRole('heading', { name: 'Today' }).waitFor()
    await expect.poll(() => panel.getByRole('button', { name: /Pancakes at the north lot\?/ }).count()).toBeGreaterThanOrEqual(3)
    await ada.getByRole('button', { name: 'Most liked' }).click()
  })

  it('shows a deletion live as a tombstone on the other side, both ways, after a confirmation', async () => {
    await send(grace, 'Oops, wrong group')
    await send(ada, 'Also a mistake')
    await row(ada, 'Oops, wrong group').waitFor()
    await row(grace, 'Also a mistake').waitFor()

    // Grace is no admin here, so Ada's message offers her no Delete.
    await row(grace, 'Also a mistake').hover()
    await actions(grace, 'Also a mistake').getByRole('button', { name: 'Pin' }).waitFor()
    expect(await actions(grace, 'Also a mistake').getByRole('button', { name: 'Delete' }).count()).toBe(0)

    // Changing one's mind keeps the message.
    await actions(grace, 'Oops, wrong group').getByRole('button', { name: 'Delete' }).click()
    await row(grace, 'Oops, wrong group').getByRole('button', { name: 'Cancel' }).click()
    expect(await row(grace, 'Oops, wrong group').count()).toBe(1)

    await deleteMessage(grace, 'Oops, wrong group')
    await expect.poll(() => row(ada, 'Oops, wrong group').count()).toBe(0)
    await deleteMessage(ada, 'Also a mistake')
    await expect.poll(() => row(grace, 'Also a mistake').count()).toBe(0)
    const tombstones = (page: Page): Locator => page.getByRole('list', { name: 'Messages' }).getByText('This message was deleted', { exact: true })
    await expect.poll(() => tombstones(ada).count()).toBe(2)
    await expect.poll(() => tombstones(grace).count()).toBe(2)
  })

  it('says so when the group no longer lets anyone delete, and keeps the message', async () => {
    await send(ada, 'Keep this one')
    await row(ada, 'Keep this one').waitFor()
    // Someone changes the group's settings elsewhere; Ada's app has not heard of it yet.
    const token = await world.restToken(world.account('Ada'), 'e2e-settings-device')
    const groups = await world.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', token)
    const groupId = groups.response.find((group) => group.name === GROUP)?.id ?? ''
    const response = await fetch(new URL(`/v3/groups/${groupId}/update?token=${token}`, world.origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ message_deletion_mode: [] })
    })
    expect(response.status).toBe(200)

    await deleteMessage(ada, 'Keep this one')
    await ada.getByRole('alert').filter({ hasText: 'You cannot delete this message: this conversation does not let you.' }).waitFor()
    expect(await row(ada, 'Keep this one').count()).toBe(1)
  })

  // Last, since moving the service clock puts the apps' push timestamps out of bounds.
  it('refuses an edit after the 15 minutes and keeps the text in the composer', async () => {
    await send(grace, 'Typo in thsi one')
    await row(grace, 'Typo in thsi one').waitFor()
    await world.advanceServiceClock(16 * 60)
    await edit(grace, 'Typo in thsi one', 'Typo in this one')
    await grace.getByRole('alert').filter({ hasText: 'can no longer be edited' }).waitFor()
    expect(await grace.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('Typo in this one')
    expect(await row(grace, 'Typo in thsi one').count()).toBe(1)
    expect(world.pageErrors).toEqual([])
  })
})
