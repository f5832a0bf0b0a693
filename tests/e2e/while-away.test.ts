// What changed while the app was closed, through the UI in browser mode: Ada read a group and
// closed the app; meanwhile Grace edited one of her messages, deleted another and reacted to a
// third. When Ada opens the group again, its history (shown from what her device keeps) shows the
// edit, the deleted message as deleted, and the reaction, with nobody pushing anything to her.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connection, conversation, EndToEnd, FIRST_GROUP, history, send } from './support'

const stamp = Date.now()
const TO_EDIT = `Bring two litres of water ${stamp}`
const EDITED = `Bring three litres of water ${stamp}`
const TO_DELETE = `The ford is closed ${stamp}`
const TO_REACT = `Parking costs five ${stamp}`
const TOMBSTONE = 'This message was deleted'

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

function row(page: Page, text: string): Locator {
  return history(page).getByRole('listitem').filter({ hasText: text })
}

function actions(page: Page, text: string): Locator {
  return row(page, text).getByRole('toolbar', { name: 'Message actions' })
}

describe('changes made while the app was closed', () => {
  let grace: Page
  let tombstonesBefore = 0

  it('Ada reads Grace’s messages in the group, and closes the app', async () => {
    const first = await world.openApp('ada')
    const graceApp = await world.openApp('grace')
    grace = graceApp.page
    await world.signIn(first.page, world.account('Ada'))
    await world.signIn(grace, world.account('Grace'))
    await expect.poll(() => connection(first.page)).toBe('Connected')
    await expect.poll(() => connection(grace)).toBe('Connected')
    await conversation(first.page, FIRST_GROUP).click()
    await conversation(grace, FIRST_GROUP).click()
    for (const text of [TO_EDIT, TO_DELETE, TO_REACT]) await send(grace, text)
    for (const text of [TO_EDIT, TO_DELETE, TO_REACT]) await row(first.page, text).waitFor()
    tombstonesBefore = await history(first.page).getByText(TOMBSTONE).count()
    await first.context.close()
    await first.app.close()
  })

  it('meanwhile Grace edits one, deletes another and reacts to the third', async () => {
    await actions(grace, TO_EDIT).getByRole('button', { name: 'Edit' }).click()
    const composer = grace.getByRole('textbox', { name: 'Message' })
    await expect.poll(() => composer.inputValue()).toBe(TO_EDIT)
    await composer.fill(EDITED)
    await grace.getByRole('button', { name: 'Save' }).click()
    await row(grace, EDITED).waitFor()

    await actions(grace, TO_DELETE).getByRole('button', { name: 'Delete' }).click()
    await row(grace, TO_DELETE).getByRole('alertdialog', { name: 'Delete this message?' }).getByRole('button', { name: 'Delete' }).click()
    await expect.poll(() => row(grace, TO_DELETE).count()).toBe(0)

    await actions(grace, TO_REACT).getByRole('button', { name: 'React' }).click()
    await grace.getByRole('menuitem', { name: '🔥', exact: true }).click()
    await row(grace, TO_REACT).getByRole('button', { name: '🔥 1', exact: true }).waitFor()
  })

  it('Ada opens the group again: the edit shows, the deleted message shows as deleted, and the reaction shows', async () => {
    const { page } = await world.openApp('ada')
    await conversation(page, FIRST_GROUP).click()
    await row(page, TO_REACT).waitFor()

    await row(page, EDITED).waitFor({ timeout: 20_000 })
    expect(await row(page, TO_EDIT).count()).toBe(0)
    await expect.poll(() => row(page, TO_DELETE).count(), { timeout: 20_000 }).toBe(0)
    await expect.poll(() => history(page).getByText(TOMBSTONE).count()).toBe(tombstonesBefore + 1)
    await row(page, TO_REACT).getByRole('button', { name: '🔥 1', exact: true }).waitFor({ timeout: 20_000 })
    expect(world.pageErrors).toEqual([])
  })
})
