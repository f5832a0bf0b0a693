// The app killed at any moment opens its store again with nothing lost and nothing doubled. Browser
// mode's real host process (the one `npm run build` leaves in out/browser/) runs on one data
// directory against the real local service; each round it starts on what the last one left, a
// burst of pushes comes in, the app sends messages of its own, and its full-history download (on by
// default) goes on through groups long enough to take several rounds; the process is killed with
// SIGKILL at a seeded moment. After every kill the store left on disk must open, hold each message
// once with the service's id and text, and never pass a gap off as continuous (every run it records
// holds exactly the service's messages in that stretch), in every conversation; and every message the app took to send
// (answered) must be on the service or still in the outbox its store keeps, with the count of
// unsent messages kept beside the store saying no fewer than wait there. At the end, a last start
// sends what waited: each such message is on the service once, the history the app shows is the
// service's, in order, and the download ends with every archive kept whole.
//
// The moments follow a seeded schedule: the seed is printed, and KILL_SEED=<seed> runs the same one
// again; KILL_ROUNDS=<n> runs longer (CI's default keeps the file well under a minute).
import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Sqlite from 'better-sqlite3-multiple-ciphers'
import { beforeAll, describe, expect, it } from 'vitest'
import { seededRandom } from '../../server/src/seed/prng'
import type { TestService, TestUser } from '../../server/test/support'
import type { Message, PendingMessage } from '@shared/messages'
import type { OpenedConversation } from '@shared/conversations'
import type { StorageState } from '@shared/storage'
import { ensureHostBuilt } from '../../scripts/web.mjs'
import { environmentWithoutParley, exited, startBrowserCli, type BrowserCli } from '../support/browser-cli'
import { testScope } from '../support/app-harness'
import { quietLog } from '../support/memory-platform'
import { FileLocalStores } from '../../src/main/storage/local-store/local-stores'
import { keyed } from '../../src/main/storage/local-store/sqlcipher-key'
import { PLAIN_FILE } from '../../src/main/storage/local-store/store-keys'
import { UnsentCountFile, type UnsentCount } from '../../src/main/storage/local-store/unsent-count'

const { cleanups, service: serviceFor } = testScope()

const SEED = Number(process.env.KILL_SEED ?? Math.floor(Math.random() * 2 ** 32))
const ROUNDS = Number(process.env.KILL_ROUNDS ?? 8)
/** The latest moment of a kill after a round's traffic begins. */
const KILL_WITHIN_MS = 1_500

interface Scene {
  service: TestService
  dataDir: string
  ada: TestUser
  bea: TestUser
  groupId: string
  /** Groups with long histories that the download reads, a page of 100 every 200 ms, across rounds. */
  archives: string[]
  random: () => number
  /** Every message the app was asked to send, and whether it answered that it took it. */
  sends: { text: string; answered: boolean }[]
}

/** What a round does while the app runs; each resolves when its part is done, or the app is gone. */
type Driver = (scene: Scene, cli: BrowserCli, round: number) => Promise<void>

/** A burst from Bea over REST, pushed to the app as it comes. */
const pushes: Driver = async (scene, _cli, round) => {
  const count = 3 + Math.floor(scene.random() * 12)
  for (let n = 1; n <= count; n += 1) await scene.service.sendGroupMessage(scene.bea, scene.groupId, `round ${round} push ${n}`)
}

/** Messages the app sends, a moment apart, as a person typing would. */
const sends: Driver = async (scene, cli, round) => {
  const count = 1 + Math.floor(scene.random() * 5)
  const gaps = Array.from({ length: count }, () => Math.floor(scene.random() * 250))
  for (let n = 1; n <= count; n += 1) {
    await pause(gaps[n - 1] ?? 0)
    if (cli.child.exitCode !== null || cli.child.signalCode !== null) return
    const text = `round ${round} send ${n}`
    const send = { text, answered: false }
    scene.sends.push(send)
    const answer = await cli.invoke('messages:send', { conversationId: scene.groupId, text, clientId: `r${round}-s${n}-${SEED}` })
    send.answered = answer.ok
  }
}

// The full-history download needs no driver: it runs by itself in every round (its pages of the
// archives are what the checks after each kill find in the runs of the conversations it reads).
const DRIVERS: Driver[] = [pushes, sends]
/** How many archives, and how long each: some 16 pages in all, a few seconds of the download's pace. */
const ARCHIVES = 4
const ARCHIVE_LENGTH = 320

