// Main's core against the real local service for what the user does to a message: reactions
// (RX1, RX2) and the likes lists (RX3–RX5), edits (MS4, C4), deletes (MS5), pins (MS6–MS8, C5),
// each seen live by the other side through messages:updated.
import { describe, expect, it } from 'vitest'
import { startTestService, type TestService, type TestUser } from '../../server/test/support'
import type { Message } from '@shared/messages'
import { launchApp, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'

const { cleanups } = testScope()

interface Scene {
  service: TestService
  conversationId: string
  grace: TestUser
  alan: TestUser
  graceApp: AppHarness
  alanApp: AppHarness
  /** Grace's message, sent before either app signed in. */
  messageId: string
}

async function twoPeople(): Promise<{ service: TestService; grace: TestUser; alan: TestUser }> {
  const service = await startTestService()
  cleanups.push(() => service.close())
  const grace = await service.signUp({ name: 'Grace' })
  const alan = await service.signUp({ name: 'Alan' })
  return { service, grace, alan }
}

/** Both sign in and open the conversation: each then follows it live. */
async function openOnBoth(service: TestService, grace: TestUser, alan: TestUser, find: (app: AppHarness) => Promise<string>): Promise<Omit<Scene, 'messageId'>> {
  const graceApp = launchApp(service.origin, cleanups)
  const alanApp = launchApp(service.origin, cleanups)
  let conversationId = ''
  for (const [app, user] of [
    [graceApp, grace],
    [alanApp, alan]
  ] as const) {
    await signInThroughSms(app, service, user)
    conversationId = await find(app)
    await app.call('conversations:open', { conversationId })
  }
  return { service, conversationId, grace, alan, graceApp, alanApp }
}

/** Grace owns a group with Alan in it and has written in it. */
async function inAGroup(): Promise<Scene> {
  const { service, grace, alan } = await twoPeople()
  const group = await service.createGroup(grace, { name: 'Lunch club' })
  const groupId = String(group.id)
  await service.call('POST', `/v3/groups/${groupId}/members/add`, {
    token: grace.token,
    attest: true,
    body: { members: [{ user_id: alan.id, nickname: 'Alan' }] }
  })
  const message = await service.sendGroupMessage(grace, groupId, 'Noodles at noon?')
  const scene = await openOnBoth(service, grace, alan, async (app) => {
    await app.events.waitFor('conversations:changed', (list) => list.some((c) => c.id === groupId))
    return groupId
  })
  return { ...scene, messageId: String(message.id) }
}

/** Grace has written to Alan directly. */
async function inAChat(): Promise<Scene> {
  const { service, grace, alan } = await twoPeople()
  const message = await service.sendDirectMessage(grace, alan.id, 'Noodles at noon?')
  const scene = await openOnBoth(service, grace, alan, async (app) => {
    const list = await app.events.waitFor('conversations:changed', (conversations) => conversations.some((c) => c.kind === 'dm'))
    return list.find((c) => c.kind === 'dm')?.id ?? ''
  })
  return { ...scene, messageId: String(message.id) }
}

/** The next `messages:updated` of this message that matches, after those already seen. */
function nextUpdate(app: AppHarness, messageId: string, matches: (message: Message) => boolean): Promise<Message> {
  const seen = app.events.all('messages:updated').length
  return app.events.waitFor('messages:updated', (message) => message.id === messageId && matches(message), 10_000, seen)
}

describe('reactions', () => {
  it('reacts, replaces and takes back a reaction, and the other side sees each change live', async () => {
    const { conversationId, messageId, alan, graceApp, alanApp } = await inAGroup()

    const seenByGrace = nextUpdate(graceApp, messageId, (message) => message.reactions?.[0]?.emoji === '👍')
    expect(await alanApp.call('messages:react', { conversationId, messageId, emoji: '👍' })).toEqual([{ emoji: '👍', userIds: [alan.id] }])
    expect((await seenByGrace).reactions).toEqual([{ emoji: '👍', userIds: [alan.id] }])

    // One reaction per person: a new one replaces the old.
    expect(await alanApp.call('messages:react', { conversationId, messageId, emoji: '❤️' })).toEqual([{ emoji: '❤️', userIds: [alan.id] }])

    const clearedForGrace = nextUpdate(graceApp, messageId, (message) => (message.reactions ?? []).length === 0)
    expect(await alanApp.call('messages:unreact', { conversationId, messageId })).toEqual([])
    expect((await clearedForGrace).text).toBe('Noodles at noon?')
  })

  it('lists the most liked messages per period, what you reacted to, and your messages others liked', async () => {
    const { service, conversationId, messageId, grace, graceApp, alanApp } = await inAGroup()
    const unliked = await service.sendGroupMessage(grace, conversationId, 'Or tacos?')
    await alanApp.call('messages:react', { conversationId, messageId, emoji: '🔥' })

    const ids = (messages: Message[]): string[] => messages.map((message) => message.id)
    const alanSees = await alanApp.call('messages:mostLiked', { conversationId })
    expect(ids(alanSees.day)).toEqual([messageId])
    expect(ids(alanSees.week)).toEqual([messageId])
    expect(ids(alanSees.month)).toEqual([messageId])
    expect(ids(alanSees.mine)).toEqual([messageId])
    expect(alanSees.forMe).toEqual([])
    expect(alanSees.day[0]?.reactions).toEqual([{ emoji: '🔥', userIds: [expect.any(String)] }])

    const graceSees = await graceApp.call('messages:mostLiked', { conversationId })
    expect(ids(graceSees.forMe)).toEqual([messageId])
    expect(graceSees.mine).toEqual([])
    expect(ids(graceSees.day)).not.toContain(String(unliked.id))
  })

  it('reacts in a chat too, where Most liked is not offered', async () => {
    const { conversationId, messageId, grace, graceApp, alanApp } = await inAChat()
    const seenByAlan = nextUpdate(alanApp, messageId, (message) => (message.reactions ?? []).length === 1)
    await graceApp.call('messages:react', { conversationId, messageId, emoji: '🫶' })
    expect((await seenByAlan).reactions).toEqual([{ emoji: '🫶', userIds: [grace.id] }])
    await expect(alanApp.call('messages:mostLiked', { conversationId })).rejects.toMatchObject({ code: 'VALIDATION' })
  })
})

describe('edits', () => {
  it('edits your own message and the other side sees the new text live', async () => {
    const { conversationId, messageId, graceApp, alanApp } = await inAGroup()
    const seenByAlan = nextUpdate(alanApp, messageId, (message) => message.text === 'Noodles at one?')
    const edited = await graceApp.call('messages:edit', { conversationId, messageId, text: 'Noodles at one?' })
    expect(edited).toMatchObject({ id: messageId, text: 'Noodles at one?', editedAt: expect.any(Number) })
    expect((await seenByAlan).editedAt).toBe(edited.editedAt)
    // The editor's own renderer hears of it too, even before the push.
    expect(graceApp.events.all('messages:updated').some((message) => message.id === messageId && message.text === 'Noodles at one?')).toBe(true)
  })

  it('neither adds to the history, nor counts as unread, nor notifies the notice an edit or a deletion sends to each member', async () => {
    const { service, conversationId, messageId, grace, graceApp, alanApp } = await inAGroup()
    await alanApp.call('conversations:close', { conversationId })
    const received = alanApp.events.all('messages:received').length
    await graceApp.call('messages:edit', { conversationId, messageId, text: 'Noodles at one?' })
    await graceApp.call('messages:delete', { conversationId, messageId })
    // Sent after both notices on the same channel, so it arrives after them.
    await service.sendGroupMessage(grace, conversationId, 'See you there')
    await alanApp.events.waitFor('messages:received', (message) => message.text === 'See you there', 10_000, received)
    expect(alanApp.events.all('messages:received').slice(received).map((message) => message.text)).toEqual(['See you there'])
    expect((await alanApp.call('conversations:list', {})).find((c) => c.id === conversationId)?.unreadCount).toBe(1)
    expect(alanApp.notifier.shown.map((notification) => notification.body)).toEqual([expect.stringContaining('See you there')])
  })

  it("refuses to edit someone else's message, in the user's words", async () => {
    const { conversationId, messageId, alanApp } = await inAGroup()
    await expect(alanApp.call('messages:edit', { conversationId, messageId, text: 'Mine now' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: expect.stringContaining('can no longer be edited')
    })
  })

  it('edits in a chat (C4)', async () => {
    const { conversationId, messageId, graceApp, alanApp } = await inAChat()
    const seenByAlan = nextUpdate(alanApp, messageId, (message) => message.text === 'Tacos instead')
    await graceApp.call('messages:edit', { conversationId, messageId, text: 'Tacos instead' })
    await seenByAlan
  })

  it('refuses an edit once the 15 minutes are over', async () => {
    const { service, conversationId, messageId, graceApp } = await inAGroup()
    await service.advanceClock(15 * 60 + 1)
    await expect(graceApp.call('messages:edit', { conversationId, messageId, text: 'Too late' })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'This message can no longer be edited: only your own messages can be, for 15 minutes after sending.'
    })
  })
})

describe('deletes', () => {
  it('knows your role and the group’s deletion mode, deletes as sender, and the other side sees the tombstone live', async () => {
    const { conversationId, messageId, graceApp, alanApp } = await inAGroup()
    const graceList = await graceApp.call('conversations:list', {})
    const alanList = await alanApp.call('conversations:list', {})
    expect(graceList.find((c) => c.id === conversationId)).toMatchObject({ myRole: 'owner', deletionMode: ['admin', 'sender'] })
    expect(alanList.find((c) => c.id === conversationId)).toMatchObject({ myRole: 'user' })

    await expect(alanApp.call('messages:delete', { conversationId, messageId })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'You cannot delete this message: this conversation does not let you.'
    })
    const seenByAlan = nextUpdate(alanApp, messageId, (message) => message.deleted)
    expect(await graceApp.call('messages:delete', { conversationId, messageId })).toBeNull()
    expect(await seenByAlan).toMatchObject({ deleted: true, text: 'This message was deleted' })
  })

  it('lets an admin delete what others wrote, as the mode allows', async () => {
    const { service, conversationId, alan, graceApp, alanApp } = await inAGroup()
    const alans = await service.sendGroupMessage(alan, conversationId, 'Spam')
    const seenByAlan = nextUpdate(alanApp, String(alans.id), (message) => message.deleted)
    await graceApp.call('messages:delete', { conversationId, messageId: String(alans.id) })
    await seenByAlan
  })

  it('refuses a delete the group’s mode does not allow, even to the owner', async () => {
    const { service, conversationId, messageId, grace, graceApp } = await inAGroup()
    const update = await service.call('POST', `/v3/groups/${conversationId}/update`, { token: grace.token, body: { message_deletion_mode: [] } })
    expect(update.status).toBe(200)
    await expect(graceApp.call('messages:delete', { conversationId, messageId })).rejects.toMatchObject({ code: 'FORBIDDEN' })
  })

  it('deletes your own message in a chat', async () => {
    const { conversationId, messageId, graceApp, alanApp } = await inAChat()
    await expect(alanApp.call('messages:delete', { conversationId, messageId })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    const seenByAlan = nextUpdate(alanApp, messageId, (message) => message.deleted)
    await graceApp.call('messages:delete', { conversationId, messageId })
    await seenByAlan
  })
})

describe('pins', () => {
  it('pins and unpins, lists pins for the other side, and takes a pin already made as made', async () => {
    const { conversationId, messageId, graceApp, alanApp } = await inAGroup()
    expect(await alanApp.call('messages:pinned', { conversationId })).toEqual([])

    await graceApp.call('messages:setPinned', { conversationId, messageId, pinned: true })
    const pins = await alanApp.call('messages:pinned', { conversationId })
    expect(pins).toMatchObject([{ id: messageId, text: 'Noodles at noon?', pinnedAt: expect.any(Number) }])

    // Alan pins it too, not having seen Grace do so: it stays pinned, no error.
    expect(await alanApp.call('messages:setPinned', { conversationId, messageId, pinned: true })).toBeNull()
    await alanApp.call('messages:setPinned', { conversationId, messageId, pinned: false })
    expect(await graceApp.call('messages:pinned', { conversationId })).toEqual([])
    expect(await graceApp.call('messages:setPinned', { conversationId, messageId, pinned: false })).toBeNull()
  })

  it('shows a pin and an unpin live on the other side, in a group', async () => {
    const { conversationId, messageId, graceApp, alanApp } = await inAGroup()
    const pinnedForAlan = nextUpdate(alanApp, messageId, (message) => message.pinnedAt !== undefined)
    await graceApp.call('messages:setPinned', { conversationId, messageId, pinned: true })
    expect(await pinnedForAlan).toMatchObject({ text: 'Noodles at noon?', pinnedAt: expect.any(Number) })
    const unpinnedForGrace = nextUpdate(graceApp, messageId, (message) => message.pinnedAt === undefined)
    await alanApp.call('messages:setPinned', { conversationId, messageId, pinned: false })
    await unpinnedForGrace
  })

  it('pins in a chat (C5 lists them)', async () => {
    const { conversationId, messageId, graceApp, alanApp } = await inAChat()
    await alanApp.call('messages:setPinned', { conversationId, messageId, pinned: true })
    expect((await graceApp.call('messages:pinned', { conversationId })).map((message) => message.id)).toEqual([messageId])
  })

  it('refuses actions in a conversation that is not yours', async () => {
    const { messageId, alanApp } = await inAGroup()
    await expect(alanApp.call('messages:setPinned', { conversationId: '999999', messageId, pinned: true })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
