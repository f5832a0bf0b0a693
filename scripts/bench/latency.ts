// Latency: a push from the service to the open conversation's DOM, hop by hop, against a bare faye
// client; and a message from one user's Send click to the other user's DOM.
import type { Page } from 'playwright-core'
import { conversation, FIRST_GROUP } from '../../tests/e2e/support'
import { distribution, percentile, type PartResult } from './figures'
import { armPage, calibrate, disarmPage, inDom, takeRecords, type PageClock, type PageRecords } from './page-probe'
import { collectProbe } from './processes'
import type { ProbePoint, ProbeRecord } from './probes/records'
import { epochNow } from './probes/records'
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

/** The first record of each text at one point (and channel, where given). */
function firstAt(records: readonly ProbeRecord[], point: ProbePoint, channel?: string): Map<string, number> {
  const found = new Map<string, number>()
  for (const [at, recordPoint, text, recordChannel] of records) {
    if (recordPoint !== point || (channel !== undefined && recordChannel !== channel)) continue
    if (!found.has(text)) found.set(text, at)
  }
  return found
}

function firstFrames(records: PageRecords, clock: DriftingClock): Map<string, number> {
  const found = new Map<string, number>()
  for (const [at, text] of records.frames) if (!found.has(text)) found.set(text, clock.toDriver(at))
  return found
}

function domTimes(records: PageRecords, clock: DriftingClock): Map<string, number> {
  return new Map(records.inDom.map(([text, at]) => [text, clock.toDriver(at)]))
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

  line(): string {
    return `  ${this.name.padEnd(44)} ${this.samples.length === 0 ? 'no samples' : distribution(this.samples)}${this.missing > 0 ? `  (${this.missing} without a record)` : ''}`
  }
}

async function openGroup(page: Page): Promise<void> {
  await conversation(page, FIRST_GROUP).click()
  await page.getByRole('list', { name: 'Messages' }).waitFor()
}

