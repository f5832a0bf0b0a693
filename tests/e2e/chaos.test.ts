// Chaos: Ada and Grace exchange 1,000 messages in a group, from their apps (typed into the composer
// in Chromium) and through REST (as another client of theirs would send), while the service is
// killed outright and started again on the same database 5 times and the network between the apps
// and the service is cut 10 times, and the proxy in between loses answers (to sends the service
// stored, and to the reads that catch up after a kill). At the end every message is stored once,
// shown once and in the service's order in each app, and nothing typed is lost. The faults follow a
// seeded schedule: the seed is printed, and CHAOS_SEED=<seed> runs the same schedule again.
import type { Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seededRandom } from '../../server/src/seed/prng'
import {
  ChaosWorld,
  faultSchedule,
  KeptLog,
  pause,
  postUntilAnswered,
  readShownHistory,
  storedMessages,
  unsentRows,
  until,
  within,
  type Fault,
  type StoredMessage
} from './chaos-world'
import { connection, conversation, FIRST_GROUP } from './support'

const GROUP = FIRST_GROUP
/** Each of the four senders (Ada's app, Grace's app, Ada over REST, Grace over REST) sends this many. */
const PER_SENDER = 250
const KILLS = 5
const CUTS = 10
const GAP_MS: [number, number] = [500, 2_500]
const OUTAGE_MS: [number, number] = [500, 3_000]
/**
 * Each sender's last messages wait until the faults are over, unless an outage wakes them: more of
 * them than there are faults, so no fault ever waits for a sender with nothing left to send, and a
 * few always go out after the last restore.
 */
const TAIL = KILLS + CUTS + 5
/** Roughly how long the faults take, to spread each sender's messages over the same time. */
const RESTART_ALLOWANCE_MS = 1_500
/**
 * Besides, answers are lost. After each cut, the first of the apps' sends reaches the service and
 * its answer is dropped: the case where a retry could store a message twice.
 */
const APP_SEND = /^POST \/v3\/groups\/\d+\/messages /
/**
 * And as the service comes back from each kill, the apps' first reads of what they missed lose
 * their answers: two for each app, its catch-up's and the one its REST client makes again by
 * itself. Push is back by then, and only the app itself can ask again.
 */
const CATCH_UP_READ = /^GET \/v3\/groups\/\d+\/messages\?after_id=/
const CATCH_UP_READS_LOST = 2 * 2
/** How long the answers set up to be lost may take to come (an app reconnects with a backoff). */
const LOSS_WAIT_MS = 30_000

const SEED = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 32))

interface Sender {
  name: string
  /** What it sent (or typed), in order. */
  texts: string[]
  /** Which outages (by number, from 1) it sent a message in. */
  sentInOutage: Set<number>
  /** REST only: sends whose answer was lost, found stored by the next attempt (409). */
  storedBefore: number
}

/** What the fault schedule is doing right now, for the senders to look at. */
const faults = { begun: 0, active: false, over: false, failed: false }

let world: ChaosWorld
const logs = { ada: new KeptLog('ada'), grace: new KeptLog('grace') }
let ada: Page
let grace: Page
let groupId: string
let readToken: string
const senders: Record<'adaUi' | 'graceUi' | 'adaRest' | 'graceRest', Sender> = {
  adaUi: newSender('ada-app'),
  graceUi: newSender('grace-app'),
  adaRest: newSender('ada-rest'),
  graceRest: newSender('grace-rest')
}

function newSender(name: string): Sender {
  return { name, texts: [], sentInOutage: new Set(), storedBefore: 0 }
}

beforeAll(async () => {
  console.log(`chaos seed ${SEED} (CHAOS_SEED=${SEED} runs this schedule again)`)
  world = await ChaosWorld.start()
}, 120_000)

afterAll(async () => {
  await world?.close()
})

