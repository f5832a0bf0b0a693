// The one route every message takes into the app. Whatever source brings a message (push, the
// answer to a send, a catch-up after an outage, a page of history) or changes one (an edit, a
// deletion, a reaction, a pin, a poll's votes), it passes through here, and those who keep or
// show messages (the renderer's events, the conversation list, the notifier, the outbox, and a
// store on disk) listen here rather than to each source.
import type { ConversationId } from '@shared/conversation-id'
import type { Message, Reaction } from '@shared/messages'
import type { Poll } from '@shared/polls'
import { TypedEmitter } from '@shared/typed-emitter'

/** How a message new to the app reached it. */
export type ArrivalSource = 'pushed' | 'sent' | 'caughtUp'

export interface Arrival {
  message: Message
  source: ArrivalSource
}

/** A page of a conversation's history, read from the service on request. */
export interface HistoryPage {
  conversationId: ConversationId
  /** Oldest first, and nothing of the conversation missing between the first and the last. */
  messages: Message[]
  /**
   * The newest messages there were when it was read; those just older than `before`; or those
   * just newer than `after` up to the newest (a catch-up, read through to its end).
   */
  end: 'newest' | 'older' | 'newer'
  /** An older page runs on up to this message with nothing between; null otherwise. */
  before: string | null
  /** A newer page runs on from this message with nothing between; null otherwise (or a catch-up from the very start). */
  after: string | null
  /** Nothing in the conversation is older than the page's first message. */
  atStart: boolean
}

/** Something that changed about a message the app may already hold. */
export type MessageChange =
  /** The service's new copy of the message (edited, deleted, reacted to, pinned), pushed or answered. */
  | { kind: 'replaced'; message: Message }
  /** The user reacted or took a reaction back; the service answers with the reactions alone. */
  | { kind: 'reacted'; conversationId: ConversationId; messageId: string; reactions: Reaction[] }
  /** The user pinned or unpinned it; the service answers with nothing more. */
  | { kind: 'pinned'; conversationId: ConversationId; messageId: string; pinned: boolean }
  /** The user deleted it; the service answers with nothing more. */
  | { kind: 'deleted'; conversationId: ConversationId; messageId: string }

export interface MessageFlowEvents {
  /** A message the app had not seen yet: said once, however many sources bring it. */
  arrived: Arrival
  changed: MessageChange
  paged: HistoryPage
  /** The service's latest copy of a poll: created, read, voted in or ended. */
  pollUpdated: Poll
}

export class MessageFlow {
  readonly #events: TypedEmitter<MessageFlowEvents>
  /** Each conversation's messages already arrived or paged in, so that a second source says nothing. */
  readonly #known = new Map<ConversationId, Set<string>>()

  /** `listenerFailed` hears of a listener that threw; the others still hear the event. */
  constructor(listenerFailed: (event: keyof MessageFlowEvents, error: unknown) => void) {
    this.#events = new TypedEmitter(listenerFailed)
  }

  /** Returns a function that stops the listening. */
  on<E extends keyof MessageFlowEvents>(event: E, listener: (payload: MessageFlowEvents[E]) => void): () => void {
    return this.#events.on(event, listener)
  }

  /** A message by `source`; announced as `arrived` unless an earlier source brought it. */
  arrive(message: Message, source: ArrivalSource): void {
    const known = this.#knownIn(message.conversationId)
    if (known.has(message.id)) return
    known.add(message.id)
    this.#events.emit('arrived', { message, source })
  }

  /**
   * A page read on request. A newer page is news: what it holds that the app had not seen arrives,
   * `caughtUp`. An older page's messages are not remembered as known: no source brings messages
   * that old as new, and a whole history downloaded would otherwise stay in memory as ids.
   */
  paged(page: HistoryPage): void {
    if (page.end === 'newer') for (const message of page.messages) this.arrive(message, 'caughtUp')
    if (page.end === 'newest') this.held(page.conversationId, page.messages)
    this.#events.emit('paged', page)
  }

  /** Messages the app shows from this device's store: a source bringing them again brings nothing new. */
  held(conversationId: ConversationId, messages: Message[]): void {
    const known = this.#knownIn(conversationId)
    for (const message of messages) known.add(message.id)
  }

  changed(change: MessageChange): void {
    this.#events.emit('changed', change)
  }

  pollUpdated(poll: Poll): void {
    this.#events.emit('pollUpdated', poll)
  }

  /** A conversation the user is no longer in: what it held may come again, from a new start. */
  forget(conversationId: ConversationId): void {
    this.#known.delete(conversationId)
  }

  /** Signed out: the next account's messages are all new to it. */
  clear(): void {
    this.#known.clear()
  }

  #knownIn(conversationId: ConversationId): Set<string> {
    let known = this.#known.get(conversationId)
    if (known === undefined) {
      known = new Set()
      this.#known.set(conversationId, known)
    }
    return known
  }
}
