// The local store: Ada's app, signed in once through a relay in front of the service on a data
// directory of its own, downloads the whole history (every seeded conversation): its rate beside
// the service's own paging, and push → DOM while it runs. Then the relay goes silent (it takes
// every connection and answers nothing, as a service that hangs does) and her app starts again on
// the same data directory: the time from the spawn of its process to every seeded conversation
// listed (from the store), and the time to open the long conversation (from the store) once the
// start has opened again the conversation left open, read beside the same open in a fresh page
// with the service answering. With every history kept, a search is typed into the page
// (search-typing.ts).
import { spawn } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import type { Page } from 'playwright-core'
import { conversation, FIRST_GROUP, history } from '../../tests/e2e/support'
import { seededText } from '../../tests/e2e/long-history'
import { FileLocalStores } from '../../src/main/storage/local-store/local-stores'
import { PLAIN_FILE } from '../../src/main/storage/local-store/store-keys'
import { startFloors, startOnce } from './cold-start'
import { median, type PartResult } from './figures'
import { measurePushes, openGroup, type LatencyOptions } from './latency'
import { RawFayeClient } from './raw-faye'
import { ROOT } from './processes'
import { epochNow } from './probes/records'
import { timeOpen } from './open-watch'
import { tracePage } from './page-trace'
import { measureSearchTyping } from './search-typing'
import { LONG_GROUP, seededGroupName } from './seed'
import { openSignedIn, sleep, waitUntil, type Run } from './session'

/** The download's own pace (backfill.ts): one page of 100 every 200 ms at most. */
const POLITE_MESSAGES_PER_S = 500

const STORED_DATA_DIR = 'ada-stored'
const RELAY = fileURLToPath(new URL('./silent-relay.ts', import.meta.url))

/** A TCP relay to the service that can stop answering (silent-relay.ts, in its own process). */
interface SilentRelay {
  origin: string
  /** From now on, connections are taken and left hanging. */
  goSilent(): Promise<void>
  close(): Promise<void>
}

async function startRelay(target: string): Promise<SilentRelay> {
  const child = spawn(process.execPath, ['--import', 'tsx', RELAY, target], { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit', 'ipc'] })
  const origin = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (line) => {
      const address = /^Relay (http:\/\/\S+)$/.exec(line)
      if (address?.[1] !== undefined) resolve(address[1])
    })
    child.once('exit', (code) => reject(new Error(`the relay exited before it listened (${code})`)))
  })
  return {
    origin,
    goSilent: () =>
      new Promise((resolve) => {
        child.once('message', () => resolve())
        child.send('silent')
      }),
    close: () =>
      new Promise((resolve) => {
        if (child.exitCode !== null) return resolve()
        child.once('exit', () => resolve())
        child.disconnect()
      })
  }
}

/** How much the store in `dataDir` holds, read through the app's own storage code. */
async function storeUsage(dataDir: string): Promise<{ messages: number; bytes: number }> {
  const directory = join(dataDir, 'store')
  const accountId = readdirSync(directory)
    .find((name) => name.endsWith('.db'))
    ?.replace(/\.db$/, '')
  if (accountId === undefined) throw new Error(`no store in ${directory}`)
  const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined }
  const { store } = await new FileLocalStores({ directory, sealing: PLAIN_FILE, log: quiet }).open(accountId)
  try {
    return await store.usage()
  } finally {
    await store.close()
  }
}

/** The service's own MS1 paging, as fast as one client reads it: `LONG_GROUP` back to its start, 100 a page. */
async function pagingRate(run: Run): Promise<number> {
  const token = await run.client.restToken(run.client.account('Ada'), 'bench-paging')
  const groupId = (await run.client.groups(token)).get(LONG_GROUP)
  if (groupId === undefined) throw new Error(`Ada is not in ${LONG_GROUP}`)
  const started = epochNow()
  let read = 0
  let before: string | null = null
  for (;;) {
    const url = new URL(`/v3/groups/${groupId}/messages`, run.service.origin)
    url.searchParams.set('token', token)
    url.searchParams.set('limit', '100')
    if (before !== null) url.searchParams.set('before_id', before)
    const answer = await fetch(url)
    // 304: nothing older (MS1).
    if (answer.status === 304) break
    if (!answer.ok) throw new Error(`MS1 answered ${answer.status}`)
    const messages = ((await answer.json()) as { response: { messages: { id: string }[] } }).response.messages
    if (messages.length === 0) break
    read += messages.length
    before = messages.at(-1)?.id ?? null
  }
  return read / ((epochNow() - started) / 1000)
}