/** Both signed in through their apps (behind the proxy) with the group open, and a token to read the group back with. */
async function setUp(): Promise<void> {
  const { e2e } = world
  ada = (await e2e.openApp('ada', { log: logs.ada })).page
  grace = (await e2e.openApp('grace', { log: logs.grace })).page
  await e2e.signIn(ada, e2e.account('Ada'))
  await e2e.signIn(grace, e2e.account('Grace'))
  await expect.poll(() => connection(ada), { timeout: 30_000 }).toBe('Connected')
  await expect.poll(() => connection(grace), { timeout: 30_000 }).toBe('Connected')
  for (const page of [ada, grace]) {
    await conversation(page, GROUP).click()
    await page.getByRole('textbox', { name: 'Message' }).waitFor()
  }
  readToken = await e2e.restToken(e2e.account('Katherine'), 'chaos-reader')
  const groups = await e2e.get<{ response: { id: string; name: string }[] }>('/v3/groups?per_page=100', readToken)
  const group = groups.response.find((candidate) => candidate.name === GROUP)
  if (group === undefined) throw new Error(`no group ${GROUP}`)
  groupId = group.id
}

/** Types the text into the app's composer and sends it, with Enter or the Send button, as a person does; main has it once the composer is empty. */
async function typeAndSend(page: Page, text: string, withButton: boolean): Promise<void> {
  const composer = page.getByRole('textbox', { name: 'Message' })
  await composer.fill(text)
  if (withButton) await page.getByRole('button', { name: 'Send', exact: true }).click()
  else await composer.press('Enter')
  await expect.poll(() => composer.inputValue(), { timeout: 15_000 }).toBe('')
}

/**
 * Sends PER_SENDER messages spread over `spreadMs`. A sender wakes early for an outage it has not
 * sent in yet, so every outage has messages written during it.
 */
async function runSender(sender: Sender, send: (text: string, index: number) => Promise<void>, spreadMs: number): Promise<void> {
  const started = Date.now()
  const paceMs = spreadMs / (PER_SENDER - TAIL)
  try {
    for (let index = 0; index < PER_SENDER && !faults.failed; index++) {
      const due = started + index * paceMs
      const reserved = index >= PER_SENDER - TAIL
      const outageToWriteIn = (): boolean => faults.active && !sender.sentInOutage.has(faults.begun)
      await until(() => outageToWriteIn() || (Date.now() >= due && (!reserved || faults.over)))
      if (faults.active) sender.sentInOutage.add(faults.begun)
      const text = `chaos ${sender.name} ${index}`
      sender.texts.push(text)
      await send(text, index)
    }
  } catch (error) {
    faults.failed = true
    throw error
  }
}

interface PlayedFault {
  fault: Fault
  lastedMs: number
}

/**
 * Plays the schedule: each fault after its gap, lasting its time and until both apps had a message
 * typed during it, then the answers it sets up to be lost. The next fault waits for those: a
 * request is only sure to reach the service while it is up and the network is whole.
 */
async function runFaults(schedule: Fault[]): Promise<PlayedFault[]> {
  const played: PlayedFault[] = []
  try {
    for (const fault of schedule) {
      await pause(fault.gapMs)
      if (faults.failed) break
      const began = Date.now()
      const answersLost: Promise<void>[] = []
      if (fault.kind === 'kill') await world.service.kill()
      else {
        world.proxy.cut()
        // Refused while cut, so the first send to get through is one after the restore.
        answersLost.push(world.proxy.loseAnswersTo(APP_SEND))
      }
      faults.begun += 1
      faults.active = true
      await pause(fault.outageMs)
      const outage = faults.begun
      await until(() => faults.failed || (senders.adaUi.sentInOutage.has(outage) && senders.graceUi.sentInOutage.has(outage)))
      if (fault.kind === 'kill') {
        await world.service.restart()
        answersLost.push(world.proxy.loseAnswersTo(CATCH_UP_READ, CATCH_UP_READS_LOST))
      } else world.proxy.restore()
      faults.active = false
      played.push({ fault, lastedMs: Date.now() - began })
      await within(LOSS_WAIT_MS, Promise.all(answersLost), `the answers to lose after a ${fault.kind}`)
    }
  } catch (error) {
    faults.failed = true
    throw error
  } finally {
    // Whatever happened, the service and the network are back for the checks (and the teardown).
    if (!world.service.running) await world.service.restart()
    world.proxy.restore()
    faults.active = false
    faults.over = true
  }
  return played
}

