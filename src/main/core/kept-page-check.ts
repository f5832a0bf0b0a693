// A page this device's store served is the service's word from when it was kept: since then a
// message in it may have been edited, reacted to, pinned or deleted while the app was not running,
// or removed from the service altogether (a deployment's retention, say). Once the service answers,
// the same stretch is read from it, once, and what differs goes into the message flow as the
// service's copy, so the page, the store and whoever else listens hear it by the one route. A kept
// message the service no longer has at all becomes a tombstone: never a silent gap, and never left
// as if it were still there.
import type { ConversationId } from '@shared/conversation-id'
import type { Message } from '@shared/messages'
import { compareIds } from '@shared/conversation-id'
import type { Log } from '../log/log'
import type { MessageChange, MessageFlow } from './message-flow'
import type { TimelineService } from './ports'

/** The service's largest page (docs/protocol.md §10): room for a kept page and what came after it. */
const NEWEST_CHECK_PAGE = 100

/**
 * The stretch of ids a page read from the service speaks for: every message the service has there
 * is in the page. Ids outside it say nothing (one pushed after the read, say).
 */
export interface PageCover {
  /** The oldest id it speaks for; null: everything older too (nothing older exists). */
  from: string | null
  /** The newest id it speaks for. */
  through: string
}

export interface PageDifferences {
  /** The service's copies of kept messages that changed since they were kept, in page order. */
  changed: Message[]
  /** Tombstones of kept messages inside the cover that the service no longer has at all. */
  gone: Message[]
}

/** What `served` (the service's page, covering `cover`) says has become of each message in `kept`. */
export function pageDifferences(kept: readonly Message[], served: readonly Message[], cover: PageCover): PageDifferences {
  const current = new Map(served.map((message) => [message.id, message]))
  const changed: Message[] = []
  const gone: Message[] = []
  for (const message of kept) {
    const copy = current.get(message.id)
    if (copy !== undefined) {
      if (!sameState(message, copy)) changed.push(copy)
      continue
    }
    // A tombstone is already what it can become. A system message may never have been listed at
    // all (in chats they are pushed only), so its absence says nothing.
    if (message.deleted || message.system || !covers(cover, message.id)) continue
    gone.push(tombstoneOf(message))
  }
  return { changed, gone }
}

/** A kept message the service no longer has: where it was, and that it is gone, with nothing it said. */
export function tombstoneOf(message: Message): Message {
  const { reactions: _reactions, event: _event, pinnedAt: _pinnedAt, editedAt: _editedAt, ...rest } = message
  return { ...rest, text: '', attachments: [], deleted: true }
}

function covers(cover: PageCover, id: string): boolean {
  return (cover.from === null || compareIds(id, cover.from) >= 0) && compareIds(id, cover.through) <= 0
}

/** Whether two copies of a message say the same of what can change after it was sent. */
function sameState(kept: Message, served: Message): boolean {
  // Tombstones differ only in the text standing in for what was said.
  if (kept.deleted || served.deleted) return kept.deleted === served.deleted
  return (
    kept.text === served.text &&
    kept.editedAt === served.editedAt &&
    kept.pinnedAt === served.pinnedAt &&
    JSON.stringify(kept.attachments) === JSON.stringify(served.attachments) &&
    JSON.stringify(kept.reactions ?? []) === JSON.stringify(served.reactions ?? [])
  )
}

/** The id just before `id`, as an anchor the service pages after: it need not exist (§10). */
function idBefore(id: string): string | null {
  if (!/^\d+$/.test(id)) return null
  const value = BigInt(id)
  return value === 0n ? null : (value - 1n).toString()
}

export interface KeptPageCheckDependencies {
  service: Pick<TimelineService, 'messagesAfter' | 'messagesBefore'>
  flow: Pick<MessageFlow, 'on' | 'changed'>
  log: Log
}

export class KeptPageCheck {
  readonly #deps: KeptPageCheckDependencies
  readonly #running = new Set<Promise<void>>()

  constructor(deps: KeptPageCheckDependencies) {
    this.#deps = deps
  }

  /**
   * A conversation's newest page, shown from the store and since caught up: read again from its
   * first message on. `wanted` says whether the answer still matters (not signed out meanwhile).
   */
  newest(conversationId: ConversationId, kept: readonly Message[], wanted: () => boolean): void {
    const first = kept[0]
    const anchor = first === undefined ? null : idBefore(first.id)
    if (first === undefined || anchor === null) return
    this.#run(conversationId, kept, wanted, async () => {
      const served = await this.#deps.service.messagesAfter(conversationId, anchor, NEWEST_CHECK_PAGE)
      const newest = served.at(-1)
      return newest === undefined ? null : { served, cover: { from: first.id, through: newest.id } }
    })
  }

  /** A page older than `beforeId`, shown from the store: the service's page just older than it. */
  older(conversationId: ConversationId, beforeId: string, kept: readonly Message[], pageSize: number, wanted: () => boolean): void {
    if (kept.length === 0) return
    this.#run(conversationId, kept, wanted, async () => {
      const served = await this.#deps.service.messagesBefore(conversationId, beforeId, pageSize)
      // A short page reaches the start: nothing older than it exists.
      const from = served.length < pageSize ? null : (served[0]?.id ?? null)
      return { served, cover: { from, through: beforeId } }
    })
  }

  /** Resolves once every check started so far is done. */
  async settled(): Promise<void> {
    while (this.#running.size > 0) await Promise.all(this.#running)
  }

  #run(
    conversationId: ConversationId,
    kept: readonly Message[],
    wanted: () => boolean,
    read: () => Promise<{ served: Message[]; cover: PageCover } | null>
  ): void {
    const running = this.#check(conversationId, kept, wanted, read).finally(() => this.#running.delete(running))
    this.#running.add(running)
  }

  async #check(
    conversationId: ConversationId,
    kept: readonly Message[],
    wanted: () => boolean,
    read: () => Promise<{ served: Message[]; cover: PageCover } | null>
  ): Promise<void> {
    // A change heard while the read is on its way may be newer than what the read answers: the
    // message keeps what it heard.
    const heard = new Set<string>()
    const stopHearing = this.#deps.flow.on('changed', (change) => {
      if (conversationOf(change) === conversationId) heard.add(messageIdOf(change))
    })
    let answer: { served: Message[]; cover: PageCover } | null
    try {
      answer = await read()
    } catch (error) {
      this.#deps.log.warn(`could not check the kept messages of ${conversationId} against the service`, error)
      return
    } finally {
      stopHearing()
    }
    if (answer === null || !wanted()) return
    const { changed, gone } = pageDifferences(kept, answer.served, answer.cover)
    for (const message of [...changed, ...gone]) {
      if (!heard.has(message.id)) this.#deps.flow.changed({ kind: 'replaced', message })
    }
  }
}

function conversationOf(change: MessageChange): ConversationId {
  return change.kind === 'replaced' ? change.message.conversationId : change.conversationId
}

function messageIdOf(change: MessageChange): string {
  return change.kind === 'replaced' ? change.message.id : change.messageId
}
