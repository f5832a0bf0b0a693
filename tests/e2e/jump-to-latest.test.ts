// New messages never arrive out of view unannounced. With Pinned messages open
// above the history, Grace still sees what Ada writes as it comes (the panel shrinking the history
// used to leave the newest below its edge, with no cue); and whenever the newest messages are out
// of view (she scrolled up to read), `Jump to latest` shows with how many are new, and takes her there.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, FIRST_GROUP, send } from './support'

const GROUP = FIRST_GROUP
const PINS = ['Trail map is in the shared folder', 'Bring two litres of water each', 'Meeting point: north lot', 'Carpool list is in the doc']

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

function row(page: Page, text: string): Locator {
  return page.getByRole('list', { name: 'Messages' }).getByRole('listitem').filter({ hasText: text })
}

/** Whether the whole row is inside the history's visible box. */
function inView(target: Locator): Promise<boolean> {
  return target.evaluate((element) => {
    const viewport = element.closest('[aria-label="Message history"]')?.getBoundingClientRect()
    const box = element.getBoundingClientRect()
    return viewport !== undefined && box.height > 0 && box.top >= viewport.top - 1 && box.bottom <= viewport.bottom + 1
  })
}

const jump = (page: Page): Locator => page.getByRole('button', { name: /^Jump to latest/ })

describe('Jump to latest', () => {
  let ada: Page
  let grace: Page

  it('signs both in; Ada pins four messages in the group both have open', async () => {
    ;({ ada, grace } = await world.adaAndGrace())
    await conversation(ada, GROUP).click()
    await conversation(grace, GROUP).click()
    for (const text of PINS) {
      await send(ada, text)
      await row(ada, text).getByRole('toolbar', { name: 'Message actions' }).getByRole('button', { name: 'Pin' }).click()
      await row(ada, text).getByRole('toolbar', { name: 'Message actions' }).getByRole('button', { name: 'Unpin' }).waitFor()
    }
    await expect.poll(() => inView(row(grace, PINS.at(-1) ?? ''))).toBe(true)
  })

  it('with Pinned messages open above the history, what arrives still shows as it comes', async () => {
    await grace.getByRole('button', { name: 'Pinned messages', exact: true }).click()
    const pinned = grace.getByRole('region', { name: 'Pinned messages' })
    for (const text of PINS) await pinned.getByRole('button', { name: new RegExp(text) }).waitFor()

    const arrivals = ['Who has the first-aid kit?', 'I do, in the red bag', 'Great, see you at 8']
    for (const text of arrivals) await send(ada, text)
    // She was reading the newest when the panel took its room: she still is.
    await expect.poll(() => inView(row(grace, arrivals.at(-1) ?? ''))).toBe(true)
    expect(await jump(grace).count()).toBe(0)
  })

  it('counts what arrives while Grace reads further up, and takes her to it', async () => {
    await grace.getByRole('region', { name: 'Message history' }).evaluate((history) => history.scrollBy(0, -200))
    await expect.poll(() => jump(grace).count()).toBe(1)
    expect(await jump(grace).textContent()).not.toMatch(/new/)

    const arrivals = ['Stuck behind a tractor on the lane', 'Save me a seat by the creek', 'Make that fifteen, the tractor won']
    for (const [index, text] of arrivals.entries()) {
      await send(ada, text)
      await row(grace, text).waitFor({ state: 'attached' })
      await expect.poll(() => jump(grace).getAttribute('aria-label')).toBe(`Jump to latest, ${index + 1} new ${index === 0 ? 'message' : 'messages'}`)
    }
    expect(await inView(row(grace, arrivals.at(-1) ?? ''))).toBe(false)

    await jump(grace).click()
    await expect.poll(() => inView(row(grace, arrivals.at(-1) ?? ''))).toBe(true)
    await expect.poll(() => jump(grace).count()).toBe(0)
    expect(world.pageErrors).toEqual([])
  })
})
