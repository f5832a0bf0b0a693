// The message history of each conversation the user has opened: pages of it fetched on demand,
// and every message that arrives afterwards, each delivered to the renderer exactly once whether it
// came by push, by catch-up after a reconnect, or as the answer to our own send.
import type { ConversationId, Message, MessagePage } from '../../shared/domain'
import { compareIds } from '../../shared/conversation-id'
import type { TimelineService } from './ports'

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
  seen: Set<string>
}

export class Timelines {
  readonly #service: TimelineService
  readonly #loaded = new Map<ConversationId, Timeline>()

  constructor(service: TimelineService) {
    this.#service = service
  }

  isLoaded(conversationId: ConversationId): boolean {
    return this.#loaded.has(conversationId)
  }

  async load(conversationId: ConversationId): Promise<MessagePage> {
    const messages = await this.#service.latestMessages(conversationId, PAGE_SIZE)
    const timeline = this.#timeline(conversationId)
    for (const message of messages) {
      timeline.seen.add(message.id)
      this.#syncTo(timeline, message.id)
    }
    return { messages, hasOlder: messages.length === PAGE_SIZE }
  }

  async older(conversationId: ConversationId, beforeId: string): Promise<MessagePage> {
    const messages = await this.#service.messagesBefore(conversationId, beforeId, PAGE_SIZE)
    // Only `load` starts a timeline: one started here (after a sign-out cleared them, say) would
    // know no synced point, and its next catch-up would read the whole history as new.
    const timeline = this.#loaded.get(conversationId)
    for (const message of messages) timeline?.seen.add(message.id)
    return { messages, hasOlder: messages.length === PAGE_SIZE }
  }

  /** Records a message that arrived; false when it was already known here. */
  accept(message: Message): boolean {
    const timeline = this.#loaded.get(message.conversationId)
    if (!timeline) return true
    if (timeline.seen.has(message.id)) return false
    timeline.seen.add(message.id)
    return true
  }

  /**
   * Fetches everything newer than what this conversation was last read through, oldest first,
   * leaving out what is already shown. The caller passes each through `accept` as it delivers it.
   */
  async catchUp(conversationId: ConversationId): Promise<Message[]> {
    const timeline = this.#loaded.get(conversationId)
    if (!timeline) return []
    const arrived: Message[] = []
    let readThrough = timeline.syncedThrough
    for (;;) {
      // A conversation that was empty when opened is read from its very beginning.
      const page = await this.#service.messagesAfter(conversationId, readThrough ?? '0', CATCH_UP_PAGE)
      for (const message of page) if (!timeline.seen.has(message.id)) arrived.push(message)
      readThrough = page.at(-1)?.id ?? readThrough
      if (page.length < CATCH_UP_PAGE) break
    }
    // Moved only once every page has come: when a later page fails, the caller gets none of the
    // earlier ones, so the next catch-up must read them again.
    if (readThrough !== null) this.#syncTo(timeline, readThrough)
    return arrived
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

  #timeline(conversationId: ConversationId): Timeline {
    let timeline = this.#loaded.get(conversationId)
    if (!timeline) {
      timeline = { syncedThrough: null, seen: new Set() }
      this.#loaded.set(conversationId, timeline)
    }
    return timeline
  }

  #syncTo(timeline: Timeline, messageId: string): void {
    if (timeline.syncedThrough === null || compareIds(messageId, timeline.syncedThrough) > 0) timeline.syncedThrough = messageId
  }
}
