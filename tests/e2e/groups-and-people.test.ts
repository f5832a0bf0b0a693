// Groups, members, direct messages and people, end to end in Chromium with two people, Ada and
// Alan, who share groups but have never written to each other: Ada makes a group and adds Alan,
// each sees the other's changes, Ada writes to Alan from his profile, Alan blocks her, and Ada
// turns the group into an announcement group and finally removes him.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connection, conversation, EndToEnd, send } from './support'

const GROUP = 'Climbing Wall'

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

/** A chat's entry in the list, named by the other person: a group's entry may name them in its preview. */
function chat(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: new RegExp(`^${name}`) })
}

function dialog(page: Page, name: string): Locator {
  return page.getByRole('dialog', { name, exact: true })
}

/** Opens the group's Members, by the button in the conversation header. */
async function openMembers(page: Page): Promise<Locator> {
  await page.getByRole('button', { name: 'Members', exact: true }).click()
  const members = dialog(page, 'Members')
  await members.waitFor()
  return members
}

async function closeDialog(panel: Locator): Promise<void> {
  await panel.getByRole('button', { name: 'Close' }).click()
}

function memberRow(members: Locator, name: string): Locator {
  return members.getByRole('list', { name: 'Members' }).getByRole('listitem').filter({ hasText: name })
}

async function confirm(page: Page, answer: string): Promise<void> {
  await page.getByRole('alertdialog').getByRole('button', { name: answer, exact: true }).click()
}

