// The download of full history against the real local service and a real encrypted store on disk:
// every older message of every conversation reaches the store once and in order, through the
// message flow; it stops on an empty page, not a short one; it goes on from what the store holds
// after a restart; it waits longer each time the service says it is busy; it never runs while
// paused, while push is away, or while a request of the user's is on its way; and it steps aside
// while messages arrive live.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestService, TestUser } from '../../server/test/support'
import type { ConversationId } from '@shared/conversation-id'
import { chatId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { HistoryDownload } from '@shared/storage'
import { localServiceConfig } from '../../src/main/api/service-config'
import { Attention } from '../../src/main/core/attention'
import { Backfill, BACKFILL_PAGE, type BackfillDependencies } from '../../src/main/core/backfill'
import { ManualTime } from '../../src/main/core/testing/manual-time'
import { MessageFlow, type HistoryPage } from '../../src/main/core/message-flow'
import type { LocalStore, ServiceGateway } from '../../src/main/core/ports'
import type { Timers } from '../../src/main/core/timers'
import { storageHandlers } from '../../src/main/core/storage-handlers'
import { connectToService } from '../../src/main/service/service-connection'
import { FileLocalStores } from '../../src/main/storage/local-store/local-stores'
import { PLAIN_FILE } from '../../src/main/storage/local-store/store-keys'
import { launchApp, signInThroughSms, testScope } from '../support/app-harness'
import { startBusyService } from '../support/busy-service'
import { FakeIdle, issuedToken, issuerAt, MemoryPreferences, quietLog } from '../support/memory-platform'

const { cleanups, service: serviceFor } = testScope()

const HISTORY_READ = /^GET \/v3\/groups\/\d+\/messages\?/

/** Ada's view of the service at `origin`, as core's gateway sees it. */
function gatewayFor(origin: string, ada: TestUser): ServiceGateway {
  const connection = connectToService({ config: localServiceConfig(origin), log: quietLog })
  connection.attach({
    token: () => issuedToken(ada.token, issuerAt(origin)),
    me: () => ({ id: ada.id, name: 'Ada', avatarUrl: null }),
    message: () => undefined,
    reaction: () => undefined,
    messageChanged: () => undefined,
    typing: () => undefined,
    conversationsChanged: () => undefined,
    status: () => undefined,
    live: () => undefined,
    tokenRefused: () => undefined,
    tokenElsewhere: () => undefined
  })
  return connection.gateway
}

/** A store on disk, in a directory the test's teardown removes. */
async function storeOnDisk(directory?: string): Promise<{ directory: string; open: () => Promise<LocalStore> }> {
  const dir = directory ?? join(mkdtempSync(join(tmpdir(), 'parley-backfill-')), 'store')
  if (directory === undefined) cleanups.push(() => rmSync(join(dir, '..'), { recursive: true, force: true }))
  const stores = new FileLocalStores({ directory: dir, sealing: PLAIN_FILE, log: quietLog })
  return {
    directory: dir,
    open: async () => {
      const { store } = await stores.open('ada')
      cleanups.push(() => store.close())
      return store
    }
  }
}

/**
 * The flow, with the store listening to it as core's own listener does: a page of history is kept as
 * one stretch, joined to the message it was read before, reaching the start when the page says so.
 */
function flowInto(store: LocalStore): { flow: MessageFlow; pages: HistoryPage[] } {
  const flow = new MessageFlow((event, error) => {
    throw new Error(`a listener of ${event} failed: ${String(error)}`)
  })
  const pages: HistoryPage[] = []
  flow.on('paged', (page) => {
    pages.push(page)
    void store.keepRun(page.conversationId, page.messages, { after: null, before: page.before, reachesStart: page.atStart })
  })
  return { flow, pages }
}

/** Timers a test runs by hand: nothing waits until it says so. */
class HandTimers implements Timers {
  readonly waiting: { delayMs: number; task: () => void }[] = []
  after(delayMs: number, task: () => void): () => void {
    const entry = { delayMs, task }
    this.waiting.push(entry)
    return () => {
      const at = this.waiting.indexOf(entry)
      if (at >= 0) this.waiting.splice(at, 1)
    }
  }

  /** Runs the task waiting (there is at most one), and says how long it was to wait. */
  run(): number {
    const entry = this.waiting.shift()
    if (entry === undefined) throw new Error('nothing waits')
    entry.task()
    return entry.delayMs
  }
}

interface Seeded {
  service: TestService
  ada: TestUser
  bea: TestUser
  launch: ConversationId
  trail: ConversationId
  chat: ConversationId
  /** Every message's text, oldest first, per conversation. */
  texts: Map<ConversationId, string[]>
  list: Conversation[]
}

/**
 * Ada's chat with Bea (3 messages, the oldest activity), the group Trail (30), then the group Launch
 * Team (260, the newest): 260 is 50 read as the newest page, then older pages of 100, 100 and a short 10.
 */
async function seeded(): Promise<Seeded> {
  const service = await serviceFor()
  const ada = await service.signUp({ name: 'Ada' })
  const bea = await service.signUp({ name: 'Bea' })
  const texts = new Map<ConversationId, string[]>()
  const chat = chatId(ada.id, bea.id)
  texts.set(chat, [])
  for (let n = 1; n <= 3; n += 1) {
    await service.sendDirectMessage(bea, ada.id, `chat ${n}`)
    texts.get(chat)?.push(`chat ${n}`)
  }
  const group = async (name: string, count: number): Promise<ConversationId> => {
    const id = String((await service.createGroup(ada, { name })).id) as ConversationId
    texts.set(id, [])
    for (let n = 1; n <= count; n += 1) {
      const text = `${name} ${n}`
      await service.sendGroupMessage(ada, id, text)
      texts.get(id)?.push(text)
    }
    return id
  }
  const trail = await group('Trail', 30)
  const launch = await group('Launch Team', 260)
  const list = await gatewayFor(service.origin, ada).listConversations()
  return { service, ada, bea, launch, trail, chat, texts, list }
}

interface Run {
  backfill: Backfill
  heard: HistoryDownload[]
  pages: HistoryPage[]
  preferences: MemoryPreferences
}

function backfillOf(options: { origin: string; scene: Seeded; store: LocalStore } & Partial<Omit<BackfillDependencies, 'store'>>): Run {
  const { origin, scene, store, ...rest } = options
  const { flow, pages } = flowInto(store)
  const heard: HistoryDownload[] = []
  const preferences = new MemoryPreferences()
  const backfill = new Backfill({
    service: gatewayFor(origin, scene.ada),
    flow,
    store: () => store,
    conversations: () => scene.list,
    enabled: () => true,
    preferences,
    pushConnected: () => true,
    changed: (download) => heard.push(download),
    log: quietLog,
    intervalMs: 1,
    ...rest
  })
  cleanups.push(() => backfill.stop())
  return { backfill, heard, pages, preferences }
}

const lastHeard = (run: Run): HistoryDownload | undefined => run.heard.at(-1)

/** Ada's history read from the real service, each request's time on `time` noted, each answer taking `answerMs` of it. */
function clockedHistory(scene: Seeded, time: ManualTime, answerMs = 0): { service: BackfillDependencies['service']; requestsAt: number[] } {
  const real = gatewayFor(scene.service.origin, scene.ada)
  const requestsAt: number[] = []
  const clocked = async <T>(read: () => Promise<T>): Promise<T> => {
    requestsAt.push(time.now)
    const answer = await read()
    time.now += answerMs
    return answer
  }
  return {
    requestsAt,
    service: {
      latestMessages: (id, limit) => clocked(() => real.latestMessages(id, limit)),
      messagesBefore: (id, before, limit) => clocked(() => real.messagesBefore(id, before, limit))
    }
  }
}

async function storedTexts(store: LocalStore, conversationId: ConversationId): Promise<{ texts: string[]; older: string }> {
  const history = await store.newest(conversationId, 10_000)
  return { texts: history?.messages.map((message) => message.text) ?? [], older: history?.older ?? 'nothing kept' }
}

describe('downloading full history', () => {
  it('keeps every message of every conversation once and in order, newest conversation first, each ended by an empty page', { timeout: 60_000 }, async () => {
    const scene = await seeded()
    const { open } = await storeOnDisk()
    const store = await open()
    // Launch Team was opened: its newest 50 are kept already, as opening it keeps them.
    const opened = await gatewayFor(scene.service.origin, scene.ada).latestMessages(scene.launch, 50)
    await store.keepRun(scene.launch, opened, { after: null, before: null, reachesStart: false })

    const run = backfillOf({ origin: scene.service.origin, scene, store })
    run.backfill.caughtUp()
    await expect.poll(() => lastHeard(run)?.state, { timeout: 30_000 }).toBe('done')

    for (const [conversationId, texts] of scene.texts) {
      expect(await storedTexts(store, conversationId), conversationId).toEqual({ texts, older: 'none' })
      expect(await store.messageCount(conversationId)).toBe(texts.length)
    }
    // Newest first: Launch Team, then Trail, then the chat; each read to an empty page.
    const order = [...new Set(run.pages.map((page) => page.conversationId))]
    expect(order).toEqual([scene.launch, scene.trail, scene.chat])
    const sizes = (id: ConversationId): number[] => run.pages.filter((page) => page.conversationId === id).map((page) => page.messages.length)
    expect(sizes(scene.launch)).toEqual([BACKFILL_PAGE, BACKFILL_PAGE, 10, 0])
    expect(sizes(scene.trail)).toEqual([30, 0])
    expect(sizes(scene.chat)).toEqual([3, 0])
    // Only the empty page says the start is reached; the short one does not.
    expect(run.pages.filter((page) => page.atStart).map((page) => page.messages.length)).toEqual([0, 0, 0])
    expect(run.pages.filter((page) => page.conversationId === scene.launch).every((page) => page.end === 'older')).toBe(true)
    expect(lastHeard(run)).toEqual({ state: 'done', conversationsDone: 3, conversations: 3, current: null })
    // On the way it said which conversation, and how much of it was kept against what the service counts.
    expect(run.heard).toContainEqual(
      expect.objectContaining({ state: 'downloading', current: { conversationId: scene.launch, name: 'Launch Team', kept: 150, total: 260 } })
    )
  })

  it('asks at a steady pace: one page an interval, from the start of one request to the next, the time each page took counted in', { timeout: 60_000 }, async () => {
    const scene = await seeded()
    const { open } = await storeOnDisk()
    const store = await open()
    const time = new ManualTime()
    // Each answer takes 120 ms of the clock, as a slow service's would.
    const { service, requestsAt } = clockedHistory(scene, time, 120)
    const run = backfillOf({ origin: scene.service.origin, scene, store, intervalMs: 200, timers: time, now: () => time.now, service })
    run.backfill.caughtUp()
    // Each wait in turn, until the download says it is done (its last step, after the last wait, says so).
    const settled = (): boolean => time.pending > 0 || lastHeard(run)?.state === 'done'
    for (;;) {
      await expect.poll(settled, { timeout: 10_000 }).toBe(true)
      if (time.pending === 0) break
      await time.next()
    }
    // Launch Team's 4 pages, Trail's 2, the chat's 2.
    expect(requestsAt).toHaveLength(8)
    const apart = requestsAt.slice(1).map((at, index) => at - (requestsAt[index] ?? 0))
    expect(apart).toEqual(Array.from({ length: 7 }, () => 200))
  })

  it('steps aside while messages arrive live: a page waits for a second without one, never longer than ten seconds after the last, and the time is made up after', { timeout: 60_000 }, async () => {
    const scene = await seeded()
    const store = await (await storeOnDisk()).open()
    const time = new ManualTime()
    const { service, requestsAt } = clockedHistory(scene, time)
    let liveAt: number | null = null
    const run = backfillOf({ origin: scene.service.origin, scene, store, intervalMs: 200, timers: time, now: () => time.now, liveAt: () => liveAt, service })
    /** Runs the one wait there is, once the step before has set it. */
    const nextWait = async (): Promise<void> => {
      await expect.poll(() => time.pending).toBe(1)
      await time.next()
    }
    const pendingAt = (): number => time.waits.find((wait) => !wait.cancelled && !wait.ran)?.at ?? Number.NaN

    run.backfill.caughtUp()
    await nextWait()
    await expect.poll(() => requestsAt.length).toBe(1)
    const first = requestsAt[0] ?? Number.NaN

    // A message arrives 100 ms after the first page was asked for: the next waits until a second
    // after it, where it would have gone at 200 ms.
    liveAt = first + 100
    await nextWait()
    await expect.poll(() => time.pending).toBe(1)
    expect(requestsAt).toHaveLength(1)
    expect(pendingAt()).toBe(first + 1_100)
    await nextWait()
    await expect.poll(() => requestsAt.length).toBe(2)
    expect(requestsAt[1]).toBe(first + 1_100)

    // A group that never falls quiet: a message arrives each time the page would go. It goes ten
    // seconds after the last, all the same.
    const second = requestsAt[1] ?? Number.NaN
    await expect.poll(() => time.pending).toBe(1)
    for (let turn = 0; turn < 30 && requestsAt.length === 2; turn += 1) {
      liveAt = pendingAt()
      await time.next()
      await expect.poll(() => time.pending).toBe(1)
    }
    expect(requestsAt[2]).toBe(second + 10_000)

    // Quiet again: a second after the last message the pages go on, faster than the pace (150 ms
    // apart, not 200) to make up the time given, until the last of the eight.
    const third = requestsAt[2] ?? Number.NaN
    for (let turn = 0; turn < 20 && requestsAt.length < 8; turn += 1) await nextWait()
    await expect.poll(() => requestsAt.length).toBe(8)
    expect(requestsAt[3]).toBe(third + 1_000)
    expect(requestsAt.slice(4).map((at, index) => at - (requestsAt[3 + index] ?? 0))).toEqual([150, 150, 150, 150])
  })

  it('goes on from what the store holds after a restart, reading no page twice', { timeout: 60_000 }, async () => {
    const scene = await seeded()
    const disk = await storeOnDisk()
    const timers = new HandTimers()
    let store = await disk.open()
    const first = backfillOf({ origin: scene.service.origin, scene, store, timers })
    first.backfill.caughtUp()
    // Three pages: Launch Team's newest and two older ones. Then the app stops.
    for (let pages = 1; pages <= 3; pages += 1) {
      timers.run()
      await expect.poll(() => first.pages.length).toBe(pages)
      await expect.poll(() => timers.waiting.length).toBe(1)
    }
    first.backfill.stop()
    await store.close()

    store = await (await storeOnDisk(disk.directory)).open()
    const second = backfillOf({ origin: scene.service.origin, scene, store })
    second.backfill.caughtUp()
    await expect.poll(() => lastHeard(second)?.state, { timeout: 30_000 }).toBe('done')
    const read = [...first.pages, ...second.pages].map((page) => `${page.conversationId} ${page.before ?? 'newest'}`)
    expect(new Set(read).size).toBe(read.length)
    expect(second.pages[0]).toMatchObject({ conversationId: scene.launch, before: first.pages[2]?.messages[0]?.id })
    for (const [conversationId, texts] of scene.texts) expect(await storedTexts(store, conversationId)).toEqual({ texts, older: 'none' })
  })

  it.each([429, 503])('waits longer each time the service answers %i, then reads on', { timeout: 60_000 }, async (status) => {
    const scene = await seeded()
    const busy = await startBusyService(scene.service.origin)
    cleanups.push(() => busy.close())
    const store = await (await storeOnDisk()).open()
    const run = backfillOf({ origin: busy.origin, scene, store, firstBackoffMs: 300, longestBackoffMs: 10_000 })
    busy.refuse(HISTORY_READ, 3, status)
    run.backfill.caughtUp()
    await expect.poll(() => run.heard.some((download) => download.state === 'waiting' && download.current !== null), { timeout: 10_000 }).toBe(true)
    await expect.poll(() => lastHeard(run)?.state, { timeout: 30_000 }).toBe('done')

    const [a = 0, b = 0, c = 0, d = 0] = busy.arrivals
    // 300, 600 and 1200 ms after each refusal, each wait twice the one before; timers may run a little late, never early.
    expect(b - a).toBeGreaterThanOrEqual(290)
    expect(c - b).toBeGreaterThanOrEqual(590)
    expect(d - c).toBeGreaterThanOrEqual(1190)
    for (const [conversationId, texts] of scene.texts) expect(await storedTexts(store, conversationId)).toEqual({ texts, older: 'none' })
  })

  it('asks nothing while paused, across a restart too, and goes on when resumed', { timeout: 60_000 }, async () => {
    const scene = await seeded()
    const store = await (await storeOnDisk()).open()
    const timers = new HandTimers()
    const run = backfillOf({ origin: scene.service.origin, scene, store, timers })
    run.backfill.caughtUp()
    timers.run()
    await expect.poll(() => run.pages.length).toBe(1)
    await expect.poll(() => timers.waiting.length).toBe(1)
    run.backfill.pause()
    expect(timers.waiting).toEqual([])
    expect(lastHeard(run)?.state).toBe('paused')

    // Started again on the same preferences: still paused, whatever catch-up says.
    const { flow } = flowInto(store)
    const again = new Backfill({
      service: gatewayFor(scene.service.origin, scene.ada),
      flow,
      store: () => store,
      conversations: () => scene.list,
      enabled: () => true,
      preferences: run.preferences,
      pushConnected: () => true,
      changed: () => undefined,
      log: quietLog,
      timers
    })
    again.caughtUp()
    expect(again.paused).toBe(true)
    if (timers.waiting.length > 0) timers.run()
    expect(timers.waiting).toEqual([])
    expect((await again.progress()).state).toBe('paused')

    run.backfill.resume()
    expect(run.preferences.get('historyDownloadPaused')).toBe(false)
    timers.run()
    await expect.poll(() => run.pages.length).toBe(2)
  })

  it('waits for push and for the catch-up after it, and gives way to the user\'s requests', { timeout: 60_000 }, async () => {
    const scene = await seeded()
    const store = await (await storeOnDisk()).open()
    const timers = new HandTimers()
    let pushConnected = true
    let userBusy = false
    const run = backfillOf({ origin: scene.service.origin, scene, store, timers, pushConnected: () => pushConnected, userBusy: () => userBusy })

    // Nothing before catch-up is done.
    expect(timers.waiting).toEqual([])
    run.backfill.caughtUp()
    timers.run()
    await expect.poll(() => run.pages.length).toBe(1)
    await expect.poll(() => timers.waiting.length).toBe(1)

    // The user asked for something: the page waits a turn, then goes.
    userBusy = true
    // The wait after a page is the interval less what the page took.
    expect(timers.run()).toBeLessThanOrEqual(1)
    expect(timers.waiting.map((w) => w.delayMs)).toEqual([1])
    expect(run.pages).toHaveLength(1)
    userBusy = false
    timers.run()
    await expect.poll(() => run.pages.length).toBe(2)
    await expect.poll(() => timers.waiting.length).toBe(1)

    // Push went away: nothing more until the catch-up that follows its return.
    pushConnected = false
    timers.run()
    expect(timers.waiting).toEqual([])
    expect(lastHeard(run)?.state).toBe('waiting')
    pushConnected = true
    run.backfill.caughtUp()
    timers.run()
    await expect.poll(() => run.pages.length).toBe(3)
    expect(run.pages[2]?.before).toBe(run.pages[1]?.messages[0]?.id)
  })

  it('passes by a conversation the service no longer gives, says not all is here, and tries it again after the next catch-up', { timeout: 60_000 }, async () => {
    const scene = await seeded()
    const gone = String((await scene.service.createGroup(scene.bea, { name: 'Gone' })).id) as ConversationId
    await scene.service.call('POST', `/v3/groups/${gone}/members/add`, { token: scene.bea.token, attest: true, body: { members: [{ user_id: scene.ada.id, nickname: 'Ada' }] } })
    await scene.service.sendGroupMessage(scene.bea, gone, 'soon gone')
    scene.list = await gatewayFor(scene.service.origin, scene.ada).listConversations()
    expect(scene.list.map((conversation) => conversation.name)).toContain('Gone')
    await scene.service.call('POST', `/v3/groups/${gone}/destroy`, { token: scene.bea.token })

    const warnings: string[] = []
    const store = await (await storeOnDisk()).open()
    const run = backfillOf({ origin: scene.service.origin, scene, store, log: { ...quietLog, warn: (message) => warnings.push(message) } })
    run.backfill.caughtUp()
    await expect.poll(() => lastHeard(run), { timeout: 30_000 }).toMatchObject({ state: 'waiting', conversationsDone: 3, conversations: 4 })
    expect(warnings).toEqual([`the history download passes ${gone} by`])
    for (const [conversationId, texts] of scene.texts) expect(await storedTexts(store, conversationId)).toEqual({ texts, older: 'none' })

    run.backfill.caughtUp()
    await expect.poll(() => warnings.length, { timeout: 10_000 }).toBe(2)
    expect(lastHeard(run)).toMatchObject({ state: 'waiting', conversationsDone: 3, conversations: 4 })
  })

  it('starts over once the history kept is deleted, and stops when switched off', { timeout: 60_000 }, async () => {
    const scene = await seeded()
    const store = await (await storeOnDisk()).open()
    let enabled = true
    const run = backfillOf({ origin: scene.service.origin, scene, store, enabled: () => enabled })
    run.backfill.caughtUp()
    await expect.poll(() => lastHeard(run)?.state, { timeout: 30_000 }).toBe('done')
    const pagesBefore = run.pages.length

    await store.clearHistory()
    run.backfill.restart()
    await expect.poll(() => lastHeard(run)?.state, { timeout: 30_000 }).toBe('done')
    expect(run.pages.length).toBe(pagesBefore * 2)
    for (const [conversationId, texts] of scene.texts) expect(await storedTexts(store, conversationId)).toEqual({ texts, older: 'none' })

    enabled = false
    run.backfill.enabledChanged()
    expect(lastHeard(run)?.state).toBe('off')
    await store.clearHistory()
    run.backfill.restart()
    expect(lastHeard(run)?.state).toBe('off')
    expect(run.pages.length).toBe(pagesBefore * 2)
  })
})

describe('Settings ▸ Storage, in main', () => {
  it('says what is kept, switches the download off and on, and deletes the history kept but not what waits to be sent', { timeout: 60_000 }, async () => {
    const scene = await seeded()
    const store = await (await storeOnDisk()).open()
    const unsent = { clientId: 'unsent-1', conversationId: scene.launch, text: 'written offline', queuedAt: 1, state: 'failed' as const, error: 'Not sent' }
    await store.keepOutbox([unsent])
    const run = backfillOf({ origin: scene.service.origin, scene, store, enabled: () => attention.settings.keepFullHistory })
    const attention: Attention = new Attention({
      preferences: run.preferences,
      idle: new FakeIdle(),
      now: Date.now,
      host: { tray: false, startAtLogin: false },
      unreadCount: () => 0,
      changed: () => undefined
    })
    const storage = storageHandlers({
      backfill: run.backfill,
      store: () => store,
      settings: () => attention.settings,
      updateSettings: (changes) => attention.updateSettings(changes),
      log: quietLog
    })
    run.backfill.caughtUp()
    await expect.poll(() => lastHeard(run)?.state, { timeout: 30_000 }).toBe('done')

    const kept = await storage['storage:get']({})
    expect(kept).toMatchObject({ keepFullHistory: true, paused: false, download: { state: 'done', conversationsDone: 3, conversations: 3 } })
    expect(kept.usage).toMatchObject({ messages: 293, conversations: 3 })
    expect(kept.usage?.bytes).toBeGreaterThan(0)

    const off = await storage['storage:keepFullHistory']({ on: false })
    expect(off).toMatchObject({ keepFullHistory: false, download: { state: 'off' } })
    expect(run.preferences.get('settings')).toMatchObject({ keepFullHistory: false })

    const deleted = await storage['storage:deleteLocalData']({})
    expect(deleted.usage).toMatchObject({ messages: 0, conversations: 0 })
    expect(deleted.usage?.bytes).toBeLessThan(kept.usage?.bytes ?? 0)
    expect(await store.outbox()).toEqual([unsent])
    // Off, nothing is read again.
    const pagesRead = run.pages.length
    expect(deleted.download).toMatchObject({ state: 'off', conversationsDone: 0, conversations: 3 })

    // On again, all of it comes back.
    await storage['storage:keepFullHistory']({ on: true })
    await expect.poll(() => lastHeard(run)?.state, { timeout: 30_000 }).toBe('done')
    expect(run.pages.length).toBeGreaterThan(pagesRead)
    expect((await storage['storage:get']({})).usage).toMatchObject({ messages: 293, conversations: 3 })

    expect(await storage['storage:pause']({})).toMatchObject({ paused: true, download: { state: 'paused' } })
    expect(await storage['storage:resume']({})).toMatchObject({ paused: false, download: { state: 'done' } })
  })

  it('keeps the switch among the settings and the pause in the preferences, both across a restart of the app', { timeout: 60_000 }, async () => {
    const service = await serviceFor()
    const ada = await service.signUp({ name: 'Ada' })
    const app = launchApp(service.origin, cleanups)
    await signInThroughSms(app, service, ada)
    expect(await app.call('storage:get', {})).toMatchObject({ keepFullHistory: true, paused: false })

    const desktopBefore = app.events.all('desktop:changed').length
    await app.call('storage:keepFullHistory', { on: false })
    await app.events.waitFor('desktop:changed', (state) => !state.settings.keepFullHistory, 5_000, desktopBefore)
    expect(await app.call('storage:pause', {})).toMatchObject({ keepFullHistory: false, paused: true, download: { state: 'off' } })
    expect(app.events.all('storage:progress').at(-1)).toMatchObject({ state: 'off' })

    const again = launchApp(service.origin, cleanups, { vault: app.vault, preferences: app.preferences })
    await again.core.start()
    expect(await again.call('storage:get', {})).toMatchObject({ keepFullHistory: false, paused: true })
    expect((await again.call('desktop:get', {})).settings.keepFullHistory).toBe(false)
    await again.call('storage:keepFullHistory', { on: true })
    expect(await again.call('storage:resume', {})).toMatchObject({ keepFullHistory: true, paused: false })
  })
})
