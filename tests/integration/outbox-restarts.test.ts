// The outbox across app restarts (the reliability suite): what the user wrote and the service
// has not confirmed is kept on disk, in the account's store in browser mode's own files, and a later run of the app sends
// each message exactly once through its `source_guid`, also when the service took a send whose
// answer never came back. The network is cut, and answers lost, by a TCP proxy between the app and
// the real local service; "stopping the app" is its core stopping, the next run a new core on the
// same data directory.
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestService, TestUser } from '../../server/test/support'
import type { Preferences, TokenVault } from '../../src/main/core/ports'
import { chatId, compareIds, type ConversationId } from '@shared/conversation-id'
import type { PendingMessage } from '@shared/messages'
import { launchAppOnDisk, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { keptOutbox } from '../support/kept-device'
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy'

const { cleanups, service: serviceFor } = testScope()

type App = AppHarness<TokenVault, Preferences>

const GROUP_SEND = /^POST \/v3\/groups\/\d+\/messages/
const DM_SEND = /^POST \/v3\/direct_messages/
/** Push: with it blocked, a message the app sent cannot come back to it before it stops. */
const PUSH = /^\w+ \/faye/

interface Stored {
  text: string
  source_guid: string
  user_id: string
  id: string
  attachments: unknown[]
}

/**
 * Ada in a group and a chat (with Grace), on a service behind a proxy, and the directory her app
 * keeps its state in. The service sits on a file database so it can be stopped and started again.
 */
interface Rig {
  proxy: TcpProxy
  ada: TestUser
  group: ConversationId
  chat: ConversationId
  dataDir: string
  /** The service now running (a new object after each `serviceBack`). */
  service(): TestService
  serviceDown(): Promise<void>
  serviceBack(): Promise<void>
}

async function rig(): Promise<Rig> {
  const dir = mkdtempSync(join(tmpdir(), 'parley-outbox-'))
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }))
  const db = join(dir, 'service.db')
  let service = await serviceFor({ db })
  const port = Number(new URL(service.origin).port)
  const proxy = await startTcpProxy(service.origin)
  cleanups.push(() => proxy.close())
  const ada = await service.signUp({ name: 'Ada' })
  const grace = await service.signUp({ name: 'Grace' })
  const group = await service.createGroup(ada, { name: 'Climbing' })
  // A chat is listed from its first message.
  await service.sendDirectMessage(grace, ada.id, 'hello Ada')
  return {
    proxy,
    ada,
    group: String(group.id),
    chat: chatId(ada.id, grace.id),
    dataDir: join(dir, 'app'),
    service: () => service,
    serviceDown: () => service.close(),
    async serviceBack() {
      service = await serviceFor({ db, port })
    }
  }
}

/** The first run of the app: Ada signs in through the proxy and sees her two conversations. */
async function firstRun(world: Rig): Promise<App> {
  const app = launchAppOnDisk(world.proxy.origin, cleanups, world.dataDir)
  await signInThroughSms(app, world.service(), world.ada)
  await app.events.waitFor('conversations:changed', (list) => [world.group, world.chat].every((id) => list.some((conversation) => conversation.id === id)))
  return app
}

/** The app started again on the same data directory: its session and outbox come from the disk. */
async function nextRun(world: Rig): Promise<App> {
  const app = launchAppOnDisk(world.proxy.origin, cleanups, world.dataDir)
  await app.core.start()
  return app
}

/**
 * What the app kept on disk as Ada's outbox, read from her store as the next run opens it (with no
 * app running on the directory); never in the plain settings file.
 */
async function outboxOnDisk(world: Rig): Promise<PendingMessage[]> {
  const settings = JSON.parse(readFileSync(join(world.dataDir, 'settings.json'), 'utf8')) as { outbox?: PendingMessage[] }
  expect(settings.outbox).toBeUndefined()
  return keptOutbox(world.dataDir, world.ada.id)
}

/** Ada's messages in a conversation as the service stores them, oldest first, read over REST. */
async function storedByAda(world: Rig, conversationId: ConversationId): Promise<Stored[]> {
  const isChat = conversationId === world.chat
  const path = isChat ? '/v3/direct_messages' : `/v3/groups/${conversationId}/messages`
  const query: Record<string, string> = isChat ? { other_user_id: conversationId.split('+').find((id) => id !== world.ada.id) ?? '' } : {}
  const result = await world.service().call('GET', path, { token: world.ada.token, query: { ...query, limit: '100' } })
  if (result.status === 304) return []
  expect(result.status).toBe(200)
  const messages = (isChat ? result.body.response.direct_messages : result.body.response.messages) as Stored[]
  return messages.filter((message) => message.user_id === world.ada.id).sort((a, b) => compareIds(a.id, b.id))
}

/** Sends each text in turn as the renderer does, with a client id of its own; returns the ids in order. */
async function write(app: App, conversationId: ConversationId, texts: string[]): Promise<string[]> {
  const clientIds: string[] = []
  for (const text of texts) {
    const clientId = randomUUID()
    await app.call('messages:send', { conversationId, text, clientId })
    clientIds.push(clientId)
  }
  return clientIds
}

