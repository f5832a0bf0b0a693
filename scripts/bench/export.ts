// Exporting a long conversation: 100,000 messages kept in an encrypted store on disk (a picture in
// one of every 200, a reaction on one in ten, an edit on one in a hundred), exported to HTML by
// core's own exporter as main runs it, streamed to a file. It measures the time from the start to
// the file written, and the longest the event loop was held meanwhile (what a push or a call of the
// page would have waited). Its baseline is reading the same messages out of the store alone, a
// slice at a time, as the export does.
import { createWriteStream, mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { monitorEventLoopDelay } from 'node:perf_hooks'
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import { EXPORT_SLICE, Exporter } from '../../src/main/core/exports'
import type { ExportFile } from '../../src/main/core/ports'
import { FileLocalStores } from '../../src/main/storage/local-store/local-stores'
import { PLAIN_FILE } from '../../src/main/storage/local-store/store-keys'
import { encodePng } from '../../src/main/desktop/png'
import { blankBitmap, setPixel } from '../../src/main/desktop/bitmap'
import { seededText } from '../../tests/e2e/long-history'
import type { PartResult } from './figures'

const GROUP = '424242' as ConversationId
const BATCH = 5_000
const quiet = { info: () => undefined, warn: () => undefined, error: () => undefined }

function message(index: number): Message {
  return {
    id: String(100_000_000 + index),
    conversationId: GROUP,
    sourceGuid: `bench-${index}`,
    senderId: String(1 + (index % 7)),
    senderName: `Person ${index % 7}`,
    senderAvatarUrl: null,
    text: seededText(index),
    attachments: index % 200 === 0 ? [{ type: 'image', url: `https://image.example/i/${index}` }] : [],
    createdAt: 1_600_000_000 + index * 60,
    system: false,
    aboutUserIds: [],
    deleted: false,
    ...(index % 10 === 0 ? { reactions: [{ emoji: '❤️', userIds: ['1', '2'] }] } : {}),
    ...(index % 100 === 0 ? { editedAt: 1_600_000_000 + index * 60 + 30 } : {})
  }
}

function picture(): Uint8Array {
  const bitmap = blankBitmap(64, 48)
  for (let x = 0; x < 64; x += 1) for (let y = 0; y < 48; y += 1) setPixel(bitmap, x, y, [x * 4, y * 5, 120, 255])
  return encodePng(bitmap)
}

/** A file written through a stream, as Electron's export writes one. */
function streamTo(path: string): ExportFile {
  const stream = createWriteStream(path, 'utf8')
  return {
    name: path,
    write: (text) => (stream.write(text) ? Promise.resolve() : new Promise((resolve) => stream.once('drain', () => resolve()))),
    close: () => new Promise((resolve) => stream.end(resolve)),
    discard: async () => void stream.destroy()
  }
}

export async function measureExport(options: { messages: number }): Promise<PartResult> {
  const directory = mkdtempSync(join(tmpdir(), 'parley-bench-export-'))
  try {
    const { store } = await new FileLocalStores({ directory: join(directory, 'store'), sealing: PLAIN_FILE, log: quiet }).open('bench')
    for (let first = 0; first < options.messages; first += BATCH) {
      const batch = Array.from({ length: Math.min(BATCH, options.messages - first) }, (_, offset) => message(first + offset))
      await store.keepRun(GROUP, batch, { after: null, before: null, reachesStart: true })
    }
    console.log(`export: ${options.messages} messages kept in an encrypted store on disk, exported to HTML by core's exporter, streamed to a file`)

    // The baseline: the same slices read out of the store, nothing made of them.
    const readStarted = performance.now()
    let read = 0
    for (let after: string | null = null; ; ) {
      const slice = await store.messagesFrom(GROUP, after, EXPORT_SLICE)
      if (slice.length === 0) break
      read += slice.length
      after = slice.at(-1)?.id ?? after
    }
    const readSeconds = (performance.now() - readStarted) / 1000

    const png = picture()
    const conversation = { id: GROUP, kind: 'group', name: 'Bench group', avatarUrl: null, messageCount: options.messages } as unknown as Conversation
    const file = join(directory, 'export.html')
    const exporter = new Exporter({
      service: { latestMessages: async () => [], messagesBefore: async () => [] },
      flow: { paged: () => undefined },
      store: () => store,
      settled: async () => undefined,
      conversation: () => conversation,
      picture: async () => ({ contentType: 'image/png', bytes: png }),
      progress: () => undefined,
      chunk: () => undefined,
      files: { create: async () => streamTo(file) },
      now: Date.now
    })
    // The loop's own stalls on this machine with nothing to do, for the same while: what a busy
    // machine (or a collection of garbage) adds to any figure below.
    const idle = monitorEventLoopDelay({ resolution: 5 })
    idle.enable()
    await new Promise((resolve) => setTimeout(resolve, 3_000))
    idle.disable()
    const stalls = monitorEventLoopDelay({ resolution: 5 })
    stalls.enable()
    const started = performance.now()
    const result = await exporter.start('bench-export-0001', GROUP, 'html')
    const seconds = (performance.now() - started) / 1000
    stalls.disable()
    await store.close()
    if (result.status !== 'saved' || result.messages !== options.messages) throw new Error(`the export said ${JSON.stringify(result)}`)
    const longestStallMs = stalls.max / 1e6
    const p99StallMs = stalls.percentile(99) / 1e6
    console.log(
      `  exported ${result.messages} messages (${(statSync(file).size / 2 ** 20).toFixed(1)} MB of HTML, ${options.messages / 200} pictures embedded) in ${seconds.toFixed(2)} s; the event loop was held at most ${longestStallMs.toFixed(1)} ms at a time (p99 ${p99StallMs.toFixed(1)} ms)`
    )
    console.log(`  baseline: reading the ${read} messages out of the store, ${EXPORT_SLICE} at a time, took ${readSeconds.toFixed(2)} s; idle, the loop was held at most ${(idle.max / 1e6).toFixed(1)} ms (p99 ${(idle.percentile(99) / 1e6).toFixed(1)} ms)`)
    return {
      figures: { export_100k_html_s: seconds },
      baselines: { export_100k_html_s: `store read ${readSeconds.toFixed(2)} s; loop held ≤ ${longestStallMs.toFixed(0)} ms` }
    }
  } finally {
    rmSync(directory, { recursive: true, force: true })
  }
}