describe('the app killed at any moment', () => {
  beforeAll(() => ensureHostBuilt(), 180_000)

  it(`opens its store again with nothing lost and nothing doubled (KILL_SEED=${SEED}, ${ROUNDS} rounds)`, async () => {
    console.log(`kill test: KILL_SEED=${SEED} KILL_ROUNDS=${ROUNDS}`)
    const scene = await setUp()
    let cli = await start(scene)
    await signIn(scene, cli)

    /** Archive messages kept after each kill: the download was under way when it came. */
    const downloaded: number[] = []
    for (let round = 1; round <= ROUNDS; round += 1) {
      await ready(scene, cli)
      const killAfter = Math.floor(scene.random() * KILL_WITHIN_MS)
      const traffic = Promise.all(DRIVERS.map((drive) => drive(scene, cli, round)))
      await pause(killAfter)
      cli.child.kill('SIGKILL')
      await exited(cli.child)
      await traffic
      await checkStoreLeft(scene, await everyHistory(scene), `round ${round}, killed ${killAfter} ms in`)
      await checkNothingWrittenLost(scene, await serviceMessages(scene), `round ${round}, killed ${killAfter} ms in`)
      downloaded.push(await archiveMessagesKept(scene))
      cli = await start(scene)
    }

    // A last start sends what waited, and shows the service's history whole.
    await ready(scene, cli)
    const answered = scene.sends.filter((send) => send.answered).map((send) => send.text)
    await until(async () => {
      const onService = new Set((await serviceMessages(scene)).map((message) => message.text))
      return answered.every((text) => onService.has(text))
    }, 20_000, 'every message the app took to send reaches the service')
    const final = await serviceMessages(scene)
    const texts = final.map((message) => message.text)
    for (const send of scene.sends) expect(texts.filter((text) => text === send.text).length, send.text).toBeLessThanOrEqual(1)
    expect(new Set(texts).size).toBe(texts.length)
    // The download runs only once catch-up has brought every conversation up to date: done, the
    // history opened is the service's (an open before then shows what was kept, the rest to follow).
    await until(async () => {
      const storage = await cli.invoke('storage:get', {})
      return storage.ok && (storage.value as StorageState).download.state === 'done'
    }, 30_000, 'the history download to end')
    expect(await shownHistory(scene, cli)).toEqual(final)
    await cli.stop()
    const histories = await everyHistory(scene)
    await checkStoreLeft(scene, histories, 'at the end')
    for (const [conversationId, history] of histories) expect(await storedTexts(scene, conversationId), conversationId).toEqual(history.map((message) => message.text))
    console.log(`kill test: ${ROUNDS} kills; ${final.length} messages, ${scene.sends.length} sent by the app (${answered.length} answered), kept once each`)
    console.log(`kill test: archive messages kept after each kill, of ${ARCHIVES * ARCHIVE_LENGTH}: ${downloaded.join(', ')}`)
  }, 30_000 + ROUNDS * 10_000)
})

async function setUp(): Promise<Scene> {
  const service = await serviceFor()
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-kill-'))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const ada = await service.signUp({ name: 'Ada' })
  const bea = await service.signUp({ name: 'Bea' })
  const groupId = String((await service.createGroup(ada, { name: 'Quarry' })).id)
  await service.addMember(ada, groupId, bea)
  for (let n = 1; n <= 60; n += 1) await service.sendGroupMessage(bea, groupId, `before ${n}`)
  const archives: string[] = []
  for (let a = 1; a <= ARCHIVES; a += 1) {
    const archive = String((await service.createGroup(bea, { name: `Archive ${a}` })).id)
    await service.addMember(bea, archive, ada)
    for (let n = 1; n <= ARCHIVE_LENGTH; n += 1) await service.sendGroupMessage(bea, archive, `archive ${a} message ${n}`)
    archives.push(archive)
  }
  return { service, dataDir, ada, bea, groupId, archives, random: seededRandom(SEED), sends: [] }
}

async function start(scene: Scene): Promise<BrowserCli> {
  const cli = await startBrowserCli(
    ['--service-origin', scene.service.origin, '--data-dir', scene.dataDir, '--port', '0'],
    { ...environmentWithoutParley(), PARLEY_VERIFY_TOKEN: scene.service.attestationSecret },
    { built: true }
  )
  cleanups.push(() => cli.stop())
  expect(await cli.invoke('app:ready', {})).toEqual({ ok: true, value: null })
  return cli
}

async function signIn({ service, ada }: Scene, cli: BrowserCli): Promise<void> {
  const signedIn = await cli.invoke('session:signIn', { username: ada.email, password: ada.password })
  if (signedIn.ok && (signedIn.value as { status: string }).status === 'verificationRequired') {
    await cli.invoke('session:sendCode', {})
    expect(await cli.invoke('session:confirmCode', { code: await service.lastPin(ada.phoneNumber) })).toMatchObject({ ok: true })
  }
}

