// Exports a conversation's whole history to one file, HTML or JSON. What this device does not keep
// yet is fetched first, page by page as the history download reads it (backfill.ts: the same pages
// into the same message flow, which the store keeps them from, at the same polite pace); then the
// file is written from the store, oldest first, a slice at a time with a turn of the event loop
// between slices, so pushes, the page's calls and everything else go on while it is built. The file
// goes where the host says (Electron: where the person chose to save it) or, in browser mode, to the
// page piece by piece as `exports:chunk` events, for the page to save as a download.
import type { Conversation } from '@shared/conversations'
import type { ConversationId } from '@shared/conversation-id'
import type { ExportFormat, ExportProgress, ExportResult } from '@shared/conversation-files'
import type { Message } from '@shared/messages'
import type { Poll } from '@shared/polls'
import { isKeptPicture } from '@shared/image-files'
import type { InvokeHandlers } from '@shared/window-api'
import { AppError } from './app-error'
import { BACKFILL_FIRST_BACKOFF_MS, BACKFILL_INTERVAL_MS, BACKFILL_PAGE } from './backfill'
import { dataUrl, htmlHead, htmlMessage, htmlTail, type EmbeddedPicture, type HtmlExportContext } from './export-html'
import { errorCodeOf } from './failures'
import type { MessageFlow } from './message-flow'
import type { ExportFile, ExportFiles, KeptPicture, LocalStore, TimelineService } from './ports'
import { systemTimers, type Timers } from './timers'

/** Messages read from the store and written at a time, between turns of the event loop. */
export const EXPORT_SLICE = 500
/** Text gathered before it is written (or sent to the page) as one piece. */
const PIECE_CHARS = 256 * 1024
/** Pictures fetched at once for the file, as the picture keeper does: a few. */
const PICTURES_AT_ONCE = 3
const RETRIES = 5

export interface ExporterDependencies {
  service: Pick<TimelineService, 'latestMessages' | 'messagesBefore'>
  flow: Pick<MessageFlow, 'paged'>
  /** The signed-in account's store; null while there is none. */
  store: () => LocalStore | null
  /** Resolves once what the flow handed the store is written. */
  settled: () => Promise<void>
  /** One of the user's conversations (throws when it is not). */
  conversation: (conversationId: ConversationId) => Conversation
  /** A message's picture: kept here, or fetched from where the page may load it from; null when neither works. */
  picture: (url: string) => Promise<KeptPicture | null>
  progress: (progress: ExportProgress) => void
  /** The page's piece of a file that goes to it (no `files`: browser mode). */
  chunk: (exportId: string, text: string) => void
  /** Where the host saves a file; absent, files go to the page. */
  files?: ExportFiles
  timers?: Timers
  now: () => number
  /** Between one fetched page and the next. */
  intervalMs?: number
  firstBackoffMs?: number
}

export class Exporter {
  readonly #deps: ExporterDependencies
  readonly #timers: Timers
  /** Exports under way, each with whether it was cancelled. */
  readonly #running = new Map<string, { cancelled: boolean; wake: (() => void) | null }>()

  constructor(deps: ExporterDependencies) {
    this.#deps = deps
    this.#timers = deps.timers ?? systemTimers
  }

