// The download of every conversation's older history, so that all of it is kept on this device
// (Settings ▸ Storage ▸ Keep full history on this device). Newest conversations first, page by page
// from where the newest stretch the store keeps begins, each page handed to the message flow as any
// page of history is: the store keeps it from there, and this never writes the store itself. What
// the store holds is the progress, so a restart goes on where the last run stopped.
//
// It comes after everything live: it begins only once catch-up says it is done, waits while push is
// not connected (the next catch-up brings it back), gives way while a request of the user's is on
// its way and while messages are arriving live, and asks the service at a steady, polite rate,
// waiting longer each time the service says it is busy (429) or out of order (5xx). A conversation
// is done on an empty page, never on a short one: a page can be short for other reasons than the
// start of a history.
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import type { DownloadingConversation, HistoryDownload } from '@shared/storage'
import type { Log } from '../log/log'
import { DownloadPace } from './download-pace'
import { errorCodeOf } from './failures'
import type { MessageFlow } from './message-flow'
import type { HistoryStart, LocalStore, Preferences, TimelineService } from './ports'
import { systemTimers, type Timers } from './timers'

/** The service's largest page (docs/protocol.md §10). */
export const BACKFILL_PAGE = 100
/** Between one page and the next: five a second at most, half of where a deployment starts refusing. */
export const BACKFILL_INTERVAL_MS = 200
/** Between one page and the next while making up time given to live traffic: two thirds of where a deployment starts refusing. */
export const BACKFILL_FASTEST_INTERVAL_MS = 150
/** The most time given to live traffic that is made up afterwards. */
const LONGEST_MAKE_UP_MS = 30_000
/** The first wait after the service said it is busy or out of order; each further one doubles. */
export const BACKFILL_FIRST_BACKOFF_MS = 2_000
const LONGEST_BACKOFF_MS = 120_000
/**
 * A page waits until no message has arrived live for this long: each page's decoding and keeping
 * takes a core for a moment, and on a machine of two a push arriving then reached the page twice as
 * late (push → DOM p99, measured by the bench). The time is made up later (see `DownloadPace`).
 */
export const LIVE_QUIET_MS = 1_000
/** Yet a page waits no longer than this after the last one began, so a group that never falls quiet cannot stop the download. */
export const LONGEST_LIVE_WAIT_MS = 10_000

export interface BackfillDependencies {
  service: Pick<TimelineService, 'latestMessages' | 'messagesBefore'>
  flow: Pick<MessageFlow, 'paged'>
  /** The signed-in account's store; null while there is none (signed out, say). Read, never written. */
  store: () => LocalStore | null
  /** The conversation list as the app shows it. */
  conversations: () => Conversation[]
  /** Keep full history on this device is on. */
  enabled: () => boolean
  /** Where the user's Pause is kept across restarts. */
  preferences: Pick<Preferences, 'get' | 'set'>
  pushConnected: () => boolean
  /** A request of the user's is on its way: the next page waits for it. */
  userBusy?: () => boolean
  /** When a message last arrived live (Unix milliseconds, as `now`); null: none yet. The next page waits for a quiet moment. */
  liveAt?: () => number | null
  /** The download moved on, or its state changed. */
  changed: (download: HistoryDownload) => void
  log: Log
  timers?: Timers
  /** Unix milliseconds, for the pace. */
  now?: () => number
  /** From the start of one page's request to the next one's, on average. */
  intervalMs?: number
  /** From the start of one page's request to the next one's, at the least (while making up time). */
  fastestIntervalMs?: number
  /** The first wait after the service said it is busy or out of order; each further one doubles, up to `longestBackoffMs`. */
  firstBackoffMs?: number
  longestBackoffMs?: number
}

/** Where the download is: which conversation, and the message it reads before (null: its newest page first). */
interface Cursor {
  conversation: Conversation
  before: string | null
}

