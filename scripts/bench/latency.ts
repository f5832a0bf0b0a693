// Latency: a push from the service to the open conversation's DOM, hop by hop, against a bare faye
// client; and a message from one user's Send click to the other user's DOM.
import type { Page } from 'playwright-core'
import { conversation, FIRST_GROUP } from '../../tests/e2e/support'
import { distribution, percentile, type PartResult } from './figures'
import { armPage, calibrate, disarmPage, inDom, takeRecords, type PageClock, type PageRecords } from './page-probe'
import { collectProbe } from './processes'
import { epochNow, type ProbePoint, type ProbeRecord } from './probes/records'
import { RawFayeClient } from './raw-faye'
import { openSignedIn, sleep, type OpenedApp, type Run } from './session'

export interface LatencyOptions {
  pushes: number
  sends: number
  warmUp: number
  /** Quiet time after each message lands, so each is measured alone, not behind the last one's follow-up work. */
  gapMs: number
}

/** A page's clock measured before and after a series: the offset is interpolated in between. */
class DriftingClock {
  constructor(
    readonly before: PageClock,
    readonly after: PageClock
  ) {}

  toDriver(pageTime: number): number {
    const { before, after } = this
    const span = after.at - before.at
    const driverGuess = pageTime - before.offsetMs
    const share = span <= 0 ? 0 : Math.min(1, Math.max(0, (driverGuess - before.at) / span))
    return pageTime - (before.offsetMs + share * (after.offsetMs - before.offsetMs))
  }

  describe(name: string): string {
    const { before, after } = this
    const uncertainty = Math.max(before.uncertaintyMs, after.uncertaintyMs)
    return `${name}'s page clock: offset ${before.offsetMs.toFixed(3)} ms, ± ${uncertainty.toFixed(3)} ms (half the shortest of 200 round trips), drift ${(after.offsetMs - before.offsetMs).toFixed(3)} ms over ${((after.at - before.at) / 1000).toFixed(0)} s`
  }
}

/** Collects `later − earlier` for every text both know; counts the texts either lacks. */
class Hop {
  readonly samples: number[] = []
  missing = 0

  constructor(readonly name: string) {}

  add(earlier: number | undefined, later: number | undefined): void {
    if (earlier === undefined || later === undefined) this.missing += 1
    else this.samples.push(later - earlier)
  }

  p(at: number): number {
    return percentile(this.samples, at)
  }

  line(): string {
    return `  ${this.name.padEnd(48)} ${this.samples.length === 0 ? 'no samples' : distribution(this.samples)}${this.missing > 0 ? `  (${this.missing} without a record)` : ''}`
  }
}

/** The first record of each text at one point of a process (and on one channel, where given). */
function firstAt(records: readonly ProbeRecord[], point: ProbePoint, channel?: string): Map<string, number> {
  const found = new Map<string, number>()
  for (const [at, recordPoint, text, recordChannel] of records) {
    if (recordPoint !== point || (channel !== undefined && recordChannel !== channel)) continue
    if (!found.has(text)) found.set(text, at)
  }
  return found
}

/** The first of each text in a page's `[page time, text]` records, on the driver's clock. */
function firstInPage(records: readonly [number, string][], clock: DriftingClock): Map<string, number> {
  const found = new Map<string, number>()
  for (const [at, text] of records) if (!found.has(text)) found.set(text, clock.toDriver(at))
  return found
}

/** When each text was in a page's DOM, on the driver's clock. */
function inDomAt(records: PageRecords, clock: DriftingClock): Map<string, number> {
  return new Map(records.inDom.map(([text, at]) => [text, clock.toDriver(at)]))
}

/** Where one user's app saw the messages sent to them: their `/user/<id>` channel, their process, their page. */
interface Receiver {
  userId: string
  appRecords: ProbeRecord[]
  page: PageRecords
  clock: DriftingClock
}

/** publish → app receives → page frame → in the DOM, per text, on the driver's clock. */
function receivingSide(receiver: Receiver, serviceRecords: ProbeRecord[]) {
  const channel = `/user/${receiver.userId}`
  return {
    published: firstAt(serviceRecords, 'published', channel),
    delivered: firstAt(receiver.appRecords, 'delivered', channel),
    bridged: firstAt(receiver.appRecords, 'bridged'),
    framed: firstInPage(receiver.page.frames, receiver.clock),
    drawn: inDomAt(receiver.page, receiver.clock)
  }
}

export async function openGroup(page: Page): Promise<void> {
  await conversation(page, FIRST_GROUP).click()
  await page.getByRole('list', { name: 'Messages' }).waitFor()
}

export interface PushSeries {
  run: Run
  ada: OpenedApp
  adaId: string
  floor: RawFayeClient
  graceToken: string
  groupId: string
  /** Begins each text (`bench <one word>`, as the page probe looks for them), so that one series never finds another's messages in the DOM. */
  label: string
}