export async function measureLatency(run: Run, options: LatencyOptions): Promise<PartResult> {
  const { client, service } = run
  const ada = client.account('Ada')
  const grace = client.account('Grace')
  // Tokens of the bench's own, from device ids the apps never use, so their sessions are left alone.
  const graceToken = await client.restToken(grace, 'bench-sender')
  const adaRawToken = await client.restToken(ada, 'bench-raw-faye')
  const adaId = await client.userId(adaRawToken)
  const graceId = await client.userId(graceToken)
  const groupId = (await client.groups(graceToken)).get(FIRST_GROUP)
  if (groupId === undefined) throw new Error(`Grace is not in ${FIRST_GROUP}`)
  const serviceId = service.pid
  if (serviceId === undefined) throw new Error('the service process has no pid')

  const opened: OpenedApp[] = []
  let raw: RawFayeClient | null = null
  try {
    // ── a push from the service to Ada's open conversation ──
    const adaApp = await openSignedIn(run, 'ada-latency', ada)
    opened.push(adaApp)
    // Subscribed after Ada's app: the service writes each delivery to the subscribers in the order
    // they subscribed, and the floor must not be served before the app it is the floor of.
    raw = await RawFayeClient.subscribe(service.origin, `/user/${adaId}`, adaRawToken)
    const floorClient = raw
    const adaPage = adaApp.page
    await openGroup(adaPage)
    await sleep(1000)
    const total = options.warmUp + options.pushes
    // Unfocused, the app would also raise a notification for each message: the user is looking at it.
    console.log(`Ada's page: visible ${String(await adaPage.evaluate('document.visibilityState === "visible"'))}, focused ${String(await adaPage.evaluate('document.hasFocus()'))}`)
    console.log(`push → DOM: ${options.warmUp} warm-up + ${options.pushes} messages sent by Grace over REST into ${FIRST_GROUP}, open in Ada's app`)
    const adaBefore = await calibrate(adaPage)
    await armPage(adaPage)
    const restAnswers: number[] = []
    for (let index = 0; index < total; index++) {
      const text = `bench push ${index}`
      const shown = inDom(adaPage, text)
      const floor = floorClient.waitFor(text)
      const sent = epochNow()
      await client.send(graceToken, groupId, text, `bench-push-${index}`)
      if (index >= options.warmUp) restAnswers.push(epochNow() - sent)
      await Promise.all([shown, floor])
      await sleep(options.gapMs)
      if ((index + 1) % 100 === 0) console.log(`  ${index + 1} / ${total}`)
    }
    await disarmPage(adaPage)
    const adaClock = new DriftingClock(adaBefore, await calibrate(adaPage))
    const adaPageRecords = await takeRecords(adaPage)
    const serviceRecords = await collectProbe(serviceId)
    const adaRecords = await collectProbe(adaApp.app.pid)

    const published = firstAt(serviceRecords, 'published', `/user/${adaId}`)
    const delivered = firstAt(adaRecords, 'delivered', `/user/${adaId}`)
    const bridged = firstAt(adaRecords, 'bridged')
    const framed = firstFrames(adaPageRecords, adaClock)
    const drawn = domTimes(adaPageRecords, adaClock)
    const pushToDom = new Hop('push → DOM (publish → text in the DOM)')
    const rawFaye = new Hop('raw faye (publish → bare faye.Client)')
    const serviceToMain = new Hop('hop service → main (publish → app receives)')
    const mainToRenderer = new Hop('hop main → renderer (app receives → page frame)')
    const rendererToDom = new Hop('hop renderer → DOM (page frame → in the DOM)')
    const coreToHost = new Hop('  of which: app receives → host sends the frame')
    const hostToPage = new Hop('  of which: host sends → page receives the frame')
    for (let index = options.warmUp; index < total; index++) {
      const text = `bench push ${index}`
      const t0 = published.get(text)
      pushToDom.add(t0, drawn.get(text))
      rawFaye.add(t0, floorClient.receivedAt(text))
      serviceToMain.add(t0, delivered.get(text))
      mainToRenderer.add(delivered.get(text), framed.get(text))
      rendererToDom.add(framed.get(text), drawn.get(text))
      coreToHost.add(delivered.get(text), bridged.get(text))
      hostToPage.add(bridged.get(text), framed.get(text))
    }
    console.log(adaClock.describe('Ada'))
    console.log(`raw faye client's transport: ${[...floorClient.connectionTypes].join(', ') || 'none seen'}`)
    for (const hop of [pushToDom, rawFaye, serviceToMain, mainToRenderer, coreToHost, hostToPage, rendererToDom]) console.log(hop.line())
    console.log(`  ${'REST MS2 answered (driver, Grace sending)'.padEnd(44)} ${distribution(restAnswers)}`)

    // ── a message from one user's Send click to the other's DOM ──
    const graceApp = await openSignedIn(run, 'grace-latency', grace)
    opened.push(graceApp)
    const gracePage = graceApp.page
    await openGroup(gracePage)
    await sleep(1000)
    const sendTotal = options.warmUp + options.sends
    console.log(`focused: Ada's page ${String(await adaPage.evaluate('document.hasFocus()'))}, Grace's page ${String(await gracePage.evaluate('document.hasFocus()'))}`)
    console.log()
    console.log(`send → other DOM: ${options.warmUp} warm-up + ${options.sends} messages typed and sent from the pages, alternating Ada → Grace and Grace → Ada`)
    const clocksBefore = [await calibrate(adaPage), await calibrate(gracePage)] as const
    await armPage(adaPage)
    await armPage(gracePage)
    for (let index = 0; index < sendTotal; index++) {
      const text = `bench send ${index}`
      const [from, to] = index % 2 === 0 ? [adaPage, gracePage] : [gracePage, adaPage]
      const shown = inDom(to, text)
      const composer = from.getByRole('textbox', { name: 'Message' })
      await composer.fill(text)
      await from.getByRole('button', { name: 'Send', exact: true }).click()
      await shown
      await inDom(from, text)
      await sleep(options.gapMs)
      if ((index + 1) % 100 === 0) console.log(`  ${index + 1} / ${sendTotal}`)
    }
    await disarmPage(adaPage)
    await disarmPage(gracePage)
    const adaSendClock = new DriftingClock(clocksBefore[0], await calibrate(adaPage))
    const graceSendClock = new DriftingClock(clocksBefore[1], await calibrate(gracePage))
    const adaSend = await takeRecords(adaPage)
    const graceSend = await takeRecords(gracePage)
    const serviceSend = await collectProbe(serviceId)
    const adaSendRecords = await collectProbe(adaApp.app.pid)
    const graceSendRecords = await collectProbe(graceApp.app.pid)

    const clicks = (records: PageRecords, clock: DriftingClock): Map<string, number> =>
      new Map(records.clicks.map(([at, text]) => [text, clock.toDriver(at)]))
    const invokes = (records: PageRecords, clock: DriftingClock): Map<string, number> =>
      new Map(records.sends.map(([at, text]) => [text, clock.toDriver(at)]))
    const sides = [
      {
        clicks: clicks(adaSend, adaSendClock),
        invokes: invokes(adaSend, adaSendClock),
        receiver: { id: graceId, page: graceSend, clock: graceSendClock, records: graceSendRecords }
      },
      {
        clicks: clicks(graceSend, graceSendClock),
        invokes: invokes(graceSend, graceSendClock),
        receiver: { id: adaId, page: adaSend, clock: adaSendClock, records: adaSendRecords }
      }
    ]
    const sendToDom = new Hop('send → other DOM (click → text in their DOM)')
    const clickToInvoke = new Hop('click → page sends messages:send to its app')
    const invokeToPublish = new Hop('page sends it → service publishes to the other')
    const sendServiceToMain = new Hop('publish → other app receives')
    const sendMainToRenderer = new Hop('other app receives → their page frame')
    const sendRendererToDom = new Hop('their page frame → in their DOM')
    for (let index = options.warmUp; index < sendTotal; index++) {
      const text = `bench send ${index}`
      const side = sides[index % 2]
      if (side === undefined) continue
      const { receiver } = side
      const clicked = side.clicks.get(text)
      const t0 = firstAt(serviceSend, 'published', `/user/${receiver.id}`).get(text)
      const received = firstAt(receiver.records, 'delivered', `/user/${receiver.id}`).get(text)
      const frame = firstFrames(receiver.page, receiver.clock).get(text)
      const dom = domTimes(receiver.page, receiver.clock).get(text)
      const invoked = side.invokes.get(text)
      sendToDom.add(clicked, dom)
      clickToInvoke.add(clicked, invoked)
      invokeToPublish.add(invoked, t0)
      sendServiceToMain.add(t0, received)
      sendMainToRenderer.add(received, frame)
      sendRendererToDom.add(frame, dom)
    }
    console.log(adaSendClock.describe('Ada'))
    console.log(graceSendClock.describe('Grace'))
    for (const hop of [sendToDom, clickToInvoke, invokeToPublish, sendServiceToMain, sendMainToRenderer, sendRendererToDom]) console.log(hop.line())

    const p = (hop: Hop, at: number): number => percentile(hop.samples, at)
    return {
      figures: {
        push_to_dom_p50: p(pushToDom, 50),
        push_to_dom_p99: p(pushToDom, 99),
        raw_faye_p50: p(rawFaye, 50),
        raw_faye_p99: p(rawFaye, 99),
        hop_service_to_main_p99: p(serviceToMain, 99),
        hop_main_to_renderer_p99: p(mainToRenderer, 99),
        hop_renderer_to_dom_p99: p(rendererToDom, 99),
        send_to_other_dom_p50: p(sendToDom, 50),
        send_to_other_dom_p99: p(sendToDom, 99)
      },
      baselines: {
        push_to_dom_p50: `raw faye p50 ${p(rawFaye, 50).toFixed(2)}`,
        push_to_dom_p99: `raw faye p99 ${p(rawFaye, 99).toFixed(2)}`,
        hop_service_to_main_p99: `raw faye p99 ${p(rawFaye, 99).toFixed(2)}`,
        send_to_other_dom_p50: `REST MS2 answer p50 ${percentile(restAnswers, 50).toFixed(2)}`,
        send_to_other_dom_p99: `REST MS2 answer p99 ${percentile(restAnswers, 99).toFixed(2)}`
      }
    }
  } finally {
    await raw?.close()
    for (const app of opened) await app.close()
  }
}