export class Backfill {
  readonly #deps: BackfillDependencies
  readonly #timers: Timers
  readonly #now: () => number
  readonly #intervalMs: number
  readonly #firstBackoffMs: number
  readonly #longestBackoffMs: number
  /** Catch-up said it is done, and nothing since says it must run again first. */
  #caughtUp = false
  #cancelWait: (() => void) | null = null
  #stepping = false
  #waitingOnService = false
  /** Nothing was left to read at the last look: every listed conversation whole, or passed by. */
  #finished = false
  #failures = 0
  readonly #pace: DownloadPace
  /** The store the rest refers to: another (a new account's, say) starts it all afresh. */
  #store: LocalStore | null = null
  #cursor: Cursor | null = null
  /** Conversations found whole that the store cannot say so of: an empty one. */
  readonly #settled = new Set<ConversationId>()
  /** Conversations the service would not give (gone, refused): tried again after the next catch-up. */
  readonly #passedBy = new Set<ConversationId>()
  #download: HistoryDownload = { state: 'waiting', conversationsDone: 0, conversations: 0, current: null }
  #announced = ''

  constructor(deps: BackfillDependencies) {
    this.#deps = deps
    this.#timers = deps.timers ?? systemTimers
    this.#now = deps.now ?? Date.now
    this.#intervalMs = deps.intervalMs ?? BACKFILL_INTERVAL_MS
    this.#firstBackoffMs = deps.firstBackoffMs ?? BACKFILL_FIRST_BACKOFF_MS
    this.#longestBackoffMs = deps.longestBackoffMs ?? LONGEST_BACKOFF_MS
    this.#pace = new DownloadPace({
      intervalMs: this.#intervalMs,
      fastestMs: Math.min(deps.fastestIntervalMs ?? BACKFILL_FASTEST_INTERVAL_MS, this.#intervalMs),
      longestMakeUpMs: LONGEST_MAKE_UP_MS
    })
  }

  get paused(): boolean {
    return this.#deps.preferences.get('historyDownloadPaused') === true
  }

  /** Catch-up has read what was missed: older history may follow. Called after every catch-up. */
  caughtUp(): void {
    this.#caughtUp = true
    this.#passedBy.clear()
    this.#wake()
  }

  pause(): void {
    this.#deps.preferences.set('historyDownloadPaused', true)
    this.#sleep()
  }

  resume(): void {
    this.#deps.preferences.set('historyDownloadPaused', false)
    this.#failures = 0
    this.#cancel()
    this.#wake()
  }

  /** Keep full history was turned on or off. */
  enabledChanged(): void {
    if (this.#deps.enabled()) this.#wake()
    else this.#sleep()
  }

  /** The store's history was deleted: what was known of it goes too, and the download starts over. */
  restart(): void {
    this.#forget()
    this.#cancel()
    this.#wake()
  }

  /** Signed out or stopping: nothing more is asked until the next catch-up. */
  stop(): void {
    this.#caughtUp = false
    this.#cancel()
    this.#forget()
    this.#announce()
  }

  /** How the download stands, counted afresh from the store. */
  async progress(): Promise<HistoryDownload> {
    const store = this.#currentStore()
    if (store !== null) this.#count(await store.historyStarts())
    this.#download = { ...this.#download, state: this.#state() }
    return this.#download
  }

  #wake(): void {
    if (this.#cancelWait !== null || this.#stepping) {
      this.#announce()
      return
    }
    this.#after(0)
  }

  #sleep(): void {
    this.#cancel()
    this.#announce()
  }

  #cancel(): void {
    this.#pace.restart()
    this.#cancelWait?.()
    this.#cancelWait = null
    this.#waitingOnService = false
  }

  #after(delayMs: number): void {
    this.#cancelWait = this.#timers.after(delayMs, () => {
      this.#cancelWait = null
      this.#waitingOnService = false
      void this.#step()
    })
    this.#announce()
  }

  #forget(): void {
    this.#cursor = null
    this.#settled.clear()
    this.#passedBy.clear()
    this.#failures = 0
    this.#finished = false
    this.#download = { state: 'waiting', conversationsDone: 0, conversations: 0, current: null }
  }

  /** The store in force, forgetting what was known of another. */
  #currentStore(): LocalStore | null {
    const store = this.#deps.store()
    if (store !== this.#store) {
      this.#store = store
      this.#forget()
    }
    // A new session catches up before anything older is read.
    if (store === null) this.#caughtUp = false
    return store
  }

  #mayRun(): boolean {
    return this.#caughtUp && this.#deps.enabled() && !this.paused && this.#store !== null
  }

  #state(): HistoryDownload['state'] {
    if (!this.#deps.enabled()) return 'off'
    if (this.paused) return 'paused'
    // Done only when every listed conversation is whole; one passed by waits for the next catch-up.
    if (this.#finished) return this.#download.conversationsDone === this.#download.conversations ? 'done' : 'waiting'
    if (!this.#caughtUp || this.#store === null || this.#waitingOnService) return 'waiting'
    return 'downloading'
  }

  async #step(): Promise<void> {
    const store = this.#currentStore()
    if (store === null || !this.#mayRun()) return this.#announce()
    if (!this.#deps.pushConnected()) {
      // Push is away: what it misses comes first, read by the catch-up that follows its return.
      this.#caughtUp = false
      this.#pace.restart()
      return this.#announce()
    }
    if (this.#deps.userBusy?.() === true) return this.#after(this.#intervalMs)
    const quietInMs = this.#untilQuiet()
    if (quietInMs > 0) return this.#after(quietInMs)
    this.#stepping = true
    let delayMs: number | null = this.#intervalMs
    try {
      const cursor = await this.#next(store)
      if (cursor === null) {
        this.#pace.restart()
        delayMs = null
        return
      }
      this.#pace.asked(this.#now())
      this.#announce()
      const messages = await this.#read(cursor)
      // Signed out, or the history deleted, while the page was on its way: it belongs to nobody now.
      if (this.#deps.store() !== store || this.#cursor !== cursor) return
      this.#kept(cursor, messages)
      this.#failures = 0
      // A steady pace: the time the page took counts towards the wait for the next, so the rate
      // is one page an interval, however long the service takes to answer (up to that).
      delayMs = this.#pace.untilNext(this.#now())
    } catch (error) {
      this.#pace.restart()
      delayMs = this.#failed(error)
    } finally {
      this.#stepping = false
      if (delayMs !== null && this.#mayRun() && this.#cancelWait === null) this.#after(delayMs)
      else this.#announce()
    }
  }

  /** How long the next page waits for messages arriving live to fall quiet: 0 once they have, or once it has waited its longest. */
  #untilQuiet(): number {
    const liveAt = this.#deps.liveAt?.() ?? null
    if (liveAt === null) return 0
    const now = this.#now()
    return Math.max(0, Math.min(liveAt + LIVE_QUIET_MS - now, this.#pace.lastAskedAt + LONGEST_LIVE_WAIT_MS - now))
  }

  /** The page to read next: the conversation under way, else the newest one not yet kept whole. */
  async #next(store: LocalStore): Promise<Cursor | null> {
    const listed = this.#deps.conversations()
    const cursor = this.#cursor
    if (cursor !== null && listed.some((c) => c.id === cursor.conversation.id)) return cursor
    this.#cursor = null
    const starts = await fromStore(() => store.historyStarts())
    this.#count(starts)
    const next = newestFirst(listed).find((conversation) => !this.#whole(conversation.id, starts) && !this.#passedBy.has(conversation.id))
    if (next === undefined) {
      this.#finished = true
      this.#download = { ...this.#download, current: null }
      return null
    }
    this.#finished = false
    const start = starts.get(next.id)
    this.#cursor = { conversation: next, before: start?.oldestId ?? null }
    await this.#countCurrent(store)
    return this.#cursor
  }

  async #read(cursor: Cursor): Promise<Message[]> {
    const { service } = this.#deps
    const id = cursor.conversation.id
    return cursor.before === null ? service.latestMessages(id, BACKFILL_PAGE) : service.messagesBefore(id, cursor.before, BACKFILL_PAGE)
  }

  /** Hands the page to the flow, which the store keeps it from, and moves on from it. */
  #kept(cursor: Cursor, messages: Message[]): void {
    const conversationId = cursor.conversation.id
    const atStart = messages.length === 0
    if (cursor.before === null) this.#deps.flow.paged({ conversationId, messages, end: 'newest', before: null, after: null, atStart })
    else this.#deps.flow.paged({ conversationId, messages, end: 'older', before: cursor.before, after: null, atStart })
    const current = this.#download.current
    // Counted as it goes rather than in the store: a count of a long history costs tens of ms each time.
    // The pages lie beyond the newest stretch kept, so each message is new unless an older stretch was kept already.
    if (current?.conversationId === conversationId) this.#download = { ...this.#download, current: { ...current, kept: current.kept + messages.length } }
    const oldest = messages[0]
    if (oldest === undefined) {
      this.#settled.add(conversationId)
      this.#download = { ...this.#download, conversationsDone: this.#download.conversationsDone + 1 }
      this.#cursor = null
    } else {
      cursor.before = oldest.id
    }
  }

  /** How long to wait before the next page; null: not before something else wakes it. */
  #failed(error: unknown): number | null {
    if (error instanceof StoreUnreadable) {
      // The store would not answer (a full disk, say): it is asked again later, as the service would be.
      this.#deps.log.warn('the history download could not read the store', error.cause)
      this.#waitingOnService = true
      return this.#longestBackoffMs
    }
    const code = errorCodeOf(error)
    const conversation = this.#cursor?.conversation
    if (code === 'RATE_LIMITED' || code === 'NETWORK') {
      // Busy, out of order or out of reach: the same page again, later and later.
      const waitMs = Math.min(this.#firstBackoffMs * 2 ** this.#failures, this.#longestBackoffMs)
      this.#failures += 1
      this.#waitingOnService = true
      this.#deps.log.info(`the history download waits ${waitMs} ms: the service answered ${code}`)
      return waitMs
    }
    if (code === 'UNAUTHENTICATED') {
      this.#caughtUp = false
      return null
    }
    // Gone, refused or unreadable: this run passes it by rather than stopping at it.
    this.#deps.log.warn(`the history download passes ${conversation?.id ?? 'a conversation'} by`, error)
    if (conversation !== undefined) this.#passedBy.add(conversation.id)
    this.#cursor = null
    return this.#intervalMs
  }

  #whole(conversationId: ConversationId, starts: Map<ConversationId, HistoryStart>): boolean {
    return this.#settled.has(conversationId) || starts.get(conversationId)?.reachesStart === true
  }

  #count(starts: Map<ConversationId, HistoryStart>): void {
    const listed = this.#deps.conversations()
    this.#download = {
      ...this.#download,
      conversations: listed.length,
      conversationsDone: listed.filter((conversation) => this.#whole(conversation.id, starts)).length
    }
  }

  /** The conversation under way, its messages kept counted once as it begins. */
  async #countCurrent(store: LocalStore): Promise<void> {
    const conversation = this.#cursor?.conversation
    if (conversation === undefined) return
    const current: DownloadingConversation = {
      conversationId: conversation.id,
      name: conversation.name,
      kept: await fromStore(() => store.messageCount(conversation.id)),
      total: conversation.messageCount ?? null
    }
    this.#download = { ...this.#download, current }
  }

  #announce(): void {
    const download = { ...this.#download, state: this.#waitingOnService ? 'waiting' : this.#state() }
    this.#download = download
    const said = JSON.stringify(download)
    if (said === this.#announced) return
    this.#announced = said
    this.#deps.changed(download)
  }
}

/** The store failed a read: told apart from the service's failures, which are about a conversation. */
class StoreUnreadable extends Error {
  constructor(cause: unknown) {
    super('the local store could not be read', { cause })
    this.name = 'StoreUnreadable'
  }
}

async function fromStore<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read()
  } catch (error) {
    throw new StoreUnreadable(error)
  }
}

/** Latest activity first: those read most are kept whole first. */
function newestFirst(conversations: Conversation[]): Conversation[] {
  return [...conversations].sort((a, b) => b.lastActivityAt - a.lastActivityAt)
}
