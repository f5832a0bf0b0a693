// What people type and paste into the app's forms, end to end in Chromium against browser mode and
// the local service: Katherine's verification screen says what to do before and after
// Send code, and refuses a code that is not six digits without spending one of her five attempts;
// Grace pastes a group link that leads elsewhere and is refused before anything is sent, then
// joins through the group's own link, answering its question before the request goes; Ada blocks
// Grace, and the chat says what the profile says; and Ada deletes a group whose name holds
// invisible direction marks by typing the name she sees.
import type { Locator, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { conversation, EndToEnd, FIRST_GROUP, send } from './support'

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

/** The one alert of a form that says what is wrong with it (empty while nothing is). */
function problem(page: Page): Locator {
  return page.getByRole('alert')
}

/** The page loaded afresh, as after a restart of the window: whatever a test before left open is gone. */
async function fresh(page: Page): Promise<void> {
  await page.reload()
  await conversation(page, FIRST_GROUP).waitFor()
}

/** A chat's entry in the list, named by the other person. */
function chat(page: Page, name: string): Locator {
  return page.getByRole('list', { name: 'Conversations' }).getByRole('button', { name: new RegExp(`^${name}`) })
}

/** A group made through the New group dialog, found in the list by a word of its name; the owner ends up in it. */
async function createGroup(page: Page, name: string, word: string): Promise<void> {
  await page.getByRole('button', { name: 'New group', exact: true }).click()
  const newGroup = dialog(page, 'New group')
  await newGroup.getByRole('textbox', { name: 'Group name' }).fill(name)
  await newGroup.getByRole('button', { name: 'Create' }).click()
  await conversation(page, word).waitFor()
  await page.getByRole('button', { name: 'Group settings' }).waitFor()
}

describe('the verification screen', () => {
  it('says to press Send code first, forgets that once it is pressed, and refuses a code that is not six digits without spending an attempt', async () => {
    const katherine = world.account('Katherine')
    const { page } = await world.openApp('katherine')
    await page.getByRole('textbox', { name: 'Username' }).fill(katherine.email)
    await page.getByRole('textbox', { name: 'Password' }).fill(katherine.password)
    await page.getByRole('button', { name: 'Sign in' }).click()
    const code = page.getByRole('textbox', { name: 'Verification code' })
    await code.waitFor()

    // Before Send code no text has gone: an empty Verify says what to press first.
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect.poll(() => problem(page).textContent()).toBe('No code has been sent yet: press Send code, then enter the code from the text message.')

    const sentBefore = await world.smsCount(katherine.phoneNumber)
    await page.getByRole('button', { name: 'Send code' }).click()
    await page.getByText(/We sent a verification code by SMS to your phone ending in \d{2}\./).waitFor()
    const texted = await world.nextSmsCode(katherine.phoneNumber, sentBefore)
    // What was said before Send code is out of date once the text has gone.
    await expect.poll(() => problem(page).filter({ hasText: /\S/ }).count()).toBe(0)

    await code.fill('12345a')
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect.poll(() => problem(page).textContent()).toBe('The code from the text message is 6 digits: check what you typed.')
    // What she typed stays, to correct.
    expect(await code.inputValue()).toBe('12345a')

    // A wrong six-digit code is the service's to judge, and it is the first attempt spent.
    const wrong = texted === '000000' ? '111111' : '000000'
    await code.fill(wrong)
    await page.getByRole('button', { name: 'Verify' }).click()
    await expect.poll(() => problem(page).textContent()).toBe('Wrong code — 4 attempts left.')

    await code.fill(texted)
    await page.getByRole('button', { name: 'Verify' }).click()
    await conversation(page, FIRST_GROUP).waitFor()
    expect(world.pageErrors).toEqual([])
  })
})

describe('links, blocks and names, Ada and Grace', () => {
  let ada: Page
  let grace: Page
  let adaToken: string
  let graceId: string

  it('signs Ada and Grace in', async () => {
    ;({ ada, grace } = await world.adaAndGrace())
    adaToken = await world.restToken(world.account('Ada'), 'adas-checks')
    const graceToken = await world.restToken(world.account('Grace'), 'graces-checks')
    graceId = (await world.get<{ response: { id: string } }>('/v3/users/me', graceToken)).response.id
  })

  it('Join with a link refuses a link that leads elsewhere before sending anything, and asks for the answer before the request goes', async () => {
    const GROUP = 'Trail Crew'
    await createGroup(ada, GROUP, GROUP)
    await ada.getByRole('button', { name: 'Group settings' }).click()
    const settings = dialog(ada, 'Group settings')
    await settings.getByRole('checkbox', { name: 'Share link' }).check()
    await settings.getByRole('button', { name: 'Save' }).click()
    const shareLink = await settings.getByRole('textbox', { name: 'The group’s link' }).inputValue()
    expect(shareLink.startsWith(`${world.origin}/join_group/`)).toBe(true)
    const groupId = /\/join_group\/(\d+)\//.exec(shareLink)?.[1] ?? ''
    const foreign = shareLink.replace(world.origin, 'https://evil.example')
    const memberIds = async (): Promise<string[]> => {
      const group = await world.get<{ response: { members: { user_id: string }[] } }>(`/v3/groups/${groupId}`, adaToken)
      return group.response.members.map((member) => member.user_id)
    }
    const pending = async (): Promise<{ user_id: string; reason: { answer: { response: string } | null } }[]> =>
      (await world.get<{ response: { user_id: string; reason: { answer: { response: string } | null } }[] }>(`/v3/groups/${groupId}/pending_memberships`, adaToken)).response

    // A group that asks no approval: the foreign link is refused, saying why, and nothing is sent.
    await grace.getByRole('button', { name: 'Join with a link' }).click()
    const join = dialog(grace, 'Join with a link')
    await join.getByRole('textbox', { name: 'Group link' }).fill(foreign)
    await join.getByRole('button', { name: 'Join' }).click()
    await expect
      .poll(() => join.getByRole('alert').textContent())
      .toBe(
        `This link is not one of your service’s: it leads to evil.example, and your service’s group links begin with ${world.origin}/join_group/. Nothing was sent.`
      )
    expect(await join.getByRole('textbox', { name: 'Group link' }).inputValue()).toBe(foreign)
    expect(await memberIds()).not.toContain(graceId)
    expect(await conversation(grace, GROUP).count()).toBe(0)

    // Now it asks approval and a question: the foreign link still sends nothing and waits for nothing.
    await settings.getByRole('checkbox', { name: 'Require approval' }).check()
    await settings.getByRole('textbox', { name: 'Join question' }).fill('Which trail do you like best?')
    await settings.getByRole('button', { name: 'Save' }).click()
    await expect.poll(async () => (await world.get<{ response: { requires_approval: boolean } }>(`/v3/groups/${groupId}`, adaToken)).response.requires_approval).toBe(true)
    await join.getByRole('button', { name: 'Join' }).click()
    await join.getByRole('alert').filter({ hasText: 'evil.example' }).waitFor()
    expect(await pending()).toEqual([])
    expect(await join.getByRole('list', { name: 'Waiting for approval' }).count()).toBe(0)

    // The group's own link, without an answer: before anything goes, the dialog says the group may
    // ask, and the answer is given then.
    await join.getByRole('textbox', { name: 'Group link' }).fill(shareLink)
    await join.getByRole('button', { name: 'Join' }).click()
    await join
      .getByRole('status')
      .filter({ hasText: 'The group may ask why you want to join, and an answer cannot be added once the request is sent.' })
      .waitFor()
    expect(await pending()).toEqual([])
    await join.getByRole('textbox', { name: 'Answer' }).fill('The ridge above the lake')
    await join.getByRole('button', { name: 'Join', exact: true }).click()
    await join.getByRole('status').filter({ hasText: 'Your request to join is waiting for approval. The group asks: “Which trail do you like best?”.' }).waitFor()
    const waiting = join.getByRole('list', { name: 'Waiting for approval' })
    await expect.poll(() => waiting.getByRole('listitem').textContent()).toContain(shareLink)
    expect(await waiting.textContent()).not.toContain('evil.example')
    const requests = await pending()
    expect(requests.map((request) => [request.user_id, request.reason.answer?.response])).toEqual([[graceId, 'The ridge above the lake']])
    await join.getByRole('button', { name: 'Close' }).click()
    await settings.getByRole('button', { name: 'Close' }).click()
  })

  it('after Ada blocks Grace, the chat says what the profile says, on both sides, and Unblock opens it again', async () => {
    await fresh(ada)
    await fresh(grace)
    await chat(ada, 'Grace Hopper').click()
    await ada.getByRole('textbox', { name: 'Message' }).waitFor()
    await ada.getByRole('heading', { name: 'Grace Hopper', level: 2 }).getByRole('button').click()
    const profile = dialog(ada, 'Grace Hopper')
    await profile.getByRole('button', { name: 'Block', exact: true }).click()
    await profile.getByText('You block Grace Hopper: unblock them to send a message.').waitFor()
    await profile.getByRole('button', { name: 'Close' }).click()

    // Ada's chat: no Message box, and the same words as the profile.
    const note = ada.getByRole('note').filter({ hasText: 'You block Grace Hopper: unblock them to send a message.' })
    await note.waitFor()
    expect(await ada.getByRole('textbox', { name: 'Message' }).count()).toBe(0)

    // Grace's chat with Ada, opened afresh, says what her profile of Ada says.
    await conversation(grace, FIRST_GROUP).click()
    await chat(grace, 'Ada Lovelace').click()
    await grace.getByRole('note').filter({ hasText: 'Ada Lovelace is not accepting messages from you.' }).waitFor()
    expect(await grace.getByRole('textbox', { name: 'Message' }).count()).toBe(0)
    await grace.getByRole('heading', { name: 'Ada Lovelace', level: 2 }).getByRole('button').click()
    const hers = dialog(grace, 'Ada Lovelace')
    await hers.getByText('Ada Lovelace is not accepting messages from you.').waitFor()
    await hers.getByRole('button', { name: 'Close' }).click()

    // Unblock from the chat: the Message box is back, and a message goes through.
    await note.getByRole('button', { name: 'Unblock' }).click()
    await send(ada, 'Sorry, wrong button')
    await grace.getByRole('list', { name: 'Messages' }).getByText('Sorry, wrong button').waitFor()
    await grace.getByRole('textbox', { name: 'Message' }).waitFor()
    expect(world.pageErrors).toEqual([])
  })

  it('Delete group takes the name as Ada sees it, whatever invisible direction marks it holds', async () => {
    // As pasted from mixed-direction text: marks around the Hebrew word that nobody sees or types.
    const pasted = 'Crew \u200fשלום\u200e 2'
    const seen = 'Crew שלום 2'
    await fresh(ada)
    await createGroup(ada, pasted, 'שלום')
    await ada.getByRole('button', { name: 'Group settings' }).click()
    const settings = dialog(ada, 'Group settings')
    await settings.getByRole('textbox', { name: /to delete the group for everyone/ }).fill(seen)
    await settings.getByRole('button', { name: 'Delete group' }).click()
    await expect.poll(() => conversation(ada, 'שלום').count()).toBe(0)
    expect(world.pageErrors).toEqual([])
  })
})
