// Every source of messages reaches the message flow once, against the real local service: push,
// the answer to a send, a catch-up after an outage, pages of history, and each change the user or
// someone else makes. Whatever keeps a copy of the messages (the renderer, a store) listens there,
// so a source that went round it, or went twice, would leave that copy wrong.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestService, TestUser } from '../../server/test/support'
import type { Arrival, HistoryPage, MessageChange } from '../../src/main/core/message-flow'
import type { Message } from '@shared/messages'
import type { Poll } from '@shared/polls'
import { launchApp, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'

const { cleanups, service: serviceFor } = testScope()

const PUSH = /^\w+ \/faye/

/** What one app's message flow said, in order. */
interface Heard {
  arrivals: Arrival[]
  pages: HistoryPage[]
  changes: MessageChange[]
  polls: Poll[]
}

function listen(app: AppHarness): Heard {
  const heard: Heard = { arrivals: [], pages: [], changes: [], polls: [] }
  app.core.messages.on('arrived', (arrival) => heard.arrivals.push(arrival))
  app.core.messages.on('paged', (page) => heard.pages.push(page))
  app.core.messages.on('changed', (change) => heard.changes.push(change))
  app.core.messages.on('pollUpdated', (poll) => heard.polls.push(poll))
  return heard
}

interface Scene {
  service: TestService
  proxy: TcpProxy
  groupId: string
  ada: TestUser
  bea: TestUser
  /** Ada's app, which reaches the service through `proxy`; its flow is the one watched. */
  app: AppHarness
  heard: Heard
  /** Bea's app, straight to the service. */
  beaApp: AppHarness
  /** Bea writes a message and Ada's app hears it: whatever push had for Ada before it has come by then. */
  barrier(): Promise<void>
}

/** Ada owns a group with Bea in it; both apps are signed in and have it open. */
async function scene(options: { db?: string; beforeOpening?: (service: TestService, groupId: string, ada: TestUser) => Promise<void> } = {}): Promise<Scene> {
  const service = await serviceFor(options.db === undefined ? {} : { db: options.db })
  const proxy = await startTcpProxy(service.origin)
  cleanups.push(() => proxy.close())
  const ada = await service.signUp({ name: 'Ada' })
  const bea = await service.signUp({ name: 'Bea' })
  const groupId = String((await service.createGroup(ada, { name: 'Trail' })).id)
  await service.call('POST', `/v3/groups/${groupId}/members/add`, { token: ada.token, attest: true, body: { members: [{ user_id: bea.id, nickname: 'Bea' }] } })
  await options.beforeOpening?.(service, groupId, ada)

  const app = launchApp(proxy.origin, cleanups)
  const heard = listen(app)
  const beaApp = launchApp(service.origin, cleanups)
  for (const [each, user] of [
    [app, ada],
    [beaApp, bea]
  ] as const) {
    await signInThroughSms(each, service, user)
    await each.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === groupId))
    await each.call('conversations:open', { conversationId: groupId })
  }
  let barriers = 0
  const barrier = async (): Promise<void> => {
    barriers += 1
    const text = `barrier ${barriers}`
    await beaApp.call('messages:send', { conversationId: groupId, text, clientId: `barrier-${barriers}` })
    await expect.poll(() => heard.arrivals.some((arrival) => arrival.message.text === text), { timeout: 10_000 }).toBe(true)
  }
  return { service, proxy, groupId, ada, bea, app, heard, beaApp, barrier }
}

const arrivalsOf = (heard: Heard, text: string): Arrival[] => heard.arrivals.filter((arrival) => arrival.message.text === text)
const replacedCopiesOf = (heard: Heard, messageId: string): Message[] =>
  heard.changes.flatMap((change) => (change.kind === 'replaced' && change.message.id === messageId ? [change.message] : []))

/** Push goes away for `app` while its requests still reach the service. */
async function pushAway(app: AppHarness, proxy: TcpProxy): Promise<void> {
  const statusesBefore = app.events.all('push:status').length
  proxy.block(PUSH)
  await app.events.waitFor('push:status', (status) => status !== 'connected', 20_000, statusesBefore)
}

async function pushBack(app: AppHarness, proxy: TcpProxy): Promise<void> {
  const statusesBefore = app.events.all('push:status').length
  proxy.unblock()
  await app.events.waitFor('push:status', (status) => status === 'connected', 30_000, statusesBefore)
}

