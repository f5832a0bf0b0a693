// What comes into a history the app opened from this device's store stays in it: after a restart
// on the same data folder, a message Ada sends into a group, one Grace writes there while it is
// open, and what comes while another conversation is open all show in the group's history after
// a reload, once each, as the conversation list's preview already says.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connection, conversation, EndToEnd, expectShownOnce, FIRST_GROUP, history, type OpenedApp, send } from './support'

const OTHER_GROUP = 'Book Club'
const stamp = Date.now()
const SENT = `Sent after the restart ${stamp}`
const PUSHED = `Grace wrote while it was open ${stamp}`
const PUSHED_ELSEWHERE = `Grace wrote while another group was open ${stamp}`
const SENT_ELSEWHERE = `Ada wrote from her phone while another group was open ${stamp}`

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

/** Sends into the first group over the service's REST interface, as another of the person's devices would. */
async function sendElsewhere(firstName: string, text: string): Promise<void> {
  const token = await world.restToken(world.account(firstName), `e2e-${firstName.toLowerCase()}-elsewhere`)
  const groups = await world.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', token)
  const group = groups.response.find((candidate) => candidate.name === FIRST_GROUP)
  await world.sendGroupMessage(token, group?.id ?? '', text, `e2e-${text.length}-${Date.now()}`)
}

/** Opens another conversation, reloads the page and opens the group again: its history as read from the app now. */
async function reloadAndReopen(page: Page): Promise<void> {
  await conversation(page, OTHER_GROUP).click()
  await page.reload()
  await expect.poll(() => connection(page), { timeout: 20_000 }).toBe('Connected')
  await conversation(page, FIRST_GROUP).click()
  await history(page).waitFor()
}

/**
 * Ada on a data folder of its own: she signs in, reads the group, moves to another and closes
 * the app, which then starts again there, connected. Each case has its own folder, so that none
 * starts from what an earlier one left in its store.
 */
async function restartedAfterReading(folder: string): Promise<OpenedApp> {
  const first = await world.openApp(folder)
  await world.signIn(first.page, world.account('Ada'))
  await conversation(first.page, FIRST_GROUP).click()
  await history(first.page).waitFor()
  await conversation(first.page, OTHER_GROUP).click()
  await first.context.close()
  await first.app.close()
  const again = await world.openApp(folder)
  await expect.poll(() => connection(again.page), { timeout: 20_000 }).toBe('Connected')
  return again
}

describe('a history opened from the store after a restart', () => {
  it('keeps what Ada sends into it, shown once after a reload', async () => {
    const { page } = await restartedAfterReading('ada-sends')
    await conversation(page, FIRST_GROUP).click()
    await send(page, SENT)
    await history(page).getByText(SENT, { exact: true }).waitFor()
    await reloadAndReopen(page)
    await expectShownOnce(page, SENT)
  })

  it('keeps what Grace writes into it while it is open, shown once after a reload', async () => {
    const { page } = await restartedAfterReading('ada-reads')
    await conversation(page, FIRST_GROUP).click()
    await history(page).getByRole('listitem').first().waitFor()
    await sendElsewhere('Grace', PUSHED)
    await history(page).getByText(PUSHED, { exact: true }).waitFor({ timeout: 15_000 })
    await reloadAndReopen(page)
    await expectShownOnce(page, PUSHED)
  })

  it('keeps what comes into it while only another conversation was opened since the restart, hers and Grace’s, shown once after a reload', async () => {
    const { page } = await restartedAfterReading('ada-elsewhere')
    await conversation(page, OTHER_GROUP).click()
    await history(page).waitFor()
    await sendElsewhere('Grace', PUSHED_ELSEWHERE)
    await sendElsewhere('Ada', SENT_ELSEWHERE)
    // The list's preview says the newest has come.
    await expect.poll(() => conversation(page, FIRST_GROUP).textContent(), { timeout: 15_000 }).toContain(SENT_ELSEWHERE)
    await reloadAndReopen(page)
    for (const text of [PUSHED_ELSEWHERE, SENT_ELSEWHERE]) await expectShownOnce(page, text)
    expect(world.pageErrors).toEqual([])
  })
})