function everyText(): string[] {
  return Object.values(senders).flatMap((sender) => sender.texts)
}

function chaosMessages(stored: StoredMessage[]): StoredMessage[] {
  return stored.filter((message) => message.text.startsWith('chaos '))
}

/** How the texts shown (in the page's order) differ from what the service stores (in its order); all empty when they agree. */
function compareShown(shown: { id: string; text: string }[], stored: StoredMessage[]) {
  const storedTexts = chaosMessages(stored).map((message) => message.text)
  const expected = new Set(storedTexts)
  const rows = shown.filter((row) => row.text.startsWith('chaos '))
  const idsByText = new Map<string, Set<string>>()
  const copies = new Map<string, number>()
  for (const row of rows) {
    idsByText.set(row.text, (idsByText.get(row.text) ?? new Set()).add(row.id))
    copies.set(row.text, (copies.get(row.text) ?? 0) + 1)
  }
  // The order is compared over the texts both hold, so a message still missing is reported once, as missing.
  const shownOrder = [...new Set(rows.map((row) => row.text))].filter((text) => expected.has(text))
  const storedOrder = storedTexts.filter((text) => copies.has(text))
  const firstOutOfOrder = shownOrder.findIndex((text, index) => text !== storedOrder[index])
  return {
    missing: storedTexts.filter((text) => !copies.has(text)),
    shownTwice: [...copies].filter(([, count]) => count > 1).map(([text]) => text),
    underTwoIds: [...idsByText].filter(([, ids]) => ids.size > 1).map(([text]) => text),
    notStored: [...copies.keys()].filter((text) => !expected.has(text)),
    outOfOrderAt: firstOutOfOrder === -1 ? null : { index: firstOutOfOrder, shown: shownOrder[firstOutOfOrder], stored: storedOrder[firstOutOfOrder] }
  }
}

async function diagnosis(): Promise<string> {
  const unsent = await Promise.all([ada, grace].map((page) => unsentRows(page).catch(() => ['(unreadable)'])))
  return [`unsent in Ada's app: ${JSON.stringify(unsent[0])}`, `unsent in Grace's app: ${JSON.stringify(unsent[1])}`, ...logs.ada.tail(), ...logs.grace.tail()].join('\n')
}

