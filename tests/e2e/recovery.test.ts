// What the app does with a conversation, and the panels beside it, opened while the service is
// down: each says it cannot reach the service, the Message box still takes what
// is written (the outbox keeps it), and once the service is back every pane that failed loads again
// by itself, without anyone pressing Try again; what was written while it was down goes, once.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connection, conversation, EndToEnd, expectShownOnce, FIRST_GROUP, history, send } from './support'

const GROUP = FIRST_GROUP
/** The newest message of the demo history of Weekend Hikers (said more than once there): it shows once the history is in. */
const KNOWN_MESSAGE = 'Meet at the north parking lot at 8?'
const UNREACHABLE = /Cannot reach the service/

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

async function serviceDown(...pages: Page[]): Promise<void> {
  await world.stopService()
  for (const page of pages) await expect.poll(() => connection(page), { timeout: 30_000 }).not.toBe('Connected')
}

async function serviceBack(...pages: Page[]): Promise<void> {
  await world.restartService()
  for (const page of pages) await expect.poll(() => connection(page), { timeout: 60_000 }).toBe('Connected')
}

describe('opened while the service is down', () => {
  let ada: Page
  let grace: Page

  it('signs both in; Ada reads the group', async () => {
    ;({ ada, grace } = await world.adaAndGrace())
    await conversation(ada, GROUP).click()
    await history(ada).getByText(KNOWN_MESSAGE).last().waitFor()
  })

  it('a conversation opened while the service is down takes messages, and loads by itself once it is back', async () => {
    await serviceDown(grace)
    await conversation(grace, GROUP).click()
    await grace.getByRole('alert').filter({ hasText: UNREACHABLE }).waitFor()

    // Writing is never held back for want of the network: the outbox keeps the message.
    const composer = grace.getByRole('textbox', { name: 'Message' })
    expect(await composer.isEnabled()).toBe(true)
    await send(grace, 'Written while the service was down')
    await history(grace).getByText('Written while the service was down').waitFor()

    await serviceBack(grace)
    // Nobody presses Try again.
    await history(grace).getByText(KNOWN_MESSAGE).last().waitFor({ timeout: 30_000 })
    expect(await grace.getByRole('alert').filter({ hasText: UNREACHABLE }).count()).toBe(0)
    await expectShownOnce(grace, 'Written while the service was down')
    await expectShownOnce(ada, 'Written while the service was down')
  })

  it('the Pinned messages panel and the Members dialog opened while the service is down load by themselves once it is back', async () => {
    await serviceDown(grace)
    await grace.getByRole('button', { name: 'Pinned messages', exact: true }).click()
    const pinned = grace.getByRole('region', { name: 'Pinned messages' })
    await pinned.getByRole('alert').filter({ hasText: UNREACHABLE }).waitFor({ timeout: 30_000 })
    await grace.getByRole('button', { name: 'Members', exact: true }).click()
    const members = grace.getByRole('dialog', { name: 'Members', exact: true })
    await members.getByRole('alert').filter({ hasText: UNREACHABLE }).waitFor({ timeout: 30_000 })

    await serviceBack(grace)
    await members.getByRole('list', { name: 'Members' }).getByText('Ada Lovelace').waitFor({ timeout: 30_000 })
    await members.getByRole('button', { name: 'Close' }).click()
    await pinned.getByText('Nothing is pinned here yet.').waitFor({ timeout: 30_000 })
    expect(await pinned.getByRole('alert').count()).toBe(0)

    await send(grace, 'All back to normal')
    await expectShownOnce(ada, 'All back to normal')
    expect(world.pageErrors).toEqual([])
  })
})