/**
 * A start opens again the conversation left open at the last stop: `FIRST_GROUP`, as each run
 * leaves it. Once it shows, `LONG_GROUP` is opened and timed; then `FIRST_GROUP` is opened again,
 * to be the one left open at the next start (a start with `LONG_GROUP` left open would time
 * nothing: it would already be open).
 */
async function timeLongOpen(page: Page, newest: string): Promise<number> {
  await conversation(page, FIRST_GROUP).and(page.locator('[aria-current="true"]')).waitFor()
  const opened = await timeOpen(page, () => conversation(page, LONG_GROUP).click(), newest)
  await leaveFirstGroupOpen(page)
  return opened
}

async function leaveFirstGroupOpen(page: Page): Promise<void> {
  await conversation(page, FIRST_GROUP).click()
  await conversation(page, FIRST_GROUP).and(page.locator('[aria-current="true"]')).waitFor()
  await history(page).waitFor()
}

/** Whether Settings ▸ Storage says every history is kept, the dialog opened and closed around the look. */
async function allKept(page: Page): Promise<boolean> {
  await page.getByRole('button', { name: 'Settings', exact: true }).click()
  const settings = page.getByRole('dialog', { name: 'Settings' })
  await settings.getByRole('tab', { name: 'Storage' }).click()
  const done = await settings
    .getByRole('status')
    .filter({ hasText: 'All history is on this device' })
    .waitFor({ timeout: 1_000 })
    .then(
      () => true,
      () => false
    )
  await settings.getByRole('button', { name: 'Close' }).click()
  return done
}

