// The desktop half of core against the real local service: muting groups on the service (MU1,
// MU2) and chats on this device, across restarts and devices; what a mute, Do not disturb and
// the global mute let through; and what the badge counts.
import { describe, expect, it } from 'vitest'
import type { Json, TestService, TestUser } from '../../server/test/support'
import { chatId, type ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import { launchApp, signInThroughSms, testScope, type AppHarness, type LaunchOptions } from '../support/app-harness'

const HOUR = 60 * 60 * 1000

const { cleanups, service: serviceFor } = testScope()

const launch = (service: TestService, options: LaunchOptions = {}): AppHarness => launchApp(service.origin, cleanups, options)

interface BookClub {
  ada: TestUser
  grace: TestUser
  groupId: ConversationId
}

/** Grace's group, with Ada in it under the nickname Countess. */
async function bookClub(service: TestService): Promise<BookClub> {
  const ada = await service.signUp({ name: 'Ada' })
  const grace = await service.signUp({ name: 'Grace' })
  const group = await service.createGroup(grace, { name: 'Book Club' })
  const added = await service.call('POST', `/v3/groups/${group.id}/members/add`, {
    token: grace.token,
    attest: true,
    body: { members: [{ user_id: ada.id, nickname: 'Countess' }] }
  })
  expect(added.status).toBe(202)
  return { ada, grace, groupId: String(group.id) }
}

/** `user`'s entry among the group's members, as the service shows it (G4). */
async function memberEntry(service: TestService, groupId: ConversationId, user: TestUser): Promise<Json> {
  const group = await service.call('GET', `/v3/groups/${groupId}`, { token: user.token })
  expect(group.status).toBe(200)
  return group.body.response.members.find((member: Json) => member.user_id === user.id)
}

async function listed(app: AppHarness, conversationId: ConversationId, skip = 0): Promise<Conversation> {
  const list = await app.events.waitFor('conversations:changed', (conversations) => conversations.some((c) => c.id === conversationId), 10_000, skip)
  const conversation = list.find((c) => c.id === conversationId)
  if (conversation === undefined) throw new Error('unreachable')
  return conversation
}

/** Signs Ada in on a device of her own, her group in the list, the window in the background. */
async function adaAtHer(service: TestService, club: BookClub, options: LaunchOptions = {}): Promise<AppHarness> {
  const app = launch(service, options)
  await signInThroughSms(app, service, club.ada)
  await listed(app, club.groupId)
  app.window.focused = false
  return app
}

/** Resolves once `check` holds: for what core does without emitting an event, such as showing a notification of a reaction. */
async function eventually(check: () => boolean): Promise<void> {
  for (let waited = 0; !check(); waited += 50) {
    if (waited >= 10_000) throw new Error('timed out waiting')
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

async function react(service: TestService, reactor: TestUser, conversationId: ConversationId, messageId: string, code: string | null): Promise<void> {
  const action = code === null ? 'unlike' : 'like'
  const result = await service.call('POST', `/v3/messages/${conversationId}/${messageId}/${action}`, {
    token: reactor.token,
    ...(code === null ? {} : { body: { like_icon: { type: 'unicode', code } } })
  })
  expect(result.status).toBe(200)
}

describe('muting a group', () => {
  it('mutes it on the service for an hour (MU1), keeps the end across a restart, and shows it on another device', async () => {
    const service = await serviceFor()
    const club = await bookClub(service)
    const app = await adaAtHer(service, club)

    const before = Date.now()
    const muted = await app.call('conversations:mute', { conversationId: club.groupId, duration: 'oneHour' })
    const until = muted.mute?.until ?? 0
    expect(until).toBeGreaterThanOrEqual(before + HOUR)
    expect(until).toBeLessThanOrEqual(Date.now() + HOUR)
    expect(await memberEntry(service, club.groupId, club.ada)).toMatchObject({ muted: true })
    expect(await memberEntry(service, club.groupId, club.grace)).toMatchObject({ muted: false })

    await app.core.stop()
    const restarted = launch(service, { vault: app.vault, preferences: app.preferences })
    await restarted.core.start()
    expect((await listed(restarted, club.groupId)).mute).toEqual({ until })

    // Another device learns of the mute from the service, which shows no end.
    const laptop = launch(service)
    await signInThroughSms(laptop, service, club.ada)
    expect((await listed(laptop, club.groupId)).mute).toEqual({ until: null })
  })

  it('asks the service for the hour the user chose, by the app\'s clock, and the service then ends it on its own', async () => {
    const service = await serviceFor()
    const club = await bookClub(service)
    // The app's clock is a day off the service's: only the duration may cross between them.
    const skewed = (): number => Date.now() + 24 * HOUR
    const app = await adaAtHer(service, club, { now: skewed })
    const muted = await app.call('conversations:mute', { conversationId: club.groupId, duration: 'oneHour' })
    expect(muted.mute?.until).toBeGreaterThan(Date.now() + 24 * HOUR)

    await service.advanceClock(59 * 60)
    expect(await memberEntry(service, club.groupId, club.ada)).toMatchObject({ muted: true })
    await service.advanceClock(2 * 60)
    expect(await memberEntry(service, club.groupId, club.ada)).toMatchObject({ muted: false })
  })

  it('unmutes it on the service (MU2), and it stays unmuted after a restart', async () => {
    const service = await serviceFor()
    const club = await bookClub(service)
    const app = await adaAtHer(service, club)
    await app.call('conversations:mute', { conversationId: club.groupId, duration: 'untilTurnedOn' })
    expect(await memberEntry(service, club.groupId, club.ada)).toMatchObject({ muted: true })

    const unmuted = await app.call('conversations:unmute', { conversationId: club.groupId })
    expect(unmuted.mute).toBeNull()
    expect(await memberEntry(service, club.groupId, club.ada)).toMatchObject({ muted: false })

    await app.core.stop()
    const restarted = launch(service, { vault: app.vault, preferences: app.preferences })
    await restarted.core.start()
    expect((await listed(restarted, club.groupId)).mute).toBeNull()
  })

  it('reads a mute ended on the service as ended, though this device remembered a later end', async () => {
    const service = await serviceFor()
    const club = await bookClub(service)
    const app = await adaAtHer(service, club)
    await app.call('conversations:mute', { conversationId: club.groupId, duration: 'eightHours' })
    // Unmuted from another device: nothing is pushed, the next list says so.
    expect((await service.call('POST', `/v2/groups/${club.groupId}/memberships/unmute`, { token: club.ada.token })).status).toBe(200)

    await app.core.stop()
    const restarted = launch(service, { vault: app.vault, preferences: app.preferences })
    await restarted.core.start()
    expect((await listed(restarted, club.groupId)).mute).toBeNull()
    expect(restarted.preferences.get('groupMuteEnds')).toEqual({ [club.ada.id]: {} })
  })

  it('changes no mute when the service refuses to, and a group that answers 404 leaves the list', async () => {
    const service = await serviceFor()
    const club = await bookClub(service)
    const app = await adaAtHer(service, club)
    const { mute } = await app.call('conversations:mute', { conversationId: club.groupId, duration: 'oneHour' })
    expect(mute).not.toBeNull()
    const ends = app.preferences.get('groupMuteEnds')
    // Grace deletes the group; Ada's list does not know yet.
    expect((await service.call('POST', `/v3/groups/${club.groupId}/destroy`, { token: club.grace.token })).status).toBe(200)

    await expect(app.call('conversations:unmute', { conversationId: club.groupId })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    // The group is gone (docs/protocol.md §14.5 tells nobody): it leaves the list at its first 404.
    await expect.poll(async () => (await app.call('conversations:list', {})).some((c) => c.id === club.groupId)).toBe(false)
    await expect(app.call('conversations:mute', { conversationId: club.groupId, duration: 'untilTurnedOn' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    expect(app.preferences.get('groupMuteEnds')).toEqual(ends)
  })

  it('leaves a muted group\'s messages out of the badge, and counts a chat\'s', async () => {
    const service = await serviceFor()
    const club = await bookClub(service)
    const app = await adaAtHer(service, club)
    await app.call('conversations:mute', { conversationId: club.groupId, duration: 'oneHour' })

    await service.sendGroupMessage(club.grace, club.groupId, 'chapter three tonight')
    const group = await app.events.waitFor('conversations:changed', (list) => list.some((c) => c.id === club.groupId && c.unreadCount === 1))
    expect(group.find((c) => c.id === club.groupId)?.mute).not.toBeNull()
    expect(app.events.all('desktop:changed').at(-1)?.unreadCount).toBe(0)
    expect((await app.call('desktop:get', {})).unreadCount).toBe(0)

    await service.sendDirectMessage(club.grace, club.ada.id, 'and bring the book')
    const state = await app.events.waitFor('desktop:changed', (changed) => changed.unreadCount === 1)
    expect(state.unreadCount).toBe(1)
    expect(app.display.shown.at(-1)?.unreadCount).toBe(1)
  })

  it('lets through a mention of your name or your nickname in the group, and nothing else', async () => {
    const service = await serviceFor()
    const club = await bookClub(service)
    const app = await adaAtHer(service, club)
    expect((await listed(app, club.groupId)).myNickname).toBe('Countess')
    await app.call('conversations:mute', { conversationId: club.groupId, duration: 'untilTurnedOn' })

    await service.sendGroupMessage(club.grace, club.groupId, 'who has the book?')
    await service.sendGroupMessage(club.grace, club.groupId, '@countess do you?')
    await app.events.waitFor('messages:received', (message) => message.text === '@countess do you?')
    expect(app.notifier.shown.map((shown) => shown.body)).toEqual(['Grace: @countess do you?'])

    await service.sendGroupMessage(club.grace, club.groupId, 'or @Ada, perhaps')
    await app.events.waitFor('messages:received', (message) => message.text === 'or @Ada, perhaps')
    expect(app.notifier.shown.map((shown) => shown.body)).toEqual(['Grace: @countess do you?', '2 new messages in Book Club'])
  })

  it('lets through a reaction to your message, naming who reacted as the group knows them, and not one taken back', async () => {
    const service = await serviceFor()
    const club = await bookClub(service)
    const nickname = await service.call('POST', `/v3/groups/${club.groupId}/memberships/update`, {
      token: club.grace.token,
      body: { membership: { nickname: 'Amazing Grace' } }
    })
    expect(nickname.status).toBe(200)
    const app = await adaAtHer(service, club)
    await app.call('conversations:mute', { conversationId: club.groupId, duration: 'oneHour' })
    const mine = await service.sendGroupMessage(club.ada, club.groupId, 'Cake on Friday')
    const hers = await service.sendGroupMessage(club.grace, club.groupId, 'Yes please')

    await react(service, club.grace, club.groupId, String(mine.id), '🎉')
    await eventually(() => app.notifier.shown.length === 1)
    expect(app.notifier.shown[0]).toMatchObject({ key: club.groupId, title: 'Book Club', body: 'Amazing Grace reacted 🎉 to your message: "Cake on Friday"' })

    // Taken back, then a reaction to her own message, then Ada's own: none is news.
    await react(service, club.grace, club.groupId, String(mine.id), null)
    await react(service, club.grace, club.groupId, String(hers.id), '👍')
    await react(service, club.ada, club.groupId, String(mine.id), '❤️')
    await react(service, club.grace, club.groupId, String(mine.id), '🔥')
    // Pushes on Ada's channel arrive in order, so the second notification comes after any the others could have made.
    await eventually(() => app.notifier.shown.length === 2)
    expect(app.notifier.shown.map((shown) => shown.body)).toEqual([
      'Amazing Grace reacted 🎉 to your message: "Cake on Friday"',
      'Amazing Grace reacted 🔥 to your message: "Cake on Friday"'
    ])
  })

  it('names the other participant of a chat as who reacted there', async () => {
    const service = await serviceFor()
    const club = await bookClub(service)
    const app = await adaAtHer(service, club)
    const mine = await service.sendDirectMessage(club.ada, club.grace.id, 'Lunch?')
    const chat = chatId(club.ada.id, club.grace.id)
    await listed(app, chat)

    await react(service, club.grace, chat, String(mine.id), '👍')
    await eventually(() => app.notifier.shown.length === 1)
    expect(app.notifier.shown[0]).toMatchObject({ key: chat, title: 'Grace', body: 'Grace reacted 👍 to your message: "Lunch?"' })
  })
})

describe('muting a chat', () => {
  it('keeps the mute on this device only: across a restart, but not on another device', async () => {
    const service = await serviceFor()
    const club = await bookClub(service)
    const app = await adaAtHer(service, club)
    await service.sendDirectMessage(club.grace, club.ada.id, 'hello')
    const chat = chatId(club.ada.id, club.grace.id)
    await listed(app, chat)

    const muted = await app.call('conversations:mute', { conversationId: chat, duration: 'untilTurnedOn' })
    expect(muted.mute).toEqual({ until: null })
    await service.sendDirectMessage(club.grace, club.ada.id, 'still there?')
    await app.events.waitFor('messages:received', (message) => message.text === 'still there?')
    expect(app.notifier.shown.map((shown) => shown.body)).toEqual(['hello'])

    await app.core.stop()
    const restarted = launch(service, { vault: app.vault, preferences: app.preferences })
    await restarted.core.start()
    expect((await listed(restarted, chat)).mute).toEqual({ until: null })

    const laptop = launch(service)
    await signInThroughSms(laptop, service, club.ada)
    expect((await listed(laptop, chat)).mute).toBeNull()
  })
})

describe('Do not disturb and the global mute', () => {
  it('notifies nothing during Do not disturb, yet counts the message; Active notifies again', async () => {
    const service = await serviceFor()
    const club = await bookClub(service)
    const app = await adaAtHer(service, club)
    expect((await app.call('presence:set', { status: 'dnd' })).status).toBe('dnd')

    await service.sendGroupMessage(club.grace, club.groupId, 'quiet please')
    await app.events.waitFor('desktop:changed', (state) => state.unreadCount === 1)
    expect(app.notifier.shown).toEqual([])

    await app.call('presence:set', { status: 'active' })
    await service.sendGroupMessage(club.grace, club.groupId, 'and now?')
    await app.events.waitFor('messages:received', (message) => message.text === 'and now?')
    expect(app.notifier.shown.map((shown) => shown.body)).toEqual(['Grace: and now?'])
  })

  it('silences everything, a mention too, until the clock passes the end of the mute', async () => {
    const service = await serviceFor()
    const club = await bookClub(service)
    let clock = Date.now()
    const app = await adaAtHer(service, club, { now: () => clock })
    const state = await app.call('notifications:mute', { duration: 'oneHour' })
    expect(state.mute).toEqual({ until: clock + HOUR })

    await service.sendGroupMessage(club.grace, club.groupId, '@Ada quiet hour?')
    await app.events.waitFor('messages:received', (message) => message.text === '@Ada quiet hour?')
    expect(app.notifier.shown).toEqual([])

    clock += HOUR
    app.core.resumed()
    expect(app.events.all('desktop:changed').at(-1)?.mute).toBeNull()
    await service.sendGroupMessage(club.grace, club.groupId, 'hour is up')
    await app.events.waitFor('messages:received', (message) => message.text === 'hour is up')
    expect(app.notifier.shown.map((shown) => shown.body)).toEqual(['Grace: hour is up'])
  })
})
