// Main's core against the real local service for people: profiles with shared groups (U3), blocks
// (B1, B3, B4), contacts (R1–R5) and the user's own link (U1), and starting a direct message (C3).
import { randomUUID } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestService, TestUser } from '../../server/test/support'
import { chatId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { ContactCard } from '@shared/people'
import { launchApp, launchAppOnDisk, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'

const { cleanups, service: serviceForTest } = testScope()

/** A user signed in to a core of their own, connected to push. */
async function signedInApp(service: TestService, user: TestUser): Promise<AppHarness> {
  const app = launchApp(service.origin, cleanups)
  await signInThroughSms(app, service, user)
  return app
}

/** U1's `share_url`, as the service gives it to the user themself. */
async function shareUrlOf(service: TestService, user: TestUser): Promise<string> {
  const me = await service.call('GET', '/v3/users/me', { token: user.token })
  return me.body.response.share_url as string
}

async function blockAs(service: TestService, blocker: TestUser, blocked: TestUser): Promise<void> {
  const result = await service.call('POST', '/v3/blocks', { token: blocker.token, query: { user: blocker.id, otherUser: blocked.id } })
  expect(result.status).toBe(201)
}

async function unblockAs(service: TestService, blocker: TestUser, blocked: TestUser): Promise<void> {
  const result = await service.call('DELETE', '/v3/blocks', { token: blocker.token, query: { user: blocker.id, otherUser: blocked.id } })
  expect(result.status).toBe(200)
}

/** G5 by `owner`, then MB2 with `members`, if any. */
async function groupOf(service: TestService, owner: TestUser, name: string, members: TestUser[]): Promise<string> {
  const group = await service.createGroup(owner, { name })
  const groupId = String(group.id)
  if (members.length === 0) return groupId
  const added = await service.call('POST', `/v3/groups/${groupId}/members/add`, {
    token: owner.token,
    attest: true,
    body: { members: members.map((member) => ({ user_id: member.id, nickname: member.name })) }
  })
  expect(added.status).toBe(202)
  return groupId
}

const ids = (list: { id: string }[]): string[] => list.map((item) => item.id)

/** A card for someone's phone, written the way an address book might. */
const cardFor = (user: TestUser): ContactCard => ({ name: user.name, phone: user.phoneNumber.replace(' ', ' (') + ')' })

describe('profiles', () => {
  it('shows a person’s name, bio and the groups both are in, and whether they are a contact', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    await service.call('POST', '/v3/users/update', { token: grace.token, body: { bio: 'Compilers, mostly.' } })
    const lunch = await groupOf(service, grace, 'Lunch club', [ada])
    await groupOf(service, grace, 'Only Grace', [])
    const app = await signedInApp(service, ada)

    expect(await app.call('people:profile', { userId: grace.id })).toEqual({
      id: grace.id,
      name: 'Grace',
      avatarUrl: null,
      bio: 'Compilers, mostly.',
      canMessage: true,
      isContact: false,
      blockedByMe: false,
      sharedGroups: [{ id: lunch, name: 'Lunch club', avatarUrl: null }]
    })

    await app.call('contacts:addFromLink', { link: await shareUrlOf(service, grace) })
    expect(await app.call('people:profile', { userId: grace.id })).toMatchObject({ isContact: true })
  })

  it('says when nobody has that account', async () => {
    const service = await serviceForTest()
    const app = await signedInApp(service, await service.signUp({ name: 'Ada' }))
    await expect(app.call('people:profile', { userId: '987654321' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'This person’s account does not exist any more.'
    })
  })

  it('answers nothing before anyone signs in', async () => {
    const service = await serviceForTest()
    const grace = await service.signUp({ name: 'Grace' })
    const app = launchApp(service.origin, cleanups)
    await app.core.start()
    await expect(app.call('people:profile', { userId: grace.id })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    await expect(app.call('chats:start', { userId: grace.id })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
  })
})

describe('blocks', () => {
  it('blocks and unblocks someone, each answered with the fresh profile, and lists who is blocked', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    const alan = await service.signUp({ name: 'Alan' })
    const app = await signedInApp(service, ada)

    const blocked = await app.call('people:block', { userId: grace.id })
    expect(blocked).toMatchObject({ id: grace.id, blockedByMe: true, canMessage: false })
    // Blocking again changes nothing (B3 answers the existing block).
    expect(await app.call('people:block', { userId: grace.id })).toMatchObject({ blockedByMe: true })
    await app.call('people:block', { userId: alan.id })

    const list = await app.call('people:blocked', {})
    expect(list.map(({ id, name, avatarUrl }) => ({ id, name, avatarUrl }))).toEqual([
      { id: grace.id, name: 'Grace', avatarUrl: null },
      { id: alan.id, name: 'Alan', avatarUrl: null }
    ])
    for (const entry of list) expect(entry.blockedAt).toBeGreaterThan(1_600_000_000)

    expect(await app.call('people:unblock', { userId: grace.id })).toMatchObject({ blockedByMe: false, canMessage: true })
    expect(ids(await app.call('people:blocked', {}))).toEqual([alan.id])
    // Unblocking someone not blocked is no failure: they are unblocked, as asked.
    expect(await app.call('people:unblock', { userId: grace.id })).toMatchObject({ blockedByMe: false, canMessage: true })
  })

  it('shows that someone who blocks the user cannot be written to, without saying the user blocks them', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    const app = await signedInApp(service, ada)

    await blockAs(service, grace, ada)
    expect(await app.call('people:profile', { userId: grace.id })).toMatchObject({ canMessage: false, blockedByMe: false })
    expect(await app.call('people:blocked', {})).toEqual([])
  })

  it('refuses to block the user themself, or someone who does not exist', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const app = await signedInApp(service, ada)

    await expect(app.call('people:block', { userId: ada.id })).rejects.toMatchObject({ code: 'VALIDATION', message: 'You cannot block yourself.' })
    await expect(app.call('people:block', { userId: '987654321' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'This person’s account does not exist any more.'
    })
    await expect(app.call('people:unblock', { userId: '987654321' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})

describe('contacts', () => {
  it('adds a contact from their link, lists and removes them, and says when they are not a contact', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    const app = await signedInApp(service, ada)

    const profile = await app.call('contacts:addFromLink', { link: `  ${await shareUrlOf(service, grace)}\n` })
    expect(profile).toMatchObject({ id: grace.id, name: 'Grace', isContact: true })
    expect(await app.call('contacts:list', {})).toEqual([{ id: grace.id, name: 'Grace', avatarUrl: null, blocked: false, source: 'link' }])

    await app.call('people:block', { userId: grace.id })
    expect(await app.call('contacts:list', {})).toMatchObject([{ id: grace.id, blocked: true }])

    expect(await app.call('contacts:remove', { userId: grace.id })).toBeNull()
    expect(await app.call('contacts:list', {})).toEqual([])
    await expect(app.call('contacts:remove', { userId: grace.id })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'They are not in your contacts.'
    })
  })

  it('says what is wrong with a pasted text that is not a working contact link', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    const app = await signedInApp(service, ada)
    const graceLink = await shareUrlOf(service, grace)

    await expect(app.call('contacts:addFromLink', { link: 'Grace, the one from the conference' })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('That is not a contact link') as unknown
    })
    const wrongToken = graceLink.replace(/[A-Za-z0-9]{8}$/, (token) => (token === 'AAAAAAAA' ? 'BBBBBBBB' : 'AAAAAAAA'))
    await expect(app.call('contacts:addFromLink', { link: wrongToken })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'This contact link is not valid: it may be mistyped, or cut short.'
    })
    await expect(app.call('contacts:addFromLink', { link: `${service.origin}/contact/987654321/AAAAAAAA` })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'Nobody has this contact link: the account does not exist any more.'
    })
    // At another address, even with a name and a token that work here, nothing is sent.
    await expect(app.call('contacts:addFromLink', { link: graceLink.replace(service.origin, 'https://evil.example') })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: `This link is not one of your service’s: it leads to evil.example, and your service’s contact links begin with ${service.origin}/contact/. Nothing was sent.`
    })
    await expect(app.call('contacts:addFromLink', { link: await shareUrlOf(service, ada) })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: expect.stringContaining('your own contact link') as unknown
    })
    expect(await app.call('contacts:list', {})).toEqual([])
  })

  it('gives the user their own contact link, which adds them for someone else', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    const app = await signedInApp(service, ada)

    const { url } = await app.call('contacts:myLink', {})
    expect(url).toMatch(new RegExp(`^${service.origin}/contact/${ada.id}/[A-Za-z0-9]{8}$`))
    const token = url.split('/').at(-1) ?? ''
    const added = await service.call('POST', '/v4/relationships/create', { token: grace.token, body: { user_id: ada.id, token } })
    expect(added.status).toBe(201)
  })

  it('imports an address book in requests of 1000, telling progress after each, and lists more contacts than one page', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    // More than R1's page of 50, so the list must page through `since`.
    const known: TestUser[] = []
    for (let index = 0; index < 55; index += 1) known.push(await service.createUser({ name: `Contact ${String(index).padStart(2, '0')}` }))
    const app = await signedInApp(service, ada)
    await app.call('people:block', { userId: known[1]?.id ?? '' })

    const strangers: ContactCard[] = Array.from({ length: 1445 }, (_, index) => ({ name: `Stranger ${index}`, phone: `+44 20 ${String(index).padStart(8, '0')}` }))
    // Someone in the book twice is one contact.
    const cards = [...known.slice(0, 30).map(cardFor), ...strangers, ...known.slice(30).map(cardFor), cardFor(known[0] as TestUser)]
    const importId = randomUUID()
    const result = await app.call('contacts:import', { importId, cards })

    expect(result.submitted).toBe(1501)
    expect(ids(result.matched)).toEqual(ids(known))
    expect(result.matched.slice(0, 2)).toEqual([
      { id: known[0]?.id, name: 'Contact 00', avatarUrl: null, blocked: false, source: 'import' },
      { id: known[1]?.id, name: 'Contact 01', avatarUrl: null, blocked: true, source: 'import' }
    ])
    expect(app.events.all('contacts:importProgress')).toEqual([
      { importId, done: 1000, total: 1501 },
      { importId, done: 1501, total: 1501 }
    ])

    const contacts = await app.call('contacts:list', {})
    expect(ids(contacts)).toEqual(ids(known))
    expect(contacts.every((contact) => contact.source === 'import')).toBe(true)
    expect(contacts.filter((contact) => contact.blocked).map((contact) => contact.name)).toEqual(['Contact 01'])
  })

  it('refuses a whole address book with a bad row, naming it, and sends none of it', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.createUser({ name: 'Grace' })
    const app = await signedInApp(service, ada)

    const importId = randomUUID()
    await expect(
      app.call('contacts:import', { importId, cards: [cardFor(grace), { name: 'Alan', phone: 'ask Grace' }, { name: ' ', phone: '+1 555 0100' }] })
    ).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'Nothing was imported. Fix these rows and try again: row 2: “ask Grace” is not a phone number; row 3 has no name.'
    })
    expect(app.events.all('contacts:importProgress')).toEqual([])
    expect(await app.call('contacts:list', {})).toEqual([])
  })

  it('says how far an import went when a later batch is refused, and what went through stays added', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.createUser({ name: 'Grace' })
    const app = await signedInApp(service, ada)
    const strangers: ContactCard[] = Array.from({ length: 999 }, (_, index) => ({ name: `Stranger ${index}`, phone: `+44 20 ${String(index).padStart(8, '0')}` }))
    // A name longer than the service takes in a whole request: the second batch is refused.
    const oversized: ContactCard = { name: 'A'.repeat(5 * 1024 * 1024), phone: '+44 20 99999999' }

    const importId = randomUUID()
    const failure = app.call('contacts:import', { importId, cards: [cardFor(grace), ...strangers, oversized] })
    await expect(failure).rejects.toMatchObject({
      message: expect.stringMatching(/^The import stopped part way: 1 of its 2 batches of up to 1000 contacts went through, so some contacts may have been added\. \S/)
    })
    expect(app.events.all('contacts:importProgress')).toEqual([{ importId, done: 1000, total: 1001 }])
    expect(ids(await app.call('contacts:list', {}))).toEqual([grace.id])
  })

  it('says when the service does not accept the device for an import', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.createUser({ name: 'Grace' })
    const app = launchApp(service.origin, cleanups, { config: { verifyToken: 'not-the-attestation-secret' } })
    await signInThroughSms(app, service, ada)

    await expect(app.call('contacts:import', { importId: randomUUID(), cards: [cardFor(grace)] })).rejects.toMatchObject({
      code: 'FORBIDDEN',
      message: 'The service did not accept this device for importing contacts: its device verification failed.'
    })
    expect(app.events.all('contacts:importProgress')).toEqual([])
    expect(await app.call('contacts:list', {})).toEqual([])
  })
})