export async function measureLocalStore(run: Run, options: { conversations: number; messages: number; starts: number; latency: LatencyOptions }): Promise<PartResult> {
  const names = Array.from({ length: options.conversations }, (_, index) => seededGroupName(index))
  const newest = seededText(options.messages - 1)
  const relay = await startRelay(run.service.origin)
  let floor: RawFayeClient | null = null
  try {
    const paging = await pagingRate(run)
    const signInStarted = epochNow()
    const first = await openSignedIn(run, STORED_DATA_DIR, run.client.account('Ada'), relay.origin)
    console.log(`local store: Ada's app signed in through a relay on a data directory of its own; it downloads every history in the background`)

    // Push → DOM while the download runs, as the latency part measures it.
    const { client } = run
    const graceToken = await client.restToken(client.account('Grace'), 'bench-sender')
    const adaFloorToken = await client.restToken(client.account('Ada'), 'bench-raw-faye')
    const adaId = await client.userId(adaFloorToken)
    const groupId = (await client.groups(graceToken)).get(FIRST_GROUP)
    if (groupId === undefined) throw new Error(`Grace is not in ${FIRST_GROUP}`)
    floor = await RawFayeClient.subscribe(run.service.origin, `/user/${adaId}`, adaFloorToken)
    await openGroup(first.page)
    await sleep(1000)
    const during = await measurePushes({ run, ada: first, adaId, floor, graceToken, groupId, label: 'bench downloading' }, options.latency)
    await floor.close()
    floor = null

    await waitUntil(() => allKept(first.page), 60 * 60_000, 'the whole history to download')
    const downloadSeconds = (epochNow() - signInStarted) / 1000
    // The same series in the same app once the download is done: its list of a hundred and more
    // conversations, which every push redraws, against the latency part's app of four.
    floor = await RawFayeClient.subscribe(run.service.origin, `/user/${adaId}`, adaFloorToken)
    const endTrace = await tracePage(first.page, 'pushes-kept')
    const after = await measurePushes({ run, ada: first, adaId, floor, graceToken, groupId, label: 'bench kept' }, options.latency)
    await endTrace?.()
    await floor.close()
    floor = null
    await conversation(first.page, names.at(-1) ?? LONG_GROUP).waitFor()
    const online = await timeOpen(first.page, () => conversation(first.page, LONG_GROUP).click(), newest)
    const typing = await measureSearchTyping(first.page)
    await leaveFirstGroupOpen(first.page)
    await first.close()
    const dataDir = join(run.dataRoot, STORED_DATA_DIR)
    const usage = await storeUsage(dataDir)
    const rate = usage.messages / downloadSeconds
    console.log(`  downloaded ${usage.messages} messages in ${downloadSeconds.toFixed(0)} s from sign-in: ${rate.toFixed(0)} a second; the service's own paging (MS1, 100 a page, one client, as fast as it answers) ${paging.toFixed(0)} a second; the download's polite pace at most ${POLITE_MESSAGES_PER_S} a second`)
    console.log(`  kept: ${(usage.bytes / 2 ** 20).toFixed(1)} MB; ${LONG_GROUP} opened in ${online.toFixed(1)} ms with the service answering`)

    // The stored open below is the first a person makes in a fresh page, after the start has opened
    // the conversation left open: code barely run, against the page above, which had drawn
    // conversations for minutes. The same open with the service answering reads the two figures
    // side by side.
    const freshOnline: number[] = []
    for (let attempt = 0; attempt < options.starts; attempt++) {
      const start = await startOnce(run, names, { dataDir: STORED_DATA_DIR, origin: relay.origin, afterwards: (page) => timeLongOpen(page, newest) })
      freshOnline.push(start.afterwards)
    }
    console.log(`  ${LONG_GROUP} opened first in a fresh page with the service answering, after ${FIRST_GROUP} left open opened again: ${freshOnline.map((ms) => ms.toFixed(1)).join(', ')} ms`)

    await relay.goSilent()
    console.log(`  the relay now answers nothing; the app started ${options.starts} times on the same data directory`)
    const starts: number[] = []
    const listening: number[] = []
    const opens: number[] = []
    for (let attempt = 0; attempt < options.starts; attempt++) {
      const start = await startOnce(run, names, { dataDir: STORED_DATA_DIR, origin: relay.origin, afterwards: (page) => timeLongOpen(page, newest) })
      starts.push(start.totalMs)
      opens.push(start.afterwards)
      console.log(`  start ${attempt + 1}: ${start.totalMs.toFixed(0)} ms to every one of the ${names.length} conversations listed from the store (process listening after ${start.listeningMs.toFixed(0)} ms); ${LONG_GROUP} opened in ${start.afterwards.toFixed(1)} ms`)
      listening.push(start.listeningMs)
    }
    // What a start cannot go under on this machine: Node loading the host, and a fresh page loading
    // and running the renderer's code, each with nothing else to do.
    const floors = await startFloors(run)
    const hostFloor = median(floors.hostMs)
    console.log(`  floors: node loading the built host ${hostFloor.toFixed(0)} ms; a fresh page loading the renderer and running its code, from a file server ${floors.pageMs.toFixed(0)} ms`)
    return {
      figures: {
        backfill_msgs_per_s: rate,
        push_to_dom_p99_during_backfill: during.figures.push_to_dom_p99 ?? Number.NaN,
        cold_start_cached_100_ms: median(starts),
        open_stored_10k_ms: median(opens),
        store_bytes_per_message: usage.messages === 0 ? Number.NaN : usage.bytes / usage.messages,
        search_typing_long_frames: typing.search.longFrames
      },
      baselines: {
        backfill_msgs_per_s: `MS1 paging ${paging.toFixed(0)}; polite pace ${POLITE_MESSAGES_PER_S}`,
        push_to_dom_p99_during_backfill: `push_to_dom_p99, no download; ${(after.figures.push_to_dom_p99 ?? Number.NaN).toFixed(1)} in the same app once downloaded`,
        cold_start_cached_100_ms: `cold_start_100_ms, nothing stored; listening ${median(listening).toFixed(0)}, floors ${hostFloor.toFixed(0)} + ${floors.pageMs.toFixed(0)}`,
        open_stored_10k_ms: `from the service ${online.toFixed(1)} in a page in use, ${median(freshOnline).toFixed(1)} as a fresh page's first`,
        store_bytes_per_message: `${usage.messages} messages kept`,
        search_typing_long_frames: `${typing.search.frames} frames; typed in Message ${typing.baseline.longFrames} of ${typing.baseline.frames}`
      }
    }
  } finally {
    await floor?.close()
    await relay.close()
  }
}