async function sendAndWait(app: AppHarness, groupId: string, text: string): Promise<Message> {
  const seen = app.events.all('messages:received').length
  await app.call('messages:send', { conversationId: groupId, text, clientId: `client-${text}` })
  return app.events.waitFor('messages:received', (message) => message.text === text, 10_000, seen)
}

describe('the message flow, fed by every source', () => {
  it('hears a pushed message once, as pushed', async () => {
    const { groupId, heard, beaApp, barrier } = await scene()
    await beaApp.call('messages:send', { conversationId: groupId, text: 'Coming up the ridge', clientId: 'ridge' })
    await barrier()
    expect(arrivalsOf(heard, 'Coming up the ridge')).toEqual([{ message: expect.objectContaining({ text: 'Coming up the ridge' }), source: 'pushed' }])
  })

  it('hears the answer to a send once, and nothing more of the copies push and the catch-up bring after it', async () => {
    const { proxy, groupId, app, heard, barrier } = await scene()
    await pushAway(app, proxy)
    await app.call('messages:send', { conversationId: groupId, text: 'Sent while push is away', clientId: 'away' })
    await expect.poll(() => arrivalsOf(heard, 'Sent while push is away').length, { timeout: 10_000 }).toBe(1)

    await pushBack(app, proxy)
    await barrier()
    expect(arrivalsOf(heard, 'Sent while push is away')).toEqual([{ message: expect.objectContaining({ text: 'Sent while push is away' }), source: 'sent' }])
  })

  it('hears what a catch-up reads once, as caught up', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'parley-flow-'))
    cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
    const db = join(dataDir, 'service.db')
    const { service, proxy, groupId, bea, app, heard } = await scene({ db })
    // A restart makes the service forget the app's push client and what was queued for it: what
    // is written before the app subscribes again only a catch-up brings.
    proxy.cut()
    await app.events.waitFor('push:status', (status) => status !== 'connected')
    await service.close()
    const restarted = await serviceFor({ db, port: Number(new URL(service.origin).port) })
    await restarted.sendGroupMessage(bea, groupId, 'Written during the outage')
    const statusesBefore = app.events.all('push:status').length
    proxy.restore()
    await app.events.waitFor('push:status', (status) => status === 'connected', 20_000, statusesBefore)
    await expect.poll(() => arrivalsOf(heard, 'Written during the outage').length, { timeout: 20_000 }).toBe(1)

    await restarted.sendGroupMessage(bea, groupId, 'After the outage')
    await expect.poll(() => arrivalsOf(heard, 'After the outage').length, { timeout: 10_000 }).toBe(1)
    expect(arrivalsOf(heard, 'Written during the outage')).toEqual([{ message: expect.objectContaining({ text: 'Written during the outage' }), source: 'caughtUp' }])
  })

  it('hears each page of history once, with the end it was read from and where it stops, and no arrival for it', async () => {
    const { app, groupId, heard } = await scene({
      beforeOpening: async (service, groupId, ada) => {
        for (let n = 1; n <= 60; n += 1) await service.sendGroupMessage(ada, groupId, `history ${n}`)
      }
    })
    const newest = heard.pages.find((page) => page.end === 'newest')
    expect(heard.pages).toEqual([{ conversationId: groupId, messages: expect.any(Array), end: 'newest', before: null, after: null, atStart: false }])
    expect(newest?.messages).toHaveLength(50)
    const before = newest?.messages[0]?.id ?? ''
    const older = await app.call('messages:loadOlder', { conversationId: groupId, beforeId: before })
    expect(heard.pages).toHaveLength(2)
    expect(heard.pages[1]).toEqual({ conversationId: groupId, messages: older.messages, end: 'older', before, after: null, atStart: true })
    expect(heard.arrivals.filter((arrival) => arrival.message.text.startsWith('history '))).toEqual([])
  })

  it('hears an edit once from its answer, and someone else’s once from push', async () => {
    const { proxy, groupId, app, heard, beaApp, barrier } = await scene()
    const mine = await sendAndWait(app, groupId, 'Meet at nine')
    const theirs = await sendAndWait(beaApp, groupId, 'Meet at the gate')
    await expect.poll(() => arrivalsOf(heard, 'Meet at the gate').length, { timeout: 10_000 }).toBe(1)
    await pushAway(app, proxy)
    await app.call('messages:edit', { conversationId: groupId, messageId: mine.id, text: 'Meet at ten' })
    expect(replacedCopiesOf(heard, mine.id).map((message) => message.text)).toEqual(['Meet at ten'])

    await pushBack(app, proxy)
    await beaApp.call('messages:edit', { conversationId: groupId, messageId: theirs.id, text: 'Meet at the north gate' })
    await barrier()
    expect(replacedCopiesOf(heard, theirs.id).map((message) => message.text)).toEqual(['Meet at the north gate'])
  })

  it('hears a deletion once from its answer, and the deleted copy once from push', async () => {
    const { groupId, app, heard, barrier } = await scene()
    const mine = await sendAndWait(app, groupId, 'Wrong group, sorry')
    await app.call('messages:delete', { conversationId: groupId, messageId: mine.id })
    expect(heard.changes.filter((change) => change.kind === 'deleted')).toEqual([{ kind: 'deleted', conversationId: groupId, messageId: mine.id }])
    await barrier()
    expect(replacedCopiesOf(heard, mine.id)).toEqual([expect.objectContaining({ id: mine.id, deleted: true })])
  })

  it('hears a reaction once from its answer, and once from push with everyone’s reactions', async () => {
    const { groupId, app, heard, barrier } = await scene()
    const mine = await sendAndWait(app, groupId, 'Summit!')
    await app.call('messages:react', { conversationId: groupId, messageId: mine.id, emoji: '🎉' })
    expect(heard.changes.filter((change) => change.kind === 'reacted')).toEqual([
      { kind: 'reacted', conversationId: groupId, messageId: mine.id, reactions: [{ emoji: '🎉', userIds: [expect.any(String)] }] }
    ])
    await barrier()
    expect(replacedCopiesOf(heard, mine.id)).toEqual([expect.objectContaining({ reactions: [{ emoji: '🎉', userIds: [expect.any(String)] }] })])
  })

  it('hears a pin and an unpin once each from their answers, and the pinned copy once from push', async () => {
    const { groupId, app, heard, barrier } = await scene()
    const mine = await sendAndWait(app, groupId, 'Bring water')
    await app.call('messages:setPinned', { conversationId: groupId, messageId: mine.id, pinned: true })
    await barrier()
    await app.call('messages:setPinned', { conversationId: groupId, messageId: mine.id, pinned: false })
    expect(heard.changes.filter((change) => change.kind === 'pinned')).toEqual([
      { kind: 'pinned', conversationId: groupId, messageId: mine.id, pinned: true },
      { kind: 'pinned', conversationId: groupId, messageId: mine.id, pinned: false }
    ])
    expect(replacedCopiesOf(heard, mine.id).filter((message) => message.pinnedAt !== undefined)).toHaveLength(1)
  })

  it('hears a new poll’s message once, and each answer about the poll once', async () => {
    const { proxy, groupId, app, heard, barrier } = await scene()
    // Else push may bring the poll's message before the answer does.
    await pushAway(app, proxy)
    const poll = await app.call('polls:create', {
      conversationId: groupId,
      poll: { subject: 'Which peak?', options: ['North', 'South'], multiple: false, anonymous: false, expiresAt: Math.floor(Date.now() / 1000) + 3600 }
    })
    const north = poll.options[0]?.id ?? ''
    await app.call('polls:vote', { conversationId: groupId, pollId: poll.id, optionIds: [north] })
    await app.call('polls:get', { conversationId: groupId, pollId: poll.id })
    await app.call('polls:end', { conversationId: groupId, pollId: poll.id })
    await app.call('polls:list', { conversationId: groupId, next: null })
    await pushBack(app, proxy)
    expect(heard.polls.map((each) => [each.id, each.ended, each.myVotes])).toEqual([
      [poll.id, false, []],
      [poll.id, false, [north]],
      [poll.id, false, [north]],
      [poll.id, true, [north]],
      [poll.id, true, [north]]
    ])
    await barrier()
    const pollMessages = heard.arrivals.filter((arrival) => arrival.message.attachments.some((attachment) => attachment.type === 'poll'))
    expect(pollMessages).toEqual([{ message: expect.anything(), source: 'sent' }])
  })
})