describe(`chaos (seed ${SEED}): 1,000 messages while the service is killed ${KILLS} times and the network cut ${CUTS} times`, () => {
  it('signs Ada and Grace in, each in an app of their own behind the proxy, and opens the group', async () => {
    await setUp()
  }, 120_000)

  it('exchanges the messages from both apps and over REST while the faults play', async () => {
    const started = Date.now()
    const schedule = faultSchedule(seededRandom(SEED), { kills: KILLS, cuts: CUTS }, { gapMs: GAP_MS, outageMs: OUTAGE_MS })
    console.log(`faults: ${schedule.map((fault) => `${fault.kind} after ${fault.gapMs} ms for ${fault.outageMs} ms`).join('; ')}`)
    const spreadMs = schedule.reduce((sum, fault) => sum + fault.gapMs + fault.outageMs + (fault.kind === 'kill' ? RESTART_ALLOWANCE_MS : 0), 0)

    const adaToken = await world.e2e.restToken(world.e2e.account('Ada'), 'chaos-ada-rest')
    const graceToken = await world.e2e.restToken(world.e2e.account('Grace'), 'chaos-grace-rest')
    const restSend = (sender: Sender, token: string) => async (text: string, index: number) => {
      const outcome = await postUntilAnswered(world.service.origin, groupId, token, { sourceGuid: `${sender.name}-${SEED}-${index}`, text })
      if (outcome === 'stored before') sender.storedBefore += 1
    }
    const [played] = await Promise.all([
      runFaults(schedule),
      runSender(senders.adaUi, (text, index) => typeAndSend(ada, text, index % 5 === 4), spreadMs),
      runSender(senders.graceUi, (text, index) => typeAndSend(grace, text, index % 5 === 4), spreadMs),
      runSender(senders.adaRest, restSend(senders.adaRest, adaToken), spreadMs),
      runSender(senders.graceRest, restSend(senders.graceRest, graceToken), spreadMs)
    ])

    console.log(
      `played ${played.length} faults in ${Math.round((Date.now() - started) / 1000)} s: ` +
        played.map(({ fault, lastedMs }) => `${fault.kind} ${lastedMs} ms`).join(', ') +
        `; answers lost by the proxy: ${CUTS} to the apps' sends, ${KILLS * CATCH_UP_READS_LOST} to their catch-up reads` +
        `; REST sends whose answer was lost: ${senders.adaRest.storedBefore + senders.graceRest.storedBefore}`
    )
    expect(played.map(({ fault }) => fault.kind).filter((kind) => kind === 'kill')).toHaveLength(KILLS)
    expect(played.map(({ fault }) => fault.kind).filter((kind) => kind === 'cut')).toHaveLength(CUTS)
    expect(everyText()).toHaveLength(4 * PER_SENDER)
    // Every outage had messages typed into both apps while it lasted.
    for (const sender of [senders.adaUi, senders.graceUi]) expect(sender.sentInOutage.size).toBe(KILLS + CUTS)
  }, 300_000)

  it('stores every message exactly once on the service', async () => {
    const texts = everyText()
    // Generous: an app's outbox tries again on a timer and whenever push is back.
    await expect
      .poll(
        async () => {
          const stored = new Set(chaosMessages(await storedMessages(world.service.origin, groupId, readToken)).map((message) => message.text))
          return texts.filter((text) => !stored.has(text))
        },
        { timeout: 90_000, interval: 1_000 }
      )
      .toEqual([])
      .catch(async (error: unknown) => {
        console.log(await diagnosis())
        throw error
      })
    const stored = chaosMessages(await storedMessages(world.service.origin, groupId, readToken)).map((message) => message.text)
    expect(stored.filter((text, index) => stored.indexOf(text) !== index)).toEqual([])
    expect(stored.toSorted()).toEqual(texts.toSorted())
    // Each sender's messages are stored in the order it wrote them: an app's outbox sends one after another.
    for (const sender of Object.values(senders)) {
      expect(stored.filter((text) => text.startsWith(`chaos ${sender.name} `)), `${sender.name} in the order written`).toEqual(sender.texts)
    }
  }, 120_000)

  it('leaves nothing typed behind: no composer holds text, no message waits or failed in either app', async () => {
    for (const page of [ada, grace]) {
      await expect.poll(() => connection(page), { timeout: 60_000 }).toBe('Connected')
      await expect.poll(() => unsentRows(page), { timeout: 60_000 }).toEqual([])
      expect(await page.getByRole('textbox', { name: 'Message' }).inputValue()).toBe('')
      expect(await page.getByRole('button', { name: 'Retry' }).count()).toBe(0)
    }
  }, 150_000)

  it('shows every message exactly once in each app, in the order the service stored them', async () => {
    const stored = await storedMessages(world.service.origin, groupId, readToken)
    for (const [name, page] of [['Ada', ada] as const, ['Grace', grace] as const]) {
      // The catch-up after the last outage may still be on its way: read again while something is only missing.
      let comparison: ReturnType<typeof compareShown>
      const deadline = Date.now() + 60_000
      for (;;) {
        const jump = page.getByRole('button', { name: /Jump to latest/ })
        if ((await jump.count()) > 0) await jump.click()
        const shown = await readShownHistory(page, { step: 600, timeoutMs: 60_000 })
        expect(shown.reachedTop, `${name}'s history reached its beginning`).toBe(true)
        expect(shown.misfits, `${name}'s rows read in the page's order`).toBe(0)
        comparison = compareShown(shown.rows, stored)
        console.log(`${name}'s app shows ${shown.rows.length} messages, the service stores ${stored.length}`)
        const onlyMissing = comparison.missing.length > 0 && Object.values({ ...comparison, missing: [] }).every((value) => value === null || (Array.isArray(value) && value.length === 0))
        if (!onlyMissing || Date.now() > deadline) break
        await pause(3_000)
      }
      expect(comparison, `${name}'s app against the service`).toEqual({ missing: [], shownTwice: [], underTwoIds: [], notStored: [], outOfOrderAt: null })
    }
    expect(world.e2e.pageErrors).toEqual([])
  }, 240_000)
})
