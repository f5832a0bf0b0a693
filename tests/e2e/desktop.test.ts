// The desktop half of the app as two people use it in browser mode: Ada's status, her
// mutes and her settings decide which of Grace's messages reach her as notifications and in what
// words, a group mute lands on the service and ends when the service's clock says so, and the
// unread count reaches the tab's title.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { BrowserApp } from '../../src/main/browser/app'
import { connection, conversation, EndToEnd, FIRST_GROUP, send } from './support'

/** Where Grace writes to Ada. */
const GROUP = FIRST_GROUP
/** Where Ada looks meanwhile, so the messages arrive in a conversation she is not looking at. */
const ELSEWHERE = 'Launch Team'
/** The group Ada mutes: only her, Grace and Katherine are in it. */
const MUTED_GROUP = 'Book Club'

/**
 * Stands in for the browser's permission prompt and records every notification the page makes.
 * The page's own `Notification` stays underneath (the context has the permission), so each one is
 * still really shown; only its construction is written down, into `window.__notifications`.
 */
const NOTIFICATION_RECORDER = `(() => {
  const Shown = window.Notification
  const recorded = []
  Object.defineProperty(window, '__notifications', { value: recorded })
  class RecordedNotification extends Shown {
    constructor(title, options) {
      recorded.push({ title, body: options?.body ?? '' })
      super(title, options)
    }
    static get permission() {
      return 'granted'
    }
    static requestPermission() {
      return Promise.resolve('granted')
    }
  }
  window.Notification = RecordedNotification
})()`

interface RecordedNotification {
  title: string
  body: string
}

type Status = 'Active' | 'Away' | 'Do not disturb'

let world: EndToEnd

beforeAll(async () => {
  world = await EndToEnd.start()
})

afterAll(async () => {
  await world?.close()
})

function notificationsIn(page: Page): Promise<RecordedNotification[]> {
  return page.evaluate<RecordedNotification[]>('window.__notifications')
}

/** Picks a status from the header's Status menu and waits until the header says it is in force. */
async function chooseStatus(page: Page, status: Status): Promise<void> {
  await page.getByRole('button', { name: 'Status', exact: true }).click()
  await page.getByRole('menuitemradio', { name: status, exact: true }).click()
  await expect.poll(() => page.getByText(status, { exact: true }).filter({ visible: true }).count()).toBe(1)
}

/** Opens a conversation from the list and waits until it is the one shown. */
async function open(page: Page, name: string): Promise<void> {
  await conversation(page, name).click()
  await expect.poll(() => conversation(page, name).getAttribute('aria-current')).toBe('true')
}

interface GroupMember {
  user_id: string
  muted: boolean
}

