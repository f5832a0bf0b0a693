// The local store: Ada's app, signed in once through a relay in front of the service, opens the
// seeded conversations and the long one, and stops. Then the relay goes silent (it takes every
// connection and answers nothing, as a service that hangs does) and her app starts again on the
// same data directory: the time from the spawn of its process to every seeded conversation listed
// (from the store), and the time to open the long conversation (from the store).
import { createServer, connect, type Server, type Socket } from 'node:net'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { conversation } from '../../tests/e2e/support'
import { seededText } from '../../tests/e2e/long-history'
import { FileLocalStores } from '../../src/main/storage/local-store/local-stores'
import { PLAIN_FILE } from '../../src/main/storage/local-store/store-keys'
import { startOnce } from './cold-start'
import { median, type PartResult } from './figures'
import { timeOpen } from './open-watch'
import { LONG_GROUP, seededGroupName } from './seed'
import { openSignedIn, type Run } from './session'

const STORED_DATA_DIR = 'ada-stored'

/** A TCP relay to the service that can stop answering: connections are then taken and left hanging. */
interface SilentRelay {
  origin: string
  silent: boolean
  close(): Promise<void>
}

async function startRelay(target: string): Promise<SilentRelay> {
  const { hostname, port } = new URL(target)
  const sockets = new Set<Socket>()
  const relay = { silent: false } as SilentRelay
  const server: Server = createServer((socket) => {
    sockets.add(socket)
    socket.on('close', () => sockets.delete(socket))
    socket.on('error', () => socket.destroy())
    if (relay.silent) return
    const upstream = connect(Number(port), hostname)
    sockets.add(upstream)
    upstream.on('close', () => sockets.delete(upstream))
    upstream.on('error', () => socket.destroy())
    socket.pipe(upstream).pipe(socket)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const address = server.address()
  if (address === null || typeof address === 'string') throw new Error('the relay has no port')
  relay.origin = `http://127.0.0.1:${address.port}`
  relay.close = () => {
    for (const socket of sockets) socket.destroy()
    return new Promise((resolve) => server.close(() => resolve()))
  }
  return relay
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

export async function measureLocalStore(run: Run, options: { conversations: number; messages: number; starts: number }): Promise<PartResult> {
  const names = Array.from({ length: options.conversations }, (_, index) => seededGroupName(index))
  const newest = seededText(options.messages - 1)
  const relay = await startRelay(run.service.origin)
  try {
    const first = await openSignedIn(run, STORED_DATA_DIR, run.client.account('Ada'), relay.origin)
    await conversation(first.page, names.at(-1) ?? LONG_GROUP).waitFor()
    const online = await timeOpen(first.page, () => conversation(first.page, LONG_GROUP).click(), newest)
    await first.close()
    const dataDir = join(run.dataRoot, STORED_DATA_DIR)
    const usage = await storeUsage(dataDir)
    console.log(`local store: Ada's app signed in once through a relay, ${LONG_GROUP} opened (${online.toFixed(1)} ms from the service), stopped`)
    console.log(`  kept: ${usage.messages} messages, ${(usage.bytes / 2 ** 20).toFixed(1)} MB`)

    relay.silent = true
    console.log(`  the relay now answers nothing; the app started ${options.starts} times on the same data directory`)
    const starts: number[] = []
    const opens: number[] = []
    for (let attempt = 0; attempt < options.starts; attempt++) {
      const start = await startOnce(run, names, { dataDir: STORED_DATA_DIR, origin: relay.origin, afterwards: (page) => timeOpen(page, () => conversation(page, LONG_GROUP).click(), newest) })
      starts.push(start.totalMs)
      opens.push(start.afterwards)
      console.log(`  start ${attempt + 1}: ${start.totalMs.toFixed(0)} ms to every one of the ${names.length} conversations listed from the store; ${LONG_GROUP} opened in ${start.afterwards.toFixed(1)} ms`)
    }
    return {
      figures: {
        cold_start_cached_100_ms: median(starts),
        open_stored_10k_ms: median(opens),
        store_bytes_per_message: usage.messages === 0 ? Number.NaN : usage.bytes / usage.messages
      },
      baselines: {
        cold_start_cached_100_ms: 'cold_start_100_ms, nothing stored',
        open_stored_10k_ms: `from the service ${online.toFixed(1)}`,
        store_bytes_per_message: `${usage.messages} messages kept`
      }
    }
  } finally {
    await relay.close()
  }
}
