// The whole app, as two people use it: two browser-mode apps (each its own core and data folder)
// in Chromium, against the real local service on a file database that is stopped and restarted
// mid-conversation.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connection, conversation, EndToEnd, expectShownOnce, FIRST_GROUP, send } from './support'

const GROUP = FIRST_GROUP
const OTHER_GROUP = 'Launch Team'

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

async function storedTexts(groupName: string, firstName: string): Promise<string[]> {
  // Read back through the service's own REST interface, as any client would.
  const token = await world.restToken(world.account(firstName), 'e2e-check-device')
  const groups = await world.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', token)
  const group = groups.response.find((candidate) => candidate.name === groupName)
  const page = await world.get<{ response: { messages: { text: string }[] } }>(`/v3/groups/${group?.id}/messages?limit=100`, token)
  return page.response.messages.map((message) => message.text)
}

describe('two people chatting', () => {
  let ada: Page
  let grace: Page

  it('signs both in through the SMS code', async () => {
    ;({ ada, grace } = await world.adaAndGrace())
  })

  it('delivers a message live and counts it unread for the other person', async () => {
    await conversation(grace, OTHER_GROUP).click()
    await expect.poll(() => conversation(grace, GROUP).getAttribute('aria-current')).toBeNull()
    expect(await conversation(grace, GROUP).textContent()).not.toMatch(/unread/)

    await conversation(ada, GROUP).click()
    await send(ada, 'Who is up for the ridge trail on Saturday?')
    await expectShownOnce(ada, 'Who is up for the ridge trail on Saturday?')

    await expect.poll(() => conversation(grace, GROUP).textContent()).toMatch(/1 unread/)
    await conversation(grace, GROUP).click()
    await expectShownOnce(grace, 'Who is up for the ridge trail on Saturday?')
    await expect.poll(() => conversation(grace, GROUP).textContent()).not.toMatch(/unread/)
  })

  it('keeps the conversation whole across a service restart: nothing lost, nothing twice', async () => {
    await world.stopService()
    await expect.poll(() => connection(ada), { timeout: 30_000 }).not.toBe('Connected')

    await send(ada, 'Typed while the service was down')
    await expect
      .poll(() => ada.getByRole('list', { name: 'Messages' }).getByText(/out of reach/).count(), { timeout: 30_000 })
      .toBeGreaterThan(0)

    await world.restartService()
    // Sent at once: it usually reaches Ada's app before her push connection has subscribed again,
    // so only the catch-up over REST can bring it; either way it must show exactly once.
    await send(grace, 'Right after the restart')
    await expect.poll(() => connection(ada), { timeout: 60_000 }).toBe('Connected')
    await send(grace, 'And once you are back')

    for (const text of ['Typed while the service was down', 'Right after the restart', 'And once you are back']) {
      await expectShownOnce(ada, text)
      await expectShownOnce(grace, text)
    }
    const stored = await storedTexts(GROUP, 'Katherine')
    for (const text of ['Typed while the service was down', 'Right after the restart', 'And once you are back']) {
      expect(stored.filter((candidate) => candidate === text)).toHaveLength(1)
    }
    expect(world.pageErrors).toEqual([])
  })

  it('keeps the newest message in view through a burst that arrives faster than the page draws', async () => {
    const token = await world.restToken(world.account('Grace'), 'e2e-burst-device')
    const groups = await world.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', token)
    const group = groups.response.find((candidate) => candidate.name === GROUP)
    const burst = Array.from({ length: 120 }, (_, index) => `Burst message ${index}`)
    // One after another, as fast as the service answers: several land between two frames.
    for (const [index, text] of burst.entries()) await world.sendGroupMessage(token, group?.id ?? '', text, `e2e-burst-${index}`)

    const newest = ada.getByRole('list', { name: 'Messages' }).getByText(burst.at(-1) ?? '', { exact: true })
    await expect.poll(() => newest.isVisible(), { timeout: 30_000 }).toBe(true)
    await expect.poll(() => newest.evaluate((row) => {
      const viewport = row.closest('[aria-label="Message history"]')?.getBoundingClientRect()
      const box = row.getBoundingClientRect()
      return viewport !== undefined && box.top >= viewport.top && box.bottom <= viewport.bottom + 1
    })).toBe(true)
    expect(await ada.getByRole('button', { name: /Jump to latest/ }).count()).toBe(0)
  })
})
