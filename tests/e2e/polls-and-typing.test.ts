// Polls and typing as two people see them, in browser mode in Chromium against the real local
// service: Ada makes a poll, Grace votes, Ada sees the count; each sees the other typing; a poll
// with one option is refused in the dialog with what was typed kept.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, FIRST_GROUP } from './support'

const GROUP = FIRST_GROUP

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

/** The poll titled `subject` in the open conversation's history. */
function pollCard(page: Page, subject: string): Locator {
  return page.getByRole('list', { name: 'Messages' }).getByRole('region', { name: subject })
}

function typingStatus(page: Page): Locator {
  return page.getByRole('status').filter({ hasText: /(is|are) typing…$/ })
}

describe('polls and typing, two people', () => {
  let ada: Page
  let grace: Page

  it('signs both in and opens the same group', async () => {
    ;({ ada, grace } = await world.adaAndGrace())
    await conversation(ada, GROUP).click()
    await conversation(grace, GROUP).click()
  })

  it('refuses a poll with one option, keeping what was typed', async () => {
    await ada.getByRole('button', { name: 'Create poll' }).click()
    const dialog = ada.getByRole('dialog', { name: 'New poll' })
    await dialog.getByRole('textbox', { name: 'Question' }).fill('Which trail?')
    await dialog.getByRole('textbox', { name: 'Option 1' }).fill('Ridge')
    await dialog.getByRole('button', { name: 'Create' }).click()
    await dialog.getByRole('alert').filter({ hasText: 'A poll needs at least 2 options.' }).waitFor()
    expect(await dialog.getByRole('textbox', { name: 'Question' }).inputValue()).toBe('Which trail?')
    expect(await dialog.getByRole('textbox', { name: 'Option 1' }).inputValue()).toBe('Ridge')
  })

  it('Ada creates a poll, Grace votes, and Ada sees the count', async () => {
    const dialog = ada.getByRole('dialog', { name: 'New poll' })
    await dialog.getByRole('textbox', { name: 'Option 2' }).fill('Lakeside')
    await dialog.getByRole('button', { name: 'Create' }).click()
    await dialog.waitFor({ state: 'hidden' })

    const gracesPoll = pollCard(grace, 'Which trail?')
    await gracesPoll.getByRole('radio', { name: 'Lakeside' }).check()
    await gracesPoll.getByRole('button', { name: 'Vote' }).click()
    await gracesPoll.getByText('1 vote').waitFor()

    const adasPoll = pollCard(ada, 'Which trail?')
    await adasPoll.getByText('1 vote').waitFor({ timeout: 20_000 })
    // A public poll names who voted.
    await adasPoll.getByText(/^Grace/).waitFor()
    expect(await pollCard(grace, 'Which trail?').getByRole('button', { name: 'End poll' }).count()).toBe(0)
  })

  it('Ada ends the poll, and Grace sees it ended with a quiet line saying so', async () => {
    await pollCard(ada, 'Which trail?').getByRole('button', { name: 'End poll' }).click()
    await grace.getByText('The poll "Which trail?" has ended').waitFor()
    await expect.poll(() => pollCard(grace, 'Which trail?').getByRole('button', { name: 'Vote' }).count()).toBe(0)
  })

  it('lists the poll in the Polls region', async () => {
    await grace.getByRole('button', { name: 'Polls' }).click()
    await grace.getByRole('region', { name: 'Polls' }).getByText('Which trail?').waitFor()
  })

  it('shows each the other typing, and stops when the message arrives', async () => {
    await ada.getByRole('textbox', { name: 'Message' }).pressSequentially('On my way')
    await typingStatus(grace).filter({ hasText: /^Ada.* is typing…$/ }).waitFor()
    // Sent without another keystroke, so no later typing notice can race the message.
    await ada.getByRole('textbox', { name: 'Message' }).press('Enter')
    // Well inside the 5 s of silence after which a typist would count as stopped anyway.
    await expect.poll(() => typingStatus(grace).count(), { timeout: 2_000 }).toBe(0)

    await grace.getByRole('textbox', { name: 'Message' }).pressSequentially('See you')
    await typingStatus(ada).filter({ hasText: /^Grace.* is typing…$/ }).waitFor()
    expect(world.pageErrors).toEqual([])
  })

  it('shows Ada typing her next message as soon as she starts it, right after sending one', async () => {
    // Grace counts Ada as stopped once her message lands, so Ada's next keystrokes must say so
    // again at once, however recently she last said it (well inside 5 s, here).
    const composer = ada.getByRole('textbox', { name: 'Message' })
    await composer.pressSequentially('Bring water')
    await typingStatus(grace).filter({ hasText: /^Ada.* is typing…$/ }).waitFor({ timeout: 3_000 })
    await composer.press('Enter')
    await grace.getByRole('list', { name: 'Messages' }).getByText('Bring water').waitFor()
    await expect.poll(() => typingStatus(grace).count(), { timeout: 2_000 }).toBe(0)

    // A few keystrokes, then none: nothing later could say that she is typing but these.
    await composer.pressSequentially('ok')
    await typingStatus(grace).filter({ hasText: /^Ada.* is typing…$/ }).waitFor({ timeout: 3_000 })
    expect(world.pageErrors).toEqual([])
  })
})
