// A group deleted by its owner, as its other members meet it. The service tells
// nobody else of a deletion (docs/protocol.md §14.5): Grace deletes "Test Crew", and Ada's app,
// which still lists it, learns of it at its next call on the group. That call's 404 takes the group
// out of her list at once, with a word on why; a reload of the page shows the list without it.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, send } from './support'

const GROUP = 'Test Crew'
const GONE = `${GROUP} was deleted, or you are no longer in it.`

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

function dialog(page: Page, name: string): Locator {
  return page.getByRole('dialog', { name, exact: true })
}

/** Grace makes a group of her own and adds the person, through her app's screens. */
async function makeGroupWith(owner: Page, name: string, member: string): Promise<void> {
  await owner.getByRole('button', { name: 'New group', exact: true }).click()
  const newGroup = dialog(owner, 'New group')
  await newGroup.getByRole('textbox', { name: 'Group name' }).fill(name)
  await newGroup.getByRole('button', { name: 'Create' }).click()
  await owner.getByRole('heading', { name, level: 2 }).waitFor()
  await owner.getByRole('button', { name: 'Members', exact: true }).click()
  const members = dialog(owner, 'Members')
  await members.getByRole('button', { name: 'Add members' }).click()
  const add = dialog(owner, 'Add members')
  await add.getByRole('combobox', { name: 'Add people' }).fill(member.split(' ')[0] ?? member)
  await add.getByRole('option', { name: member }).click()
  await add.getByRole('button', { name: 'Add', exact: true }).click()
  await add.getByRole('list', { name: 'Added' }).getByText(member).waitFor()
  await add.getByRole('button', { name: 'Close' }).click()
  await members.getByRole('button', { name: 'Close' }).click()
}

/** The owner deletes the open group from its settings, confirmed by its name. */
async function deleteOpenGroup(owner: Page, name: string): Promise<void> {
  await owner.getByRole('button', { name: 'Group settings' }).click()
  const settings = dialog(owner, 'Group settings')
  await settings.getByRole('textbox', { name: new RegExp(`Type “${name}”`) }).fill(name)
  await settings.getByRole('button', { name: 'Delete group' }).click()
  await expect.poll(() => conversation(owner, name).count()).toBe(0)
}

/**
 * Waits until Settings ▸ Storage says the whole history is on this device: the download asks the
 * service nothing more, so no call of its own on a group can meet the deletion first.
 */
async function historyDownloaded(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  const settings = dialog(page, 'Settings')
  await settings.getByRole('tab', { name: 'Storage' }).click()
  await settings.getByText('All history is on this device').waitFor({ timeout: 20_000 })
  await settings.getByRole('button', { name: 'Close' }).click()
}

describe('a group deleted by its owner, for its other members', () => {
  let ada: Page
  let grace: Page

  it('Grace makes Test Crew with Ada in it, and Ada opens it', async () => {
    ;({ ada, grace } = await world.adaAndGrace())
    await makeGroupWith(grace, GROUP, 'Ada Lovelace')
    await conversation(ada, GROUP).click()
    await ada.getByRole('heading', { name: GROUP, level: 2 }).waitFor()
    await historyDownloaded(ada)
  })

  it('Ada writes to it after Grace deleted it: it leaves her list at once, saying why', async () => {
    await deleteOpenGroup(grace, GROUP)
    // Nobody tells Ada (§14.5): the group stays in her list until her app next calls on it.
    expect(await conversation(ada, GROUP).count()).toBe(1)

    await send(ada, 'Is this still on?')
    await ada.getByRole('status').filter({ hasText: GONE }).waitFor()
    expect(await conversation(ada, GROUP).count()).toBe(0)
    expect(await ada.getByRole('heading', { name: GROUP, level: 2 }).count()).toBe(0)
  })

  it('a group deleted while Ada looks elsewhere is gone from her list after a reload', async () => {
    await makeGroupWith(grace, 'Second Crew', 'Ada Lovelace')
    await conversation(ada, 'Second Crew').waitFor()
    await deleteOpenGroup(grace, 'Second Crew')

    await ada.reload()
    await conversation(ada, 'Weekend Hikers').waitFor()
    await expect.poll(() => conversation(ada, 'Second Crew').count()).toBe(0)
  })

  it('a deleted group Ada opens from her list leaves it at once, saying why', async () => {
    await makeGroupWith(grace, 'Third Crew', 'Ada Lovelace')
    await conversation(ada, 'Third Crew').waitFor()
    await deleteOpenGroup(grace, 'Third Crew')

    await conversation(ada, 'Third Crew').click()
    await ada.getByRole('status').filter({ hasText: 'Third Crew was deleted, or you are no longer in it.' }).waitFor()
    expect(await conversation(ada, 'Third Crew').count()).toBe(0)
    expect(world.pageErrors).toEqual([])
  })
})