/** The outbox of a conversation as the app last announced it. */
function pendingShown(app: App, conversationId: ConversationId): PendingMessage[] | undefined {
  return app.events.all('outbox:changed').filter((change) => change.conversationId === conversationId).at(-1)?.pending
}

async function untilOutboxEmpty(app: App, conversationId: ConversationId, timeout = 20_000): Promise<void> {
  await expect.poll(() => pendingShown(app, conversationId)?.length, { timeout }).toBe(0)
}

/**
 * Every message of the conversation shows once, and nothing of it waits or failed: its history
 * holds it once, the app never told the renderer of a second copy, and its outbox is empty.
 */
async function expectShownOnce(app: App, conversationId: ConversationId, texts: string[]): Promise<void> {
  const opened = await app.call('conversations:open', { conversationId })
  const shown = opened.messages.map((message) => message.text)
  const received = app.events.all('messages:received')
  for (const text of texts) {
    expect(shown.filter((candidate) => candidate === text), text).toHaveLength(1)
    const copies = new Set(received.filter((message) => message.text === text).map((message) => message.id))
    expect(copies.size, text).toBeLessThanOrEqual(1)
  }
  expect(opened.pending).toEqual([])
}

describe('the outbox across app restarts', () => {
  it('keeps what was written offline on disk, and the next run sends each message once, in order, under its client id', async () => {
    const world = await rig()
    const first = await firstRun(world)
    world.proxy.cut()
    const groupTexts = ['offline 1', 'offline 2', 'offline 3']
    const chatTexts = ['to Grace 1', 'to Grace 2']
    const groupIds = await write(first, world.group, groupTexts)
    const chatIds = await write(first, world.chat, chatTexts)
    await expect.poll(() => pendingShown(first, world.group)?.every((pending) => pending.state === 'failed')).toBe(true)
    await expect.poll(() => pendingShown(first, world.chat)?.every((pending) => pending.state === 'failed')).toBe(true)
    await first.core.stop()
    expect((await outboxOnDisk(world)).map((pending) => pending.text)).toEqual([...groupTexts, ...chatTexts])

    // Started again while still offline: signed in as before, the messages wait where they were.
    const second = await nextRun(world)
    expect(await second.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: world.ada.id } })
    expect(pendingShown(second, world.group)?.map((pending) => pending.text)).toEqual(groupTexts)
    expect(pendingShown(second, world.chat)?.map((pending) => pending.text)).toEqual(chatTexts)

    world.proxy.restore()
    await untilOutboxEmpty(second, world.group)
    await untilOutboxEmpty(second, world.chat)
    const group = await storedByAda(world, world.group)
    expect(group.map((message) => [message.text, message.source_guid])).toEqual(groupTexts.map((text, index) => [text, groupIds[index]]))
    const chat = await storedByAda(world, world.chat)
    expect(chat.map((message) => [message.text, message.source_guid])).toEqual(chatTexts.map((text, index) => [text, chatIds[index]]))
    await expectShownOnce(second, world.group, groupTexts)
    await expectShownOnce(second, world.chat, chatTexts)
    await second.core.stop()
    expect(await outboxOnDisk(world)).toEqual([])
  })

  it('sends a picture written offline with its picture after the restart', async () => {
    const world = await rig()
    const first = await firstRun(world)
    const bytes = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, ...new Array<number>(56).fill(7)])
    const { url } = await first.call('uploads:start', { uploadId: randomUUID(), contentType: 'image/png', bytes })
    world.proxy.cut()
    const attachments = [{ type: 'image' as const, url }]
    const clientId = randomUUID()
    await first.call('messages:send', { conversationId: world.group, text: '', clientId, attachments })
    await expect.poll(() => pendingShown(first, world.group)?.[0]?.state).toBe('failed')
    await first.core.stop()

    const second = await nextRun(world)
    expect(pendingShown(second, world.group)?.map((pending) => pending.attachments)).toEqual([attachments])
    world.proxy.restore()
    await untilOutboxEmpty(second, world.group)
    const stored = await storedByAda(world, world.group)
    expect(stored.map((message) => [message.source_guid, message.attachments])).toEqual([[clientId, attachments]])
  })

  for (const [kind, requestLine] of [
    ['group', GROUP_SEND],
    ['chat', DM_SEND]
  ] as const) {
    it(`stores a ${kind} message once when the service took it, the answer was lost and the app stopped before it learned`, async () => {
      const world = await rig()
      const conversationId = kind === 'group' ? world.group : world.chat
      const first = await firstRun(world)
      world.proxy.block(PUSH)
      const lost = world.proxy.loseAnswersTo(requestLine)
      const [clientId] = await write(first, conversationId, ['did it arrive?'])
      await lost
      await first.core.stop()
      world.proxy.unblock()
      expect((await storedByAda(world, conversationId)).map((message) => message.source_guid)).toEqual([clientId])
      expect((await outboxOnDisk(world)).map((pending) => pending.clientId)).toEqual([clientId])

      const second = await nextRun(world)
      await untilOutboxEmpty(second, conversationId)
      expect((await storedByAda(world, conversationId)).map((message) => [message.text, message.source_guid])).toEqual([['did it arrive?', clientId]])
      await expectShownOnce(second, conversationId, ['did it arrive?'])
    })
  }

  it('lets go of a message whose answer was lost once push brings it back: shown once, and no longer as not sent', async () => {
    const world = await rig()
    const app = await firstRun(world)
    // Every answer to a send, and to a read of the group's history, is lost: only push can tell the app.
    void world.proxy.loseAnswersTo(GROUP_SEND, 1_000)
    void world.proxy.loseAnswersTo(/^GET \/v3\/groups\/\d+\/messages/, 1_000)
    const [clientId] = await write(app, world.group, ['back by push'])
    await app.events.waitFor('messages:received', (message) => message.sourceGuid === clientId)
    // Long before the attempts, whose answers are all lost, could settle it: the third is 14 s on.
    await untilOutboxEmpty(app, world.group, 10_000)
    expect(app.events.all('messages:received').filter((message) => message.text === 'back by push')).toHaveLength(1)
    expect((await storedByAda(world, world.group)).map((message) => message.source_guid)).toEqual([clientId])
  })

  it('stores a message once when the app comes back after the service’s 60 s window for its client id has passed', async () => {
    const world = await rig()
    const first = await firstRun(world)
    world.proxy.block(PUSH)
    const lost = world.proxy.loseAnswersTo(GROUP_SEND)
    const [clientId] = await write(first, world.group, ['sent before the weekend'])
    await lost
    await first.core.stop()
    world.proxy.unblock()
    // The app stays closed for longer than the service refuses a repeated source_guid (§18 #24).
    await world.service().advanceClock(61)

    const second = await nextRun(world)
    await untilOutboxEmpty(second, world.group)
    expect((await storedByAda(world, world.group)).map((message) => message.source_guid)).toEqual([clientId])
    await expectShownOnce(second, world.group, ['sent before the weekend'])
  })

  it('stores each message once when the app stopped in the middle of sending a queue', async () => {
    const world = await rig()
    const first = await firstRun(world)
    world.proxy.cut()
    const texts = ['queued 1', 'queued 2', 'queued 3', 'queued 4', 'queued 5']
    const clientIds = await write(first, world.group, texts)
    await expect.poll(() => pendingShown(first, world.group)?.every((pending) => pending.state === 'failed')).toBe(true)
    await first.core.stop()

    // The second run drains the queue: two go through, the third reaches the service but its
    // answer is lost (and push cannot tell), and the app stops there, with the last two never sent.
    const lost = world.proxy.loseAnswersTo(GROUP_SEND, 1, 2)
    world.proxy.block(PUSH)
    world.proxy.restore()
    const second = await nextRun(world)
    await lost
    await second.core.stop()
    world.proxy.unblock()
    await expect.poll(() => pendingShown(second, world.group)?.every((pending) => pending.state === 'failed')).toBe(true)
    expect((await storedByAda(world, world.group)).map((message) => message.text)).toEqual(texts.slice(0, 3))
    expect((await outboxOnDisk(world)).map((pending) => pending.text)).toEqual(texts.slice(2))

    const third = await nextRun(world)
    await untilOutboxEmpty(third, world.group)
    const stored = await storedByAda(world, world.group)
    expect(stored.map((message) => [message.text, message.source_guid])).toEqual(texts.map((text, index) => [text, clientIds[index]]))
    await expectShownOnce(third, world.group, texts)
  })

  it('loses and doubles nothing when the app restarts while the service is down', async () => {
    const world = await rig()
    const first = await firstRun(world)
    // The service takes one message and goes down before its answer, or push, can say so.
    world.proxy.block(PUSH)
    const lost = world.proxy.loseAnswersTo(GROUP_SEND)
    const [tookId] = await write(first, world.group, ['taken, never confirmed'])
    await lost
    await world.serviceDown()
    world.proxy.unblock()
    const laterIds = await write(first, world.group, ['while down 1', 'while down 2'])
    const chatIds = await write(first, world.chat, ['while down to Grace'])
    await expect.poll(() => pendingShown(first, world.group)?.every((pending) => pending.state === 'failed')).toBe(true)
    await first.core.stop()

    const second = await nextRun(world)
    expect(await second.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: world.ada.id } })
    expect(pendingShown(second, world.group)?.map((pending) => pending.text)).toEqual(['taken, never confirmed', 'while down 1', 'while down 2'])

    await world.serviceBack()
    await untilOutboxEmpty(second, world.group)
    await untilOutboxEmpty(second, world.chat)
    const group = await storedByAda(world, world.group)
    expect(group.map((message) => message.source_guid)).toEqual([tookId, ...laterIds])
    expect((await storedByAda(world, world.chat)).map((message) => message.source_guid)).toEqual(chatIds)
    await expectShownOnce(second, world.group, ['taken, never confirmed', 'while down 1', 'while down 2'])
    await expectShownOnce(second, world.chat, ['while down to Grace'])
  })
})