/** Up again on what the last run left: nothing was set aside or told, the conversation is open and push live. */
async function ready(scene: Scene, cli: BrowserCli): Promise<void> {
  await cli.event('conversations:changed', (list) => list.some((conversation) => conversation.id === scene.groupId))
  const opened = await cli.invoke('conversations:open', { conversationId: scene.groupId })
  expect(opened, cli.output()).toMatchObject({ ok: true })
  await cli.event('push:status', (status) => status === 'connected')
  expect(setAside(scene)).toEqual([])
  await expect(cli.event('storage:notice', () => true, 1)).rejects.toThrow()
}

/** The whole history the app shows, oldest first, paging back as scrolling up does. */
async function shownHistory(scene: Scene, cli: BrowserCli): Promise<{ id: string; text: string }[]> {
  const opened = await cli.invoke('conversations:open', { conversationId: scene.groupId })
  if (!opened.ok) throw new Error(opened.error.message)
  let page = opened.value as OpenedConversation
  const shown = [...page.messages]
  while (page.hasOlder && shown[0] !== undefined) {
    const older = await cli.invoke('messages:loadOlder', { conversationId: scene.groupId, beforeId: shown[0].id })
    if (!older.ok) throw new Error(older.error.message)
    page = { ...page, ...(older.value as { messages: Message[]; hasOlder: boolean }) }
    shown.unshift(...page.messages)
  }
  return shown.map(({ id, text }) => ({ id, text }))
}

/** Every group's whole history as the service has it, oldest first, by group. */
async function everyHistory(scene: Scene): Promise<Map<string, { id: string; text: string }[]>> {
  const histories = new Map<string, { id: string; text: string }[]>()
  for (const groupId of [scene.groupId, ...scene.archives]) histories.set(groupId, await serviceMessages(scene, groupId))
  return histories
}

/** A group's whole history as the service has it, oldest first (the open group's by default). */
async function serviceMessages({ service, ada, groupId: openGroup }: Scene, groupId = openGroup): Promise<{ id: string; text: string }[]> {
  const all: { id: string; text: string }[] = []
  let after = '0'
  for (;;) {
    const { status, body } = await service.call<{ response: { messages: { id: string; text: string | null }[] } }>(
      'GET',
      `/v3/groups/${groupId}/messages?after_id=${after}&limit=100`,
      { token: ada.token }
    )
    if (status === 304) return all
    expect(status).toBe(200)
    const page = body.response.messages
    all.push(...page.map(({ id, text }) => ({ id, text: text ?? '' })))
    const last = page.at(-1)
    if (last === undefined || page.length < 100) return all
    after = last.id
  }
}

function storeDir({ dataDir }: Scene): string {
  return join(dataDir, 'store')
}

function setAside(scene: Scene): string[] {
  return existsSync(storeDir(scene)) ? readdirSync(storeDir(scene)).filter((name) => name.includes('set-aside')) : []
}

interface Kept {
  messages: { conversationId: string; id: string; text: string; sortKey: bigint }[]
  runs: { conversationId: string; first: bigint; last: bigint; reachesStart: boolean }[]
  /** What waits unsent, as the app reads it back at its next start. */
  outbox: PendingMessage[]
  /** What the count beside the store says waits unsent. */
  unsent: UnsentCount
}

/**
 * Reads the store as the killed process left it, from a copy (so the next start still meets the
 * files exactly as they were): it must open as the app opens it (checked, recovered from its
 * journal, migrated), with nothing set aside.
 */
async function readStoreLeft(scene: Scene): Promise<Kept> {
  const copy = mkdtempSync(join(tmpdir(), 'parley-kill-copy-'))
  try {
    cpSync(storeDir(scene), copy, { recursive: true })
    const unsent = new UnsentCountFile(join(copy, `${scene.ada.id}.unsent`)).read()
    const { store, setAside: told } = await new FileLocalStores({ directory: copy, sealing: PLAIN_FILE, log: quietLog }).open(scene.ada.id)
    const outbox = await store.outbox()
    await store.close()
    expect(told).toBeNull()
    expect(readdirSync(copy).filter((name) => name.includes('set-aside'))).toEqual([])
    return { ...readKept(join(copy, `${scene.ada.id}.db`), readFileSync(join(copy, `${scene.ada.id}.key`), 'utf8')), outbox, unsent }
  } finally {
    rmSync(copy, { recursive: true, force: true })
  }
}

