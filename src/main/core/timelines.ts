// The message history of each conversation the user has opened: pages of it read on demand, from
// this device's store where it holds them and from the service where it does not, and, after an
// outage or from what the store held, what arrived meanwhile. Each page and each message read from
// the service goes into the message flow, which lets a message through once whichever way it came.
// A page served from the store is checked against the service's copy of it in the background
// (kept-page-check.ts): the newest once the conversation has caught up, an older one at once.
import type { ConversationId } from '@shared/conversation-id'
import type { Message, MessagePage } from '@shared/messages'
import { compareIds } from '@shared/conversation-id'
import type { KeptPageCheck } from './kept-page-check'
import type { MessageFlow } from './message-flow'
import type { LocalStore, TimelineService } from './ports'

export const PAGE_SIZE = 50
/** The service's largest page (docs/protocol.md §10), used when catching up. */
const CATCH_UP_PAGE = 100

interface Timeline {
  /**
   * The newest id up to which this device has read the conversation straight from the service,
   * with no gap. Pushed messages and our own accepted sends do not move it: they can arrive
   * ahead of messages not yet seen (a send accepted just after a reconnect, say), and catching up
   * from them would skip those.
   */
  syncedThrough: string | null
  /** The newest page last shown from the store, waiting for a catch-up before it is checked against the service. */
  unchecked: Message[] | null
}

/** A conversation's newest page, and whether it came from this device's store (the service may know newer). */
export interface OpenedPage extends MessagePage {
  fromDevice: boolean
}

export class Timelines {
  readonly #service: TimelineService
  readonly #flow: MessageFlow
  readonly #kept: () => LocalStore | null
  readonly #check: Pick<KeptPageCheck, 'newest' | 'older'> | null
  readonly #settled: () => Promise<void>
  readonly #loaded = new Map<ConversationId, Timeline>()

  /**
   * `kept`: the signed-in account's store, null while there is none; `check`: what brings the pages
   * it serves up to date with the service (none: they are shown as kept).
   */
  /**
   * `settled` resolves once every write already asked of the store has landed: a read waits for it,
   * so a message kept a moment ago (pushed just before the conversation opens) is in what it reads.
   */
  constructor(
    service: TimelineService,
    flow: MessageFlow,
    kept: () => LocalStore | null = () => null,
    check: Pick<KeptPageCheck, 'newest' | 'older'> | null = null,
    settled: () => Promise<void> = () => Promise.resolve()
  ) {
    this.#service = service
    this.#flow = flow
    this.#kept = kept
    this.#check = check
    this.#settled = settled
  }

  isLoaded(conversationId: ConversationId): boolean {
    return this.#loaded.has(conversationId)
  }