describe('groups, members, direct messages and people, two people', () => {
  let ada: Page
  let alan: Page

  it('signs Ada and Alan in', async () => {
    ada = (await world.openApp('ada')).page
    alan = (await world.openApp('alan')).page
    await world.signIn(ada, world.account('Ada'))
    await world.signIn(alan, world.account('Alan'))
    await expect.poll(() => connection(ada)).toBe('Connected')
    await expect.poll(() => connection(alan)).toBe('Connected')
  })

  it('Ada creates a group and adds Alan; it appears in his list live', async () => {
    await ada.getByRole('button', { name: 'New group', exact: true }).click()
    const newGroup = dialog(ada, 'New group')
    await newGroup.getByRole('textbox', { name: 'Group name' }).fill(GROUP)
    await newGroup.getByRole('textbox', { name: 'Description' }).fill('Tuesdays and Thursdays after work')
    await newGroup.getByRole('button', { name: 'Create' }).click()
    await expect.poll(() => ada.getByRole('heading', { name: GROUP, level: 2 }).count()).toBeGreaterThan(0)
    await conversation(ada, GROUP).waitFor()
    expect(await conversation(alan, GROUP).count()).toBe(0)

    const members = await openMembers(ada)
    await members.getByRole('button', { name: 'Add members' }).click()
    const add = dialog(ada, 'Add members')
    await add.getByRole('combobox', { name: 'Add people' }).fill('Alan')
    await add.getByRole('option', { name: 'Alan Turing' }).click()
    await add.getByRole('button', { name: 'Add', exact: true }).click()
    await add.getByRole('list', { name: 'Added' }).getByText('Alan Turing').waitFor()
    await add.getByRole('button', { name: 'Close' }).click()
    await memberRow(members, 'Alan Turing').waitFor()
    await closeDialog(members)

    await conversation(alan, GROUP).waitFor()
  })

  it('Alan changes his nickname, and Ada\'s member list shows it', async () => {
    await conversation(alan, GROUP).click()
    const his = await openMembers(alan)
    await his.getByRole('textbox', { name: 'Your nickname in this group' }).fill('Al')
    await his.getByRole('button', { name: 'Save nickname' }).click()
    await memberRow(his, 'Al (you)').waitFor()
    await closeDialog(his)

    const hers = await openMembers(ada)
    await expect.poll(() => memberRow(hers, 'Alan Turing').textContent()).toMatch(/^\s*Al\b/)
    await closeDialog(hers)
  })

  it('Ada starts a direct message from Alan\'s profile, and Alan receives it live', async () => {
    const members = await openMembers(ada)
    await memberRow(members, 'Alan Turing').getByRole('button', { name: /Al/ }).first().click()
    const profile = dialog(ada, 'Alan Turing')
    await profile.getByRole('button', { name: 'Send message' }).click()
    await expect.poll(() => ada.getByRole('heading', { name: 'Alan Turing', level: 2 }).count()).toBeGreaterThan(0)
    expect(await chat(alan, 'Ada Lovelace').count()).toBe(0)
    expect(await chat(ada, 'Alan Turing').count()).toBe(0)

    await send(ada, 'Belay practice on Thursday?')
    await chat(alan, 'Ada Lovelace').waitFor()
    await chat(ada, 'Alan Turing').waitFor()
    await chat(alan, 'Ada Lovelace').click()
    await alan.getByRole('list', { name: 'Messages' }).getByText('Belay practice on Thursday?').waitFor()
  })

  it('Alan blocks Ada; her next message shows the block and keeps what she wrote', async () => {
    await alan.getByRole('heading', { name: 'Ada Lovelace', level: 2 }).getByRole('button').click()
    const profile = dialog(alan, 'Ada Lovelace')
    await profile.getByRole('button', { name: 'Block', exact: true }).click()
    await profile.getByRole('button', { name: 'Unblock', exact: true }).waitFor()
    await closeDialog(profile)

    await send(ada, 'Are you still coming?')
    const pending = ada.getByRole('listitem').filter({ hasText: 'Are you still coming?' })
    await expect.poll(() => pending.textContent(), { timeout: 15_000 }).toMatch(/not accepting/i)
    await expect.poll(() => alan.getByRole('list', { name: 'Messages' }).getByText('Are you still coming?').count()).toBe(0)
  })

  it('Ada makes the group an announcement group, and Alan no longer has a composer', async () => {
    await conversation(ada, GROUP).click()
    await ada.getByRole('button', { name: 'Group settings' }).click()
    const settings = dialog(ada, 'Group settings')
    await settings.getByRole('combobox', { name: 'Group type' }).selectOption('announcement')
    await settings.getByRole('button', { name: 'Save' }).click()
    await expect.poll(() => settings.getByRole('combobox', { name: 'Group type' }).inputValue()).toBe('announcement')
    await closeDialog(settings)

    // The service announces no settings change (§14.5): Alan's app reads the group afresh when he opens it.
    await conversation(alan, GROUP).click()
    await alan.getByRole('note').filter({ hasText: 'Only admins can write in this announcement group.' }).waitFor()
    expect(await alan.getByRole('textbox', { name: 'Message' }).count()).toBe(0)
    await conversation(ada, GROUP).click()
    expect(await ada.getByRole('textbox', { name: 'Message' }).count()).toBe(1)
  })

  it('Ada removes Alan; his list drops the group', async () => {
    const members = await openMembers(ada)
    await memberRow(members, 'Alan Turing').getByRole('button', { name: 'Member options' }).click()
    await ada.getByRole('menuitem', { name: 'Remove' }).click()
    await confirm(ada, 'Remove')
    await expect.poll(() => memberRow(members, 'Alan Turing').count()).toBe(0)
    await closeDialog(members)

    await expect.poll(() => conversation(alan, GROUP).count(), { timeout: 15_000 }).toBe(0)
    // He had it open: it closes, saying why.
    await alan.getByRole('status').filter({ hasText: `${GROUP} was deleted, or you are no longer in it.` }).waitFor()
    expect(await alan.getByRole('heading', { name: GROUP, level: 2 }).count()).toBe(0)
  })

  it('offers every control of groups and people, by role and exact name', async () => {
    // The list's search filters as one types.
    const search = ada.getByRole('textbox', { name: 'Search conversations' })
    await search.fill('book')
    await expect.poll(() => conversation(ada, 'Weekend Hikers').count()).toBe(0)
    await conversation(ada, 'Book Club').waitFor()
    await search.fill('')
    await conversation(ada, 'Weekend Hikers').waitFor()

    await ada.getByRole('button', { name: 'Contacts', exact: true }).click()
    await closeDialog(dialog(ada, 'Contacts'))

    await ada.getByRole('button', { name: 'Join with a link' }).click()
    await closeDialog(dialog(ada, 'Join with a link'))

    await ada.getByRole('button', { name: 'New message' }).click()
    const newMessage = dialog(ada, 'New message')
    await newMessage.getByRole('combobox', { name: 'To' }).fill('Grace')
    await newMessage.getByRole('option', { name: 'Grace Hopper' }).click()
    await newMessage.getByRole('button', { name: 'Start' }).click()
    await ada.getByRole('heading', { name: 'Grace Hopper', level: 2 }).waitFor()

    // The owner's Group settings, with a share link turned on.
    await conversation(ada, GROUP).click()
    await ada.getByRole('button', { name: 'Group settings' }).click()
    const settings = dialog(ada, 'Group settings')
    await settings.getByRole('textbox', { name: 'Group name' }).waitFor()
    await settings.getByRole('checkbox', { name: 'Require approval' }).waitFor()
    for (const name of ['Leave group', 'Transfer ownership', 'Delete group']) await settings.getByRole('button', { name }).waitFor()
    await settings.getByRole('checkbox', { name: 'Share link' }).check()
    await settings.getByRole('button', { name: 'Save' }).click()
    await settings.getByRole('button', { name: 'Copy link' }).waitFor()
    await closeDialog(settings)

    // Grace joins; the owner makes her an admin and back.
    const members = await openMembers(ada)
    await members.getByRole('button', { name: 'Add members' }).click()
    const add = dialog(ada, 'Add members')
    await add.getByRole('combobox', { name: 'Add people' }).fill('Grace')
    await add.getByRole('option', { name: 'Grace Hopper' }).click()
    await add.getByRole('button', { name: 'Add', exact: true }).click()
    await add.getByRole('list', { name: 'Added' }).getByText('Grace Hopper').waitFor()
    await add.getByRole('button', { name: 'Close' }).click()
    const grace = memberRow(members, 'Grace Hopper')
    await grace.getByRole('button', { name: 'Member options' }).click()
    await ada.getByRole('menuitem', { name: 'Remove', exact: true }).waitFor()
    await ada.getByRole('menuitem', { name: 'Ban', exact: true }).waitFor()
    await ada.getByRole('menuitem', { name: 'Make admin' }).click()
    await expect.poll(() => grace.textContent()).toMatch(/Admin/i)
    await grace.getByRole('button', { name: 'Member options' }).click()
    await ada.getByRole('menuitem', { name: 'Remove admin' }).click()
    await expect.poll(() => grace.textContent()).not.toMatch(/Admin/i)
    await closeDialog(members)
  })

  it('Ada deletes the group, confirmed by its name, and it leaves her list', async () => {
    await ada.getByRole('button', { name: 'Group settings' }).click()
    const settings = dialog(ada, 'Group settings')
    await settings.getByRole('textbox', { name: new RegExp(`Type “${GROUP}”`) }).fill(GROUP)
    await settings.getByRole('button', { name: 'Delete group' }).click()
    await expect.poll(() => conversation(ada, GROUP).count()).toBe(0)
    expect(world.pageErrors).toEqual([])
  })
})