/** Grace sends over REST, one message at a time; Ada's app has the group open. */
export async function measurePushes(series: PushSeries, options: LatencyOptions): Promise<PartResult> {
  const { run, ada, adaId, floor, graceToken, groupId, label } = series
  const page = ada.page
  const total = options.warmUp + options.pushes
  // Unfocused, the app would also raise a notification for each message: the user is looking at it.
  console.log(`Ada's page: visible ${String(await page.evaluate('document.visibilityState === "visible"'))}, focused ${String(await page.evaluate('document.hasFocus()'))}`)
  console.log(`push → DOM: ${options.warmUp} warm-up + ${options.pushes} messages sent by Grace over REST into ${FIRST_GROUP}, open in Ada's app`)
  const before = await calibrate(page)
  await armPage(page)
  const restAnswers: number[] = []
  for (let index = 0; index < total; index++) {
    const text = `${label} ${index}`
    const shown = inDom(page, text)
    const floorReceived = floor.waitFor(text)
    const sent = epochNow()
    await run.client.sendGroupMessage(graceToken, groupId, text, `${label.replaceAll(' ', '-')}-${index}`)
    if (index >= options.warmUp) restAnswers.push(epochNow() - sent)
    await Promise.all([shown, floorReceived])
    await sleep(options.gapMs)
    if ((index + 1) % 100 === 0) console.log(`  ${index + 1} / ${total}`)
  }
  await disarmPage(page)
  const clock = new DriftingClock(before, await calibrate(page))
  const side = receivingSide(
    { userId: adaId, appRecords: await collectProbe(ada.app.pid), page: await takeRecords(page), clock },
    await collectProbe(requirePid(run))
  )

  const pushToDom = new Hop('push → DOM (publish → text in the DOM)')
  const rawFaye = new Hop('raw faye (publish → bare faye.Client)')
  const serviceToMain = new Hop('hop service → main (publish → app receives)')
  const mainToRenderer = new Hop('hop main → renderer (app receives → page frame)')
  const coreToHost = new Hop('  of which: app receives → host sends the frame')
  const hostToPage = new Hop('  of which: host sends → page receives the frame')
  const rendererToDom = new Hop('hop renderer → DOM (page frame → in the DOM)')
  for (let index = options.warmUp; index < total; index++) {
    const text = `${label} ${index}`
    const t0 = side.published.get(text)
    pushToDom.add(t0, side.drawn.get(text))
    rawFaye.add(t0, floor.receivedAt(text))
    serviceToMain.add(t0, side.delivered.get(text))
    mainToRenderer.add(side.delivered.get(text), side.framed.get(text))
    coreToHost.add(side.delivered.get(text), side.bridged.get(text))
    hostToPage.add(side.bridged.get(text), side.framed.get(text))
    rendererToDom.add(side.framed.get(text), side.drawn.get(text))
  }
  console.log(clock.describe('Ada'))
  console.log(`raw faye client's transport: ${[...floor.connectionTypes].join(', ') || 'none seen'}`)
  for (const hop of [pushToDom, rawFaye, serviceToMain, mainToRenderer, coreToHost, hostToPage, rendererToDom]) console.log(hop.line())
  console.log(`  ${'REST MS2 answered (driver, Grace sending)'.padEnd(48)} ${distribution(restAnswers)}`)
  return {
    figures: {
      push_to_dom_p50: pushToDom.p(50),
      push_to_dom_p99: pushToDom.p(99),
      raw_faye_p50: rawFaye.p(50),
      raw_faye_p99: rawFaye.p(99),
      hop_service_to_main_p99: serviceToMain.p(99),
      hop_main_to_renderer_p99: mainToRenderer.p(99),
      hop_renderer_to_dom_p99: rendererToDom.p(99)
    },
    baselines: {
      push_to_dom_p50: `raw faye p50 ${rawFaye.p(50).toFixed(2)}`,
      push_to_dom_p99: `raw faye p99 ${rawFaye.p(99).toFixed(2)}`,
      hop_service_to_main_p99: `raw faye p99 ${rawFaye.p(99).toFixed(2)}`,
      send_to_other_dom_p50: `REST MS2 answer p50 ${percentile(restAnswers, 50).toFixed(2)}`,
      send_to_other_dom_p99: `REST MS2 answer p99 ${percentile(restAnswers, 99).toFixed(2)}`
    }
  }
}

interface User {
  app: OpenedApp
  id: string
}