function readKept(file: string, key: string): Omit<Kept, 'outbox' | 'unsent'> {
  const db = new Sqlite(file)
  try {
    keyed(db, key)
    const messages = db.prepare('SELECT conversation_id AS conversationId, id, json, sort_key AS sortKey FROM messages ORDER BY sort_key').safeIntegers(true).all() as {
      conversationId: string
      id: string
      json: string
      sortKey: bigint
    }[]
    const runs = db.prepare('SELECT conversation_id AS conversationId, first_key AS first, last_key AS last, reaches_start AS reachesStart FROM runs').safeIntegers(true).all() as {
      conversationId: string
      first: bigint
      last: bigint
      reachesStart: bigint
    }[]
    return {
      messages: messages.map(({ conversationId, id, json, sortKey }) => ({ conversationId, id, text: (JSON.parse(json) as Message).text, sortKey })),
      runs: runs.map((run) => ({ ...run, reachesStart: run.reachesStart === 1n }))
    }
  } finally {
    db.close()
  }
}

/**
 * In every conversation: every message kept is the service's, once; every run kept holds exactly
 * the service's messages in its stretch.
 */
async function checkStoreLeft(scene: Scene, histories: Map<string, { id: string; text: string }[]>, when: string): Promise<void> {
  if (!existsSync(join(storeDir(scene), `${scene.ada.id}.db`))) return
  const kept = await readStoreLeft(scene)
  for (const [conversationId, service] of histories) {
    const messages = kept.messages.filter((message) => message.conversationId === conversationId)
    const byId = new Map(service.map((message) => [message.id, message.text]))
    for (const message of messages) expect(byId.get(message.id), `${when}: kept ${message.id} "${message.text}"`).toBe(message.text)
    const texts = messages.map((message) => message.text)
    expect(new Set(texts).size, `${when}: a message kept twice`).toBe(texts.length)
    for (const run of kept.runs.filter((candidate) => candidate.conversationId === conversationId)) {
      const inStretch = (id: string): boolean => BigInt(id) >= run.first && BigInt(id) <= run.last
      const expected = service.filter((message) => inStretch(message.id)).map((message) => message.id)
      const held = messages.filter((message) => inStretch(message.id)).map((message) => message.id)
      expect(held, `${when}: the run ${run.first}–${run.last} of ${conversationId} has a hole`).toEqual(expected)
      if (run.reachesStart) expect(service[0]?.id, `${when}: a run said to reach the start of ${conversationId} does not`).toBe(held[0])
    }
  }
  // Nothing kept of a conversation the test does not know.
  expect(kept.messages.filter((message) => !histories.has(message.conversationId))).toEqual([])
}

/**
 * Every message the app took to send is on the service or still waits in the outbox its store
 * keeps; and the count kept beside the store never says fewer wait than do, so a store that later
 * could not be read would still be told with every message it held.
 */
async function checkNothingWrittenLost(scene: Scene, service: { id: string; text: string }[], when: string): Promise<void> {
  const onService = new Set(service.map((message) => message.text))
  const kept = existsSync(join(storeDir(scene), `${scene.ada.id}.db`)) ? await readStoreLeft(scene) : { outbox: [], unsent: 0 }
  const waiting = new Set(kept.outbox.map((message) => message.text))
  for (const send of scene.sends.filter((sent) => sent.answered)) {
    expect(onService.has(send.text) || waiting.has(send.text), `${when}: "${send.text}" was taken to send and then lost`).toBe(true)
  }
  expect(kept.unsent, `${when}: the count of unsent messages beside the store`).not.toBe('unknown')
  expect(kept.unsent, `${when}: the count of unsent messages beside the store`).toBeGreaterThanOrEqual(kept.outbox.length)
}

/** How many messages of the archives the store left holds. */
async function archiveMessagesKept(scene: Scene): Promise<number> {
  if (!existsSync(join(storeDir(scene), `${scene.ada.id}.db`))) return 0
  return (await readStoreLeft(scene)).messages.filter((message) => scene.archives.includes(message.conversationId)).length
}

/** The texts of one conversation in the store left, in its order. */
async function storedTexts(scene: Scene, conversationId: string): Promise<string[]> {
  return (await readStoreLeft(scene)).messages.filter((message) => message.conversationId === conversationId).map((message) => message.text)
}

function pause(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms))
}

async function until(condition: () => Promise<boolean>, timeoutMs: number, what: string): Promise<void> {
  const giveUpAt = Date.now() + timeoutMs
  while (!(await condition())) {
    if (Date.now() > giveUpAt) throw new Error(`Waited ${timeoutMs} ms for this in vain: ${what}.`)
    await pause(100)
  }
}
