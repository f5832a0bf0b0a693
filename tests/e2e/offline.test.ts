// Offline, through the UI in browser mode: a person read a conversation and closed the app; it
// starts again with the service down and still shows her list and that history from the store,
// open again as she left it; says `Offline` in the header with a notice that it shows what this
// device keeps, keeps what she writes visibly waiting, and sends it once when the service is back.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connection, conversation, EndToEnd, expectShownOnce, FIRST_GROUP, history, send } from './support'

/** The newest message of the demo history of Weekend Hikers: it shows once that history is in. */
const KNOWN_MESSAGE = 'Meet at the north parking lot at 8?'
const OFFLINE_NOTICE = "You're offline. Showing messages kept on this device."
const WRITTEN_OFFLINE = `Written with the service down ${Date.now()}`

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

describe('a start with the service down', () => {
  let page: Page

  it('Ada signs in, reads the group, and closes the app', async () => {
    const first = await world.openApp('ada')
    await world.signIn(first.page, world.account('Ada'))
    await expect.poll(() => connection(first.page)).toBe('Connected')
    await conversation(first.page, FIRST_GROUP).click()
    await history(first.page).getByText(KNOWN_MESSAGE).last().waitFor()
    await first.context.close()
    await first.app.close()
  })

  it('shows the kept list and the history left open, reads Offline with a notice saying so, and keeps what she writes visibly waiting', async () => {
    await world.stopService()
    ;({ page } = await world.openApp('ada'))
    await conversation(page, FIRST_GROUP).waitFor()
    await expect.poll(() => connection(page), { timeout: 15_000 }).toBe('Offline')
    await page.getByText(OFFLINE_NOTICE).waitFor()

    // The conversation she left open opens again by itself, from the store.
    await history(page).getByText(KNOWN_MESSAGE).last().waitFor()
    await expect.poll(() => conversation(page, FIRST_GROUP).getAttribute('aria-current')).toBe('true')

    await send(page, WRITTEN_OFFLINE)
    const waiting = history(page).getByText(WRITTEN_OFFLINE)
    await waiting.waitFor()
    await history(page).getByText('Not sent: the service is out of reach. It will be sent when it is back.').waitFor({ timeout: 30_000 })
    expect(await history(page).getByRole('button', { name: 'Retry' }).count()).toBe(1)
    expect(await connection(page)).toBe('Offline')
  })

  it('sends it once when the service is back, and the header and notice say so', async () => {
    await world.restartService()
    await expect.poll(() => connection(page), { timeout: 60_000 }).toBe('Connected')
    expect(await page.getByText(OFFLINE_NOTICE).count()).toBe(0)
    await expectShownOnce(page, WRITTEN_OFFLINE)
    await expect.poll(() => history(page).getByRole('button', { name: 'Retry' }).count(), { timeout: 30_000 }).toBe(0)

    const token = await world.restToken(world.account('Grace'), 'e2e-offline-check')
    const groups = await world.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', token)
    const group = groups.response.find((candidate) => candidate.name === FIRST_GROUP)
    const stored = await world.get<{ response: { messages: { text: string }[] } }>(`/v3/groups/${group?.id}/messages?limit=100`, token)
    expect(stored.response.messages.filter((message) => message.text === WRITTEN_OFFLINE)).toHaveLength(1)
    expect(world.pageErrors).toEqual([])
  })
})
