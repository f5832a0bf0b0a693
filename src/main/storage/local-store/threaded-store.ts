// One account's store as core uses it (the LocalStore port), with its SQL in a worker thread of
// its own (store-worker.ts): every call is a request to that thread, answered in the order made.
// The picture cache is files, already asynchronous, and stays in main.
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { GroupDetails } from '@shared/groups'
import type { Message, PendingMessage } from '@shared/messages'
import type { Person } from '@shared/people'
import type { Poll } from '@shared/polls'
import type { Draft } from '@shared/drafts'
import type { HistoryStart, LocalStore, PictureCache, RunJoins, StoredChange, StoredHistory, StoreSearch, StoreSearchPage, StoreUsage } from '../../core/ports'
import { NO_PICTURES } from './picture-cache'
import type { DatabaseAt, SqlMethod } from './store-requests'
import { StoreThread } from './store-thread'

export class ThreadedStore implements LocalStore {
  readonly #thread: StoreThread
  readonly #at: DatabaseAt
  readonly pictures: PictureCache
  /** The thread running the integrity check, while it runs. */
  #checking: StoreThread | null = null
  #closed = false

  /** `thread`: one whose store is open, at `at`. */
  constructor(thread: StoreThread, at: DatabaseAt, pictures: PictureCache = NO_PICTURES) {
    this.#thread = thread
    this.#at = at
    this.pictures = pictures
  }

  conversations(): Promise<Conversation[]> {
    return this.#call('conversations')
  }

  keepConversations(list: Conversation[]): Promise<void> {
    return this.#call('keepConversations', list)
  }

  keepRun(conversationId: ConversationId, messages: Message[], joins: RunJoins): Promise<void> {
    return this.#call('keepRun', conversationId, messages, joins)
  }

  keepMessages(messages: Message[]): Promise<void> {
    return this.#call('keepMessages', messages)
  }

  changeMessage(conversationId: ConversationId, messageId: string, change: StoredChange): Promise<void> {
    return this.#call('changeMessage', conversationId, messageId, change)
  }

  keepPoll(poll: Poll): Promise<void> {
    return this.#call('keepPoll', poll)
  }

  keepGroup(details: GroupDetails): Promise<void> {
    return this.#call('keepGroup', details)
  }

  group(groupId: ConversationId): Promise<GroupDetails | null> {
    return this.#call('group', groupId)
  }

  keepPerson(person: Person): Promise<void> {
    return this.#call('keepPerson', person)
  }

  person(userId: string): Promise<Person | null> {
    return this.#call('person', userId)
  }

  newest(conversationId: ConversationId, limit: number): Promise<StoredHistory | null> {
    return this.#call('newest', conversationId, limit)
  }

  before(conversationId: ConversationId, beforeId: string, limit: number): Promise<StoredHistory> {
    return this.#call('before', conversationId, beforeId, limit)
  }

  after(conversationId: ConversationId, afterId: string, limit: number): Promise<Message[] | null> {
    return this.#call('after', conversationId, afterId, limit)
  }

  pictureMessages(conversationId: ConversationId, beforeId: string | null, limit: number): Promise<Message[]> {
    return this.#call('pictureMessages', conversationId, beforeId, limit)
  }

  stretchFrom(conversationId: ConversationId, messageId: string, beforeId: string | null, context: number): Promise<StoredHistory | null> {
    return this.#call('stretchFrom', conversationId, messageId, beforeId, context)
  }

  messagesFrom(conversationId: ConversationId, afterId: string | null, limit: number): Promise<Message[]> {
    return this.#call('messagesFrom', conversationId, afterId, limit)
  }

  pollsOf(conversationId: ConversationId): Promise<Poll[]> {
    return this.#call('pollsOf', conversationId)
  }

  search(search: StoreSearch): Promise<StoreSearchPage> {
    return this.#call('search', search)
  }

  searchScope(): Promise<{ messages: number; oldestAt: number | null }> {
    return this.#call('searchScope')
  }

  syncPoints(): Promise<Map<ConversationId, string>> {
    return this.#call('syncPoints')
  }

  outbox(): Promise<PendingMessage[]> {
    return this.#call('outbox')
  }

  keepOutbox(pending: PendingMessage[]): Promise<void> {
    return this.#call('keepOutbox', pending)
  }

  usage(): Promise<StoreUsage> {
    return this.#call('usage')
  }

  historyStarts(): Promise<Map<ConversationId, HistoryStart>> {
    return this.#call('historyStarts')
  }

  messageCount(conversationId: ConversationId): Promise<number> {
    return this.#call('messageCount', conversationId)
  }

  clearHistory(): Promise<void> {
    return this.#call('clearHistory')
  }

  drafts(): Promise<Draft[]> {
    return this.#call('drafts')
  }

  keepDraft(draft: Draft): Promise<void> {
    return this.#call('keepDraft', draft)
  }

  forgetDraft(conversationId: ConversationId): Promise<void> {
    return this.#call('forgetDraft', conversationId)
  }

  leftOpen(): Promise<ConversationId | null> {
    return this.#call('leftOpen')
  }

  keepLeftOpen(conversationId: ConversationId | null): Promise<void> {
    return this.#call('keepLeftOpen', conversationId)
  }

  /**
   * SQLite's integrity check of the whole file, on a connection and a thread of its own, so the
   * store serves meanwhile: 'ok', or what the check found. Rejects when the file could not be read
   * at all (with SQLite's code), or when the store closed first.
   */
  async check(): Promise<string> {
    if (this.#closed) throw new Error('the store closed before its check ran')
    const thread = new StoreThread(`the integrity check of ${this.#thread.name}`)
    this.#checking = thread
    try {
      return await thread.request('check', this.#at)
    } finally {
      this.#checking = null
      await thread.close().catch(() => undefined)
    }
  }

  /** Resolves once every call made before it is done and the database is closed, its thread ended. */
  async close(): Promise<void> {
    this.#closed = true
    // A check still reading has nothing more to say of a store that is closing, and must not hold its file.
    await this.#checking?.end()
    await this.pictures.close()
    await this.#thread.close()
  }

  #call<M extends SqlMethod>(method: M, ...args: Parameters<LocalStore[M]>): Promise<Awaited<ReturnType<LocalStore[M]>>> {
    return this.#thread.request('call', { method, args } as never) as Promise<Awaited<ReturnType<LocalStore[M]>>>
  }
}