  async start(exportId: string, conversationId: ConversationId, format: ExportFormat): Promise<ExportResult> {
    const conversation = this.#deps.conversation(conversationId)
    const store = this.#deps.store()
    if (store === null) throw new AppError('INTERNAL', 'Exporting needs the messages kept on this device, and none are open right now.')
    if (this.#running.has(exportId)) throw new AppError('CONFLICT', 'That export is already under way.')
    const run = { cancelled: false, wake: null as (() => void) | null }
    this.#running.set(exportId, run)
    let file: ExportFile | null = null
    try {
      await this.#fetchMissing(exportId, conversation, store, run)
      if (run.cancelled) return { status: 'cancelled' }
      await this.#deps.settled()
      const name = fileName(conversation, format, this.#deps.now())
      file = this.#deps.files === undefined ? pageFile(name, (text) => this.#deps.chunk(exportId, text)) : await this.#deps.files.create(name)
      if (file === null || run.cancelled) return { status: 'cancelled' }
      const messages = await this.#write(exportId, conversation, format, store, file, run)
      if (messages === null) {
        await file.discard()
        return { status: 'cancelled' }
      }
      await file.close()
      return { status: 'saved', fileName: file.name, messages, toPage: this.#deps.files === undefined }
    } catch (error) {
      await file?.discard().catch(() => undefined)
      throw error
    } finally {
      this.#running.delete(exportId)
    }
  }

  cancel(exportId: string): void {
    const run = this.#running.get(exportId)
    if (run === undefined) return
    run.cancelled = true
    run.wake?.()
  }

  /** Signed out: every export under way stops, its file unmade. */
  cancelAll(): void {
    for (const exportId of this.#running.keys()) this.cancel(exportId)
  }

  /** Reads, page by page, what is older than the oldest kept of the conversation's newest stretch, until the service has nothing older. */
  async #fetchMissing(exportId: string, conversation: Conversation, store: LocalStore, run: { cancelled: boolean; wake: (() => void) | null }): Promise<void> {
    const start = (await store.historyStarts()).get(conversation.id)
    if (start?.reachesStart === true) return
    let before = start?.oldestId ?? null
    let fetched = 0
    const total = conversation.messageCount ?? null
    const kept = await store.messageCount(conversation.id)
    for (let first = true; !run.cancelled; first = false) {
      if (!first) await this.#wait(this.#deps.intervalMs ?? BACKFILL_INTERVAL_MS, run)
      if (run.cancelled) return
      const page = await this.#page(conversation.id, before, run)
      if (page === null) return
      this.#deps.flow.paged({ conversationId: conversation.id, messages: page, end: before === null ? 'newest' : 'older', before, after: null, atStart: page.length === 0 })
      fetched += page.length
      this.#deps.progress({ exportId, phase: 'fetching', done: Math.min(kept + fetched, total ?? Infinity), total })
      const oldest = page[0]
      // Done on an empty page, never a short one: a page can be short for other reasons.
      if (oldest === undefined) return
      before = oldest.id
    }
  }

  /** One page older than `before` (null: the newest), tried again later while the service is busy or out of reach. */
  async #page(conversationId: ConversationId, before: string | null, run: { cancelled: boolean; wake: (() => void) | null }): Promise<Message[] | null> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        const { service } = this.#deps
        return before === null ? await service.latestMessages(conversationId, BACKFILL_PAGE) : await service.messagesBefore(conversationId, before, BACKFILL_PAGE)
      } catch (error) {
        const code = errorCodeOf(error)
        if ((code !== 'RATE_LIMITED' && code !== 'NETWORK') || attempt + 1 >= RETRIES) throw error
        await this.#wait((this.#deps.firstBackoffMs ?? BACKFILL_FIRST_BACKOFF_MS) * 2 ** attempt, run)
        if (run.cancelled) return null
      }
    }
  }