/** Typed into one page and sent with a click, alternating directions, until in the other's DOM. */
async function measureSends(run: Run, users: readonly [User, User], options: LatencyOptions): Promise<PartResult> {
  const [ada, grace] = users
  const total = options.warmUp + options.sends
  console.log(`focused: Ada's page ${String(await ada.app.page.evaluate('document.hasFocus()'))}, Grace's page ${String(await grace.app.page.evaluate('document.hasFocus()'))}`)
  console.log(`send → other DOM: ${options.warmUp} warm-up + ${options.sends} messages typed and sent from the pages, alternating Ada → Grace and Grace → Ada`)
  const before = [await calibrate(ada.app.page), await calibrate(grace.app.page)] as const
  for (const user of users) await armPage(user.app.page)
  for (let index = 0; index < total; index++) {
    const text = `bench send ${index}`
    const [from, to] = index % 2 === 0 ? [ada.app.page, grace.app.page] : [grace.app.page, ada.app.page]
    const shown = inDom(to, text)
    await from.getByRole('textbox', { name: 'Message' }).fill(text)
    await from.getByRole('button', { name: 'Send', exact: true }).click()
    await shown
    await sleep(options.gapMs)
    if ((index + 1) % 100 === 0) console.log(`  ${index + 1} / ${total}`)
  }
  for (const user of users) await disarmPage(user.app.page)
  const clocks = [new DriftingClock(before[0], await calibrate(ada.app.page)), new DriftingClock(before[1], await calibrate(grace.app.page))] as const
  const pages = [await takeRecords(ada.app.page), await takeRecords(grace.app.page)] as const
  const serviceRecords = await collectProbe(requirePid(run))
  const appRecords = [await collectProbe(ada.app.app.pid), await collectProbe(grace.app.app.pid)] as const
  // Even-numbered texts go from Ada (side 0) to Grace (side 1), odd ones the other way.
  const sides = ([0, 1] as const).map((sender) => {
    const receiver = sender === 0 ? 1 : 0
    return {
      clicked: new Map(pages[sender].clicks.map(([at, text]) => [text, clocks[sender].toDriver(at)])),
      invoked: firstInPage(pages[sender].sends, clocks[sender]),
      received: receivingSide({ userId: users[receiver].id, appRecords: appRecords[receiver], page: pages[receiver], clock: clocks[receiver] }, serviceRecords)
    }
  })

  const sendToDom = new Hop('send → other DOM (click → text in their DOM)')
  const clickToInvoke = new Hop('click → page sends messages:send to its app')
  const invokeToPublish = new Hop('page sends it → service publishes to the other')
  const publishToMain = new Hop('publish → other app receives')
  const mainToRenderer = new Hop('other app receives → their page frame')
  const rendererToDom = new Hop('their page frame → in their DOM')
  for (let index = options.warmUp; index < total; index++) {
    const text = `bench send ${index}`
    const side = sides[index % 2]
    if (side === undefined) continue
    const { received } = side
    const clicked = side.clicked.get(text)
    const invoked = side.invoked.get(text)
    const t0 = received.published.get(text)
    sendToDom.add(clicked, received.drawn.get(text))
    clickToInvoke.add(clicked, invoked)
    invokeToPublish.add(invoked, t0)
    publishToMain.add(t0, received.delivered.get(text))
    mainToRenderer.add(received.delivered.get(text), received.framed.get(text))
    rendererToDom.add(received.framed.get(text), received.drawn.get(text))
  }
  console.log(clocks[0].describe('Ada'))
  console.log(clocks[1].describe('Grace'))
  for (const hop of [sendToDom, clickToInvoke, invokeToPublish, publishToMain, mainToRenderer, rendererToDom]) console.log(hop.line())
  return { figures: { send_to_other_dom_p50: sendToDom.p(50), send_to_other_dom_p99: sendToDom.p(99) }, baselines: {} }
}

function requirePid(run: Run): number {
  const pid = run.service.pid
  if (pid === undefined) throw new Error('the service process has no pid')
  return pid
}

export async function measureLatency(run: Run, options: LatencyOptions): Promise<PartResult> {
  const { client, service } = run
  // Tokens of the bench's own, from device ids the apps never use, so their sessions are left alone.
  const graceToken = await client.restToken(client.account('Grace'), 'bench-sender')
  const adaFloorToken = await client.restToken(client.account('Ada'), 'bench-raw-faye')
  const adaId = await client.userId(adaFloorToken)
  const graceId = await client.userId(graceToken)
  const groupId = (await client.groups(graceToken)).get(FIRST_GROUP)
  if (groupId === undefined) throw new Error(`Grace is not in ${FIRST_GROUP}`)

  const opened: OpenedApp[] = []
  let floor: RawFayeClient | null = null
  try {
    const ada = await openSignedIn(run, 'ada-latency', client.account('Ada'))
    opened.push(ada)
    // Subscribed after Ada's app: the service writes each delivery to the subscribers in the order
    // they subscribed, and the floor must not be served before the app it is the floor of.
    floor = await RawFayeClient.subscribe(service.origin, `/user/${adaId}`, adaFloorToken)
    await openGroup(ada.page)
    await sleep(1000)
    const pushes = await measurePushes({ run, ada, adaId, floor, graceToken, groupId, label: 'bench push' }, options)

    const grace = await openSignedIn(run, 'grace-latency', client.account('Grace'))
    opened.push(grace)
    await openGroup(grace.page)
    await sleep(1000)
    console.log()
    const sends = await measureSends(run, [{ app: ada, id: adaId }, { app: grace, id: graceId }], options)
    return { figures: { ...pushes.figures, ...sends.figures }, baselines: { ...pushes.baselines, ...sends.baselines } }
  } finally {
    await floor?.close()
    for (const app of opened) await app.close()
  }
}