describe('people to write to', () => {
  it('offers the user’s contacts and the members of their groups, once each, by name, without the user', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    const alan = await service.signUp({ name: 'Alan' })
    const barbara = await service.signUp({ name: 'Barbara' })
    const edsger = await service.signUp({ name: 'Edsger' })
    await groupOf(service, grace, 'Lunch club', [ada, alan])
    await groupOf(service, ada, 'Reading group', [alan, barbara])
    const app = await signedInApp(service, ada)
    await app.call('contacts:addFromLink', { link: await shareUrlOf(service, grace) })
    await app.call('contacts:addFromLink', { link: await shareUrlOf(service, edsger) })

    expect(await app.call('people:candidates', {})).toEqual([
      { id: alan.id, name: 'Alan', avatarUrl: null },
      { id: barbara.id, name: 'Barbara', avatarUrl: null },
      { id: edsger.id, name: 'Edsger', avatarUrl: null },
      { id: grace.id, name: 'Grace', avatarUrl: null }
    ])
  })
})

describe('starting a direct message', () => {
  const listed = (list: Conversation[], id: string): boolean => list.some((conversation) => conversation.id === id)

  it('opens a chat with someone new that is listed, on both sides and live, from its first message', async () => {
    const service = await serviceForTest()
    const ada = await service.createUser({ name: 'Ada' })
    const grace = await service.createUser({ name: 'Grace' })
    const adaApp = await signedInApp(service, ada)
    const graceApp = await signedInApp(service, grace)
    const chat = chatId(ada.id, grace.id)

    const started = await adaApp.call('chats:start', { userId: grace.id })
    expect(started).toMatchObject({ id: chat, kind: 'dm', name: 'Grace', lastMessageId: null, unreadCount: 0 })
    expect(listed(await adaApp.call('conversations:list', {}), chat)).toBe(false)
    expect(await adaApp.call('chats:start', { userId: grace.id })).toEqual(started)

    const opened = await adaApp.call('conversations:open', { conversationId: chat })
    expect(opened).toMatchObject({ conversation: { id: chat, name: 'Grace' }, messages: [], pending: [] })

    const adaListsBefore = adaApp.events.all('conversations:changed').length
    const graceListsBefore = graceApp.events.all('conversations:changed').length
    await adaApp.call('messages:send', { conversationId: chat, text: 'Hello, Grace', clientId: randomUUID() })

    // Listed at once as a draft with its message on the way, then as the chat the service stored.
    const sent = (list: Conversation[]): boolean => list.some((conversation) => conversation.id === chat && conversation.lastMessageId !== null)
    const adaList = await adaApp.events.waitFor('conversations:changed', sent, 10_000, adaListsBefore)
    expect(adaList[0]).toMatchObject({ id: chat, name: 'Grace', preview: { text: 'Hello, Grace' }, unreadCount: 0 })
    const graceList = await graceApp.events.waitFor('conversations:changed', (list) => listed(list, chat), 10_000, graceListsBefore)
    expect(graceList.find((conversation) => conversation.id === chat)).toMatchObject({ name: 'Ada', unreadCount: 1 })
    await graceApp.events.waitFor('messages:received', (message) => message.conversationId === chat && message.text === 'Hello, Grace')

    // Once listed, starting it again answers the listed chat.
    expect(await adaApp.call('chats:start', { userId: grace.id })).toMatchObject({ id: chat, lastMessageId: adaList[0]?.lastMessageId })
  })

  it('lists a started chat live when the other person writes in it first', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.createUser({ name: 'Grace' })
    const graceApp = await signedInApp(service, grace)
    const chat = chatId(ada.id, grace.id)
    await graceApp.call('chats:start', { userId: ada.id })

    const listsBefore = graceApp.events.all('conversations:changed').length
    await service.sendDirectMessage(ada, grace.id, 'I was about to write to you')
    const list = await graceApp.events.waitFor('conversations:changed', (conversations) => listed(conversations, chat), 10_000, listsBefore)
    expect(list.find((conversation) => conversation.id === chat)).toMatchObject({
      name: 'Ada',
      preview: { text: 'I was about to write to you' },
      unreadCount: 1
    })
  })

  it('answers a chat that already exists as it is listed', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    const message = await service.sendDirectMessage(grace, ada.id, 'Are you there?')
    const app = await signedInApp(service, ada)
    const chat = chatId(ada.id, grace.id)
    await app.events.waitFor('conversations:changed', (list) => listed(list, chat))

    expect(await app.call('chats:start', { userId: grace.id })).toMatchObject({ id: chat, name: 'Grace', lastMessageId: String(message.id) })
  })

  it('tells the user a first message was refused because they are blocked, keeps it, and sends it once they are not', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    await blockAs(service, grace, ada)
    const app = await signedInApp(service, ada)
    const chat = chatId(ada.id, grace.id)

    await app.call('chats:start', { userId: grace.id })
    const clientId = randomUUID()
    await app.call('messages:send', { conversationId: chat, text: 'Hello?', clientId })
    const failed = await app.events.waitFor('outbox:changed', (change) => change.conversationId === chat && change.pending[0]?.state === 'failed')
    expect(failed.pending).toMatchObject([{ clientId, text: 'Hello?', state: 'failed', error: 'Not sent: Grace is not accepting messages from you.' }])
    expect((await app.call('conversations:list', {})).find((conversation) => conversation.id === chat)).toMatchObject({ name: 'Grace', lastMessageId: null })
    expect((await app.call('conversations:open', { conversationId: chat })).pending).toMatchObject([{ clientId, state: 'failed' }])

    await unblockAs(service, grace, ada)
    await app.call('messages:retry', { conversationId: chat, clientId })
    await app.events.waitFor('outbox:changed', (change) => change.conversationId === chat && change.pending.length === 0)
    expect(listed(await app.call('conversations:list', {}), chat)).toBe(true)
  })

  it('a chat says what the profile says of a block, on both sides, and a message to someone the user blocks stays unsent', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    const adaApp = await signedInApp(service, ada)
    const graceApp = await signedInApp(service, grace)
    const chat = chatId(ada.id, grace.id)
    expect(await adaApp.call('people:standing', { userId: grace.id })).toEqual({ canMessage: true, blockedByMe: false })

    await adaApp.call('people:block', { userId: grace.id })
    expect(adaApp.events.all('people:standingChanged').at(-1)).toEqual({ userId: grace.id, canMessage: false, blockedByMe: true })
    expect(await adaApp.call('people:standing', { userId: grace.id })).toEqual({ canMessage: false, blockedByMe: true })
    expect(await graceApp.call('people:standing', { userId: ada.id })).toEqual({ canMessage: false, blockedByMe: false })

    // The service would take it (§5 refuses only the blocked one's messages); the app keeps it, saying why.
    await adaApp.call('chats:start', { userId: grace.id })
    const clientId = randomUUID()
    await adaApp.call('messages:send', { conversationId: chat, text: 'Still there?', clientId })
    const failed = await adaApp.events.waitFor('outbox:changed', (change) => change.conversationId === chat && change.pending[0]?.state === 'failed')
    expect(failed.pending).toMatchObject([{ clientId, text: 'Still there?', error: 'Not sent: you block Grace. Unblock them to send it.' }])
    expect(await service.call('GET', '/v3/direct_messages', { token: grace.token, query: { other_user_id: ada.id } })).toMatchObject({ status: 304 })

    await adaApp.call('people:unblock', { userId: grace.id })
    expect(adaApp.events.all('people:standingChanged').at(-1)).toEqual({ userId: grace.id, canMessage: true, blockedByMe: false })
    await adaApp.call('messages:retry', { conversationId: chat, clientId })
    await adaApp.events.waitFor('outbox:changed', (change) => change.conversationId === chat && change.pending.length === 0)
    expect(await graceApp.call('people:standing', { userId: ada.id })).toEqual({ canMessage: true, blockedByMe: false })
  })

  it('lists a first message refused for a block with its chat, switching away and after the app starts again', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const grace = await service.signUp({ name: 'Grace' })
    const bookClub = await groupOf(service, ada, 'Book club', [])
    await blockAs(service, grace, ada)
    // On disk, as the app keeps it: what waits unsent lives in the account's store between runs.
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-people-'))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const firstRun = launchAppOnDisk(service.origin, cleanups, dataDir)
    await signInThroughSms(firstRun, service, ada)
    const chat = chatId(ada.id, grace.id)
    const refused = 'Not sent: Grace is not accepting messages from you.'

    await firstRun.call('chats:start', { userId: grace.id })
    await firstRun.call('conversations:open', { conversationId: chat })
    const clientId = randomUUID()
    await firstRun.call('messages:send', { conversationId: chat, text: 'Hello?', clientId })
    await firstRun.events.waitFor('outbox:changed', (change) => change.conversationId === chat && change.pending[0]?.state === 'failed')
    expect(firstRun.events.all('conversations:changed').some((list) => listed(list, chat))).toBe(true)
    await firstRun.call('conversations:close', { conversationId: chat })
    await firstRun.call('conversations:open', { conversationId: bookClub })
    expect(ids(await firstRun.call('conversations:list', {}))).toEqual(expect.arrayContaining([chat, bookClub]))
    await firstRun.core.stop()

    const nextRun = launchAppOnDisk(service.origin, cleanups, dataDir)
    await nextRun.core.start()
    const list = await nextRun.events.waitFor('conversations:changed', (conversations) => listed(conversations, chat), 10_000)
    expect(list.find((conversation) => conversation.id === chat)).toMatchObject({ kind: 'dm', name: 'Grace', lastMessageId: null })
    // Sent again on sign-in, and refused again for the same reason.
    await nextRun.events.waitFor('outbox:changed', (change) => change.conversationId === chat && change.pending[0]?.error === refused, 10_000)
    const opened = await nextRun.call('conversations:open', { conversationId: chat })
    expect(opened.conversation).toMatchObject({ id: chat, name: 'Grace' })
    expect(opened.pending).toMatchObject([{ clientId, text: 'Hello?', state: 'failed', error: refused }])
    expect(listed(await nextRun.call('conversations:list', {}), chat)).toBe(true)
  })

  it('refuses a chat with the user themself, or with someone who does not exist', async () => {
    const service = await serviceForTest()
    const ada = await service.signUp({ name: 'Ada' })
    const app = await signedInApp(service, ada)

    await expect(app.call('chats:start', { userId: ada.id })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'You cannot start a conversation with yourself.'
    })
    await expect(app.call('chats:start', { userId: '987654321' })).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'This person’s account does not exist any more.'
    })
    await expect(app.call('conversations:open', { conversationId: chatId(ada.id, '987654321') })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })
})