  /** Writes the whole file from the store; the number of messages in it, or null when cancelled. */
  async #write(
    exportId: string,
    conversation: Conversation,
    format: ExportFormat,
    store: LocalStore,
    file: ExportFile,
    run: { cancelled: boolean }
  ): Promise<number | null> {
    const total = await store.messageCount(conversation.id)
    const polls = await store.pollsOf(conversation.id)
    const context: HtmlExportContext = { conversation, exportedAt: this.#deps.now(), polls: new Map(polls.map((poll) => [poll.id, poll])) }
    const out = new Pieces(file)
    await out.add(format === 'html' ? htmlHead(context) : jsonHead(conversation, polls, context.exportedAt))
    let after: string | null = null
    let written = 0
    this.#deps.progress({ exportId, phase: 'writing', done: 0, total })
    for (;;) {
      if (run.cancelled) return null
      const slice = await store.messagesFrom(conversation.id, after, EXPORT_SLICE)
      if (slice.length === 0) break
      const pictures = format === 'html' ? await this.#embed(slice) : []
      for (const [index, message] of slice.entries()) {
        await out.add(format === 'html' ? htmlMessage(message, pictures[index] ?? [], context) : `${written === 0 ? '' : ',\n'}${JSON.stringify(message)}`)
        written += 1
      }
      after = slice.at(-1)?.id ?? after
      this.#deps.progress({ exportId, phase: 'writing', done: written, total: Math.max(total, written) })
      // A turn of the event loop: whatever else main has to do goes before the next slice.
      await new Promise<void>((resolve) => setImmediate(resolve))
    }
    if (run.cancelled) return null
    await out.add(format === 'html' ? htmlTail(written) : '\n]\n}\n')
    await out.flush()
    return written
  }

  /** Each message's pictures as data: URLs, fetched a few at a time. */
  async #embed(messages: Message[]): Promise<EmbeddedPicture[][]> {
    const urls = [...new Set(messages.flatMap((message) => (message.deleted ? [] : message.attachments.flatMap((a) => (a.type === 'image' ? [a.url] : [])))))]
    const embedded = new Map<string, EmbeddedPicture>()
    let next = 0
    const worker = async (): Promise<void> => {
      while (next < urls.length) {
        const url = urls[next] ?? ''
        next += 1
        const picture = await this.#deps.picture(url).catch(() => null)
        embedded.set(url, picture !== null && isKeptPicture(picture.contentType, picture.bytes) ? dataUrl(picture.contentType, picture.bytes) : null)
      }
    }
    await Promise.all(Array.from({ length: Math.min(PICTURES_AT_ONCE, urls.length) }, worker))
    return messages.map((message) => message.attachments.flatMap((a) => (a.type === 'image' ? [embedded.get(a.url) ?? null] : [])))
  }

  #wait(delayMs: number, run: { cancelled: boolean; wake: (() => void) | null }): Promise<void> {
    return new Promise((resolve) => {
      const cancel = this.#timers.after(delayMs, () => {
        run.wake = null
        resolve()
      })
      run.wake = () => {
        cancel()
        run.wake = null
        resolve()
      }
    })
  }
}

/** The JSON file up to its first message: what it is, the conversation, its polls, then the messages as this app keeps them. */
function jsonHead(conversation: Conversation, polls: Poll[], exportedAt: number): string {
  const head = JSON.stringify({ format: 'parley-conversation-export', version: 1, exportedAt: new Date(exportedAt).toISOString(), conversation, polls }, null, 1)
  // The object is left open, its messages to follow as a list.
  return `${head.slice(0, head.lastIndexOf('}')).trimEnd()},\n"messages": [\n`
}

/** A name a file system takes: the conversation's, with what no system allows replaced, and the date. */
export function fileName(conversation: Conversation, format: ExportFormat, now: number): string {
  const safe = conversation.name
    .normalize('NFC')
    // Controls (as Unicode's category says), bidirectional marks and what file systems refuse.
    .replace(/[\p{Cc}\p{Cf}<>:"/\\|?*]/gu, '')
    .trim()
    .replace(/^\.+/, '')
    .slice(0, 80)
    .trim()
  const day = new Date(now).toISOString().slice(0, 10)
  return `${safe === '' ? 'conversation' : safe} ${day}.${format}`
}

/** A file that goes to the page in pieces, for it to save. */
function pageFile(name: string, send: (text: string) => void): ExportFile {
  return {
    name,
    write: async (text) => send(text),
    close: async () => undefined,
    discard: async () => undefined
  }
}

/** Gathers text into pieces of a useful size before each is written. */
class Pieces {
  readonly #file: ExportFile
  #parts: string[] = []
  #size = 0

  constructor(file: ExportFile) {
    this.#file = file
  }

  async add(text: string): Promise<void> {
    this.#parts.push(text)
    this.#size += text.length
    if (this.#size >= PIECE_CHARS) await this.flush()
  }

  async flush(): Promise<void> {
    if (this.#parts.length === 0) return
    const text = this.#parts.join('')
    this.#parts = []
    this.#size = 0
    await this.#file.write(text)
  }
}

export type ExportHandlers = Pick<InvokeHandlers, 'exports:start' | 'exports:cancel'>

export function exportHandlers(exporter: Pick<Exporter, 'start' | 'cancel'>): ExportHandlers {
  return {
    'exports:start': ({ exportId, conversationId, format }) => exporter.start(exportId, conversationId, format),
    'exports:cancel': async ({ exportId }) => {
      exporter.cancel(exportId)
      return null
    }
  }
}