  /**
   * The newest page: from the store when it holds any of the conversation (a `catchUp` then brings
   * what is newer), from the service when it does not.
   */
  async load(conversationId: ConversationId): Promise<OpenedPage> {
    const kept = await this.#readKept((store) => store.newest(conversationId, PAGE_SIZE))
    const newestKept = kept?.messages.at(-1)
    if (kept && newestKept !== undefined) {
      const timeline = this.#timeline(conversationId)
      this.#syncTo(timeline, newestKept.id)
      timeline.unchecked = kept.messages
      this.#flow.held(conversationId, kept.messages)
      return { messages: kept.messages, hasOlder: kept.older !== 'none', fromDevice: true }
    }
    return { ...(await this.#loadFromService(conversationId)), fromDevice: false }
  }

  async #loadFromService(conversationId: ConversationId): Promise<MessagePage> {
    const messages = await this.#service.latestMessages(conversationId, PAGE_SIZE)
    const timeline = this.#timeline(conversationId)
    timeline.unchecked = null
    const newest = messages.at(-1)
    if (newest !== undefined) this.#syncTo(timeline, newest.id)
    const hasOlder = messages.length === PAGE_SIZE
    this.#flow.paged({ conversationId, messages, end: 'newest', before: null, after: null, atStart: !hasOlder })
    return { messages, hasOlder }
  }

  /** The page just older than `beforeId`: what the store holds of it, or else the service's. */
  async older(conversationId: ConversationId, beforeId: string): Promise<MessagePage> {
    const kept = await this.#readKept((store) => store.before(conversationId, beforeId, PAGE_SIZE))
    if (kept && kept.messages.length > 0) {
      // Checked only for a conversation still loaded: one cleared meanwhile belongs to nobody now.
      const timeline = this.#loaded.get(conversationId)
      if (timeline !== undefined) this.#check?.older(conversationId, beforeId, kept.messages, PAGE_SIZE, () => this.#loaded.get(conversationId) === timeline)
      return { messages: kept.messages, hasOlder: kept.older !== 'none' }
    }
    const messages = await this.#service.messagesBefore(conversationId, beforeId, PAGE_SIZE)
    // Only `load` starts a timeline: one started here (after a sign-out cleared them, say) would
    // know no synced point, and its next catch-up would read the whole history as new.
    const hasOlder = messages.length === PAGE_SIZE
    this.#flow.paged({ conversationId, messages, end: 'older', before: beforeId, after: null, atStart: !hasOlder })
    return { messages, hasOlder }
  }

  /**
   * Up to `limit` messages just newer than `afterId`, oldest first: from the store when the stretch
   * it keeps around `afterId` goes on past it (so a conversation opens with its "New messages"
   * mark when the service is out of reach), from the service when not.
   */
  async after(conversationId: ConversationId, afterId: string, limit: number): Promise<Message[]> {
    const kept = await this.#readKept((store) => store.after(conversationId, afterId, limit))
    if (kept !== null && kept.length > 0) return kept
    return this.#service.messagesAfter(conversationId, afterId, limit)
  }

  /**
   * Reads everything newer than what this conversation was last read through, oldest first, into
   * the flow, which passes on what it has not seen yet.
   */
  async catchUp(conversationId: ConversationId): Promise<void> {
    const timeline = this.#loaded.get(conversationId)
    if (!timeline) return
    const after = timeline.syncedThrough
    const read = await this.#readAfter(conversationId, after)
    // Moved only once every page has come: when a later page fails, none of the earlier ones
    // goes on, so the next catch-up must read them again.
    const newest = read.at(-1)
    if (newest !== undefined) this.#syncTo(timeline, newest.id)
    this.#flow.paged({ conversationId, messages: read, end: 'newer', before: null, after, atStart: after === null })
    // Caught up, so the service answers: the page the store showed is read from it again, once.
    const unchecked = timeline.unchecked
    timeline.unchecked = null
    if (unchecked !== null) this.#check?.newest(conversationId, unchecked, () => this.#loaded.get(conversationId) === timeline)
  }

  /**
   * The same for a conversation not open this run, from the newest message this device keeps of
   * it, so that what is kept stays whole up to now.
   */
  async catchUpKept(conversationId: ConversationId, keptThrough: string): Promise<void> {
    const read = await this.#readAfter(conversationId, keptThrough)
    this.#flow.paged({ conversationId, messages: read, end: 'newer', before: null, after: keptThrough, atStart: false })
  }

  /**
   * A conversation not open this run whose newest message, as the service's list gives it, is
   * kept here already: a catch-up from there that found nothing, said without reading it, so that
   * what push brings next is known to follow what is kept.
   */
  upToDate(conversationId: ConversationId, keptThrough: string): void {
    this.#flow.paged({ conversationId, messages: [], end: 'newer', before: null, after: keptThrough, atStart: false })
  }

  /** Everything newer than `after` (null: from the very beginning), oldest first, read through to the newest. */
  async #readAfter(conversationId: ConversationId, after: string | null): Promise<Message[]> {
    const read: Message[] = []
    let readThrough = after
    for (;;) {
      const page = await this.#service.messagesAfter(conversationId, readThrough ?? '0', CATCH_UP_PAGE)
      read.push(...page)
      readThrough = page.at(-1)?.id ?? readThrough
      if (page.length < CATCH_UP_PAGE) return read
    }
  }

  loadedConversations(): ConversationId[] {
    return [...this.#loaded.keys()]
  }

  /** A conversation that is gone: nothing is caught up on there any more. */
  forget(conversationId: ConversationId): void {
    this.#loaded.delete(conversationId)
  }

  clear(): void {
    this.#loaded.clear()
  }

  /** A read of the store, or null when there is none or it failed: the service is asked instead. */
  async #readKept<T>(read: (store: LocalStore) => Promise<T>): Promise<T | null> {
    if (this.#kept() === null) return null
    try {
      await this.#settled()
      const store = this.#kept()
      if (store === null) return null
      return await read(store)
    } catch {
      return null
    }
  }

  #timeline(conversationId: ConversationId): Timeline {
    let timeline = this.#loaded.get(conversationId)
    if (!timeline) {
      timeline = { syncedThrough: null, unchecked: null }
      this.#loaded.set(conversationId, timeline)
    }
    return timeline
  }

  #syncTo(timeline: Timeline, messageId: string): void {
    if (timeline.syncedThrough === null || compareIds(messageId, timeline.syncedThrough) > 0) timeline.syncedThrough = messageId
  }
}