describe('status, mutes and notifications between two people', () => {
  let ada: Page
  let adaApp: BrowserApp
  let grace: Page

  it('signs both in, Ada with notifications recorded', async () => {
    const opened = await world.openApp('ada', { initScript: NOTIFICATION_RECORDER, permissions: ['notifications'] })
    ada = opened.page
    adaApp = opened.app
    grace = (await world.openApp('grace')).page
    await world.signIn(ada, world.account('Ada'))
    await world.signIn(grace, world.account('Grace'))
    await expect.poll(() => connection(ada)).toBe('Connected')
    await expect.poll(() => connection(grace)).toBe('Connected')
    await open(ada, ELSEWHERE)
    await open(grace, GROUP)
    expect(await notificationsIn(ada)).toEqual([])
  })

  it('shows no notification for a message while Ada is on Do not disturb, though it still counts', async () => {
    await chooseStatus(ada, 'Do not disturb')

    await send(grace, 'Are you around this afternoon?')
    await expect.poll(() => conversation(ada, GROUP).textContent()).toMatch(/1 unread/)
    // The message is in; give a notification that would follow it every chance to show.
    await ada.waitForTimeout(1_000)
    expect(adaApp.notifications).toEqual([])
    expect(await notificationsIn(ada)).toEqual([])
    expect(await ada.title()).toBe('(1) Parley')
    expect(world.pageErrors).toEqual([])
  })

  it('shows the next message as a notification once Ada is Active again', async () => {
    await chooseStatus(ada, 'Active')

    await send(grace, 'Coffee at three?')
    await expect
      .poll(() => notificationsIn(ada), { timeout: 30_000 })
      .toEqual([{ title: GROUP, body: 'Grace: Coffee at three?' }])
    expect(world.pageErrors).toEqual([])
  })

  it('counts unread messages in the tab title, and drops the count once they are read', async () => {
    await open(ada, GROUP)
    await expect.poll(() => ada.title()).toBe('Parley')
    await open(ada, ELSEWHERE)

    await send(grace, 'One more thing about Saturday')
    await expect.poll(() => ada.title(), { timeout: 30_000 }).toBe('(1) Parley')

    await open(ada, GROUP)
    await expect.poll(() => ada.title()).toBe('Parley')
    expect(world.pageErrors).toEqual([])
  })

  it('holds notifications back while they are muted for an hour, and shows the next once turned back on', async () => {
    await open(ada, ELSEWHERE)
    const before = await notificationsIn(ada)
    await ada.getByRole('button', { name: 'Status', exact: true }).click()
    await ada.getByRole('menuitem', { name: 'Mute notifications for 1 hour' }).click()
    await expect.poll(() => ada.getByText(/^Notifications muted until /).count()).toBe(1)

    await send(grace, 'Lunch at the usual place?')
    await expect.poll(() => conversation(ada, GROUP).textContent()).toMatch(/1 unread/)
    await ada.waitForTimeout(1_000)
    expect(await notificationsIn(ada)).toEqual(before)

    await ada.getByRole('button', { name: 'Status', exact: true }).click()
    await ada.getByRole('menuitem', { name: 'Turn notifications back on' }).click()
    await expect.poll(() => ada.getByText(/^Notifications muted/).count()).toBe(0)
    await send(grace, 'Or somewhere new?')
    await expect
      .poll(() => notificationsIn(ada), { timeout: 30_000 })
      .toEqual([...before, { title: GROUP, body: 'Grace: Or somewhere new?' }])

    await open(ada, GROUP)
    expect(world.pageErrors).toEqual([])
  })

  it('says only who wrote once message text is turned off in Settings', async () => {
    await ada.getByRole('button', { name: 'Settings', exact: true }).click()
    const settings = ada.getByRole('dialog', { name: 'Settings' })
    await settings.getByRole('checkbox', { name: 'Show message text in notifications' }).uncheck()
    await settings.getByRole('button', { name: 'Close' }).click()
    await open(ada, ELSEWHERE)
    const before = await notificationsIn(ada)

    await send(grace, 'The password is swordfish')
    await expect
      .poll(() => notificationsIn(ada), { timeout: 30_000 })
      .toEqual([...before, { title: GROUP, body: 'New message from Grace' }])

    await open(ada, GROUP)
    expect(world.pageErrors).toEqual([])
  })

  /** What the service holds about the muted group's members, read over a token of Ada's own. */
  let mutedGroupMembers: () => Promise<GroupMember[]>
  let adaId: string
  const adaIsMuted = async (): Promise<boolean | undefined> =>
    (await mutedGroupMembers()).find((member) => member.user_id === adaId)?.muted

  it('mutes a group for an hour on the service, where its members show the mute for Ada alone', async () => {
    // Another device of Ada's, signed in over REST: the account's view, not the app's.
    const token = await world.restToken(world.account('Ada'), 'e2e-desktop-check')
    adaId = (await world.get<{ response: { id: string } }>('/v3/users/me', token)).response.id
    const groups = await world.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', token)
    const groupId = groups.response.find((group) => group.name === MUTED_GROUP)?.id
    expect(groupId).toBeDefined()
    mutedGroupMembers = async () =>
      (await world.get<{ response: { members: GroupMember[] } }>(`/v3/groups/${groupId}`, token)).response.members
    expect(await adaIsMuted()).toBe(false)

    await open(ada, MUTED_GROUP)
    await ada.getByRole('button', { name: 'Conversation options' }).click()
    await ada.getByRole('menuitem', { name: 'Mute for 1 hour' }).click()
    await expect.poll(() => conversation(ada, MUTED_GROUP).getByRole('img', { name: 'Muted' }).count()).toBe(1)
    await expect.poll(() => ada.getByRole('region', { name: MUTED_GROUP }).getByText(/Muted until/).count()).toBe(1)

    expect(await adaIsMuted()).toBe(true)
    expect((await mutedGroupMembers()).filter((member) => member.muted).map((member) => member.user_id)).toEqual([adaId])
    expect(world.pageErrors).toEqual([])
  })

  it('neither notifies Ada of a message in the muted group nor counts it in the tab title', async () => {
    await open(ada, ELSEWHERE)
    const before = await notificationsIn(ada)
    await open(grace, MUTED_GROUP)

    await send(grace, 'Chapter three for Thursday?')
    await expect.poll(() => conversation(ada, MUTED_GROUP).textContent()).toMatch(/1 unread/)
    await ada.waitForTimeout(1_000)
    expect(await notificationsIn(ada)).toEqual(before)
    expect(await ada.title()).toBe('Parley')
    expect(world.pageErrors).toEqual([])
  })

  // Last, since moving the service clock an hour ahead puts the apps' push timestamps out of bounds.
  it('reads the group unmuted once the service clock passes the hour the mute was set for', async () => {
    // MU1's `muted_until` lies about an hour ahead: still in force a minute short of the hour,
    // over a minute after it.
    await world.advanceServiceClock(59 * 60)
    expect(await adaIsMuted()).toBe(true)
    await world.advanceServiceClock(2 * 60)
    expect(await adaIsMuted()).toBe(false)
    expect(world.pageErrors).toEqual([])
  })
})
