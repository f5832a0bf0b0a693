// Keeps this device's copy of the signed-in account: opens its store at sign-in, writes into it
// everything the message flow carries (and nothing else reaches it), and lets go of it at sign-out.
// Writes queue one behind another so they land in the order the flow said them, and a write that
// fails (a full disk, say) is logged and told once: the app goes on from the service. A store
// serves as soon as it opens, before its integrity check has read the whole file: what is written
// meanwhile is also held here, so that if the check finds the file damaged, the store made in its
// place receives it all, as if the damage had been found at opening. The check waits a few seconds
// after the store opens: the first seconds of a start belong to drawing the first screen and to
// the person's first clicks.
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import type { GroupDetails } from '@shared/groups'
import type { Person } from '@shared/people'
import { compareIds } from '@shared/conversation-id'
import type { Log } from '../log/log'
import type { HistoryPage, MessageChange, MessageFlow } from './message-flow'
import type { LocalStore, LocalStores, StoreCheck } from './ports'
import { systemTimers, type Timers } from './timers'

export interface StoreKeeperDependencies {
  stores: LocalStores
  flow: Pick<MessageFlow, 'on'>
  log: Log
  /** Unix milliseconds, for when a pin the service answered without a time was made. */
  now: () => number
  /** Something the person should know about what is kept (set aside, or no longer written). */
  notice(text: string): void
  /** The store was made anew, empty but for what was written since it opened: what was read from the old one must be read again. */
  replaced?(): void
  timers?: Timers
}

/** The list changes with every message; it is written at most this often. */
const LIST_WRITE_DELAY_MS = 1_000

/**
 * How long after the store opens its integrity check begins. The check starts a thread and reads
 * the whole file, CPU the page needs while it draws the kept list: begun at once, it made a start
 * to a usable list of a hundred conversations from the store about 95 ms slower on two cores
 * (690–720 → 585–628 ms, medians of five, back to back).
 */
export const CHECK_AFTER_MS = 3_000

// Both failures leave the outbox in memory only (see outbox-keeper.ts), so each notice says that too:
// the person hears one thing about what is not kept, not one notice per part of the app.
const UNSENT_IN_MEMORY = 'Messages you write wait only until the app closes: any not yet sent when you quit will be lost.'

export const OPEN_FAILED_NOTICE = `The messages kept on this device cannot be opened right now, so none are kept this time. ${UNSENT_IN_MEMORY} The app carries on from the service.`

export const WRITE_FAILED_NOTICE = `New messages can no longer be saved on this device (is the disk full?). ${UNSENT_IN_MEMORY} The app carries on from the service.`

type Write = (store: LocalStore) => Promise<void>

/** One account's store: being opened, then open (or not, when it could not be). */
interface Target {
  accountId: string
  /** The store every write queued from now on goes to; another once a damaged one is replaced. */
  opened: Promise<LocalStore | null>
  store: LocalStore | null
  /** What its check found; `whole` when there is nothing to check. */
  checked: Promise<StoreCheck>
  /** Every write since the store began to open, while its check has not answered; null after. */
  writtenUnchecked: Write[] | null
}

export class StoreKeeper {
  readonly #deps: StoreKeeperDependencies
  /** The signed-in account's store; null while nobody is signed in. Each write holds on to the one it was meant for. */
  #target: Target | null = null
  /** The writes not yet asked of the store, one behind another. */
  #writes: Promise<void> = Promise.resolve()
  /** Writes asked of the store and not yet answered. */
  readonly #unanswered = new Set<Promise<void>>()
  #failureTold = false
  /**
   * Per conversation, the newest message known to follow its kept history with nothing between,
   * while push is live: a message pushed (or sent) after it follows it too. Forgotten whenever
   * push drops, since anything may then have been missed until a catch-up reads it.
   */
  readonly #tips = new Map<ConversationId, string>()
  #live = false
  /** The list waiting to be written, and the timer that writes it. */
  #listToKeep: { list: Conversation[]; cancel: () => void } | null = null

  constructor(deps: StoreKeeperDependencies) {
    this.#deps = deps
    deps.flow.on('paged', (page) => this.#keepPage(page))
    deps.flow.on('arrived', ({ message }) => this.#keepArrival(message))
    deps.flow.on('changed', (change) => this.#keepChange(change))
    deps.flow.on('pollUpdated', (poll) => this.#write((store) => store.keepPoll(poll)))
  }

  /** The store in use; null before sign-in, or while it opens. */
  get store(): LocalStore | null {
    return this.#target?.store ?? null
  }

  /**
   * Opens the account's store; resolves with it, or null when it could not be opened at all. What
   * the flow says while it opens waits for it.
   */
  async open(accountId: string): Promise<LocalStore | null> {
    if (this.#target?.accountId === accountId) return this.#target.opened
    const closing = this.close()
    let checked: (check: StoreCheck) => void = () => undefined
    const target: Target = {
      accountId,
      opened: closing.then(() => this.#openStore(target, checked)),
      store: null,
      checked: new Promise((resolve) => (checked = resolve)),
      writtenUnchecked: []
    }
    this.#target = target
    this.#failureTold = false
    return target.opened
  }

  /** Lets go of the store, once every write queued for it (the list waiting too) has landed. */
  async close(): Promise<void> {
    this.#writeList()
    const target = this.#target
    this.#target = null
    this.#tips.clear()
    await this.#writes
    await this.#answered()
    const store = await target?.opened
    await store?.close().catch((error: unknown) => this.#deps.log.warn('could not close the local store', error))
  }

  /** Closes the store and removes everything this device kept of the account. */
  async remove(accountId: string): Promise<void> {
    if (this.#target?.accountId === accountId) await this.close()
    await this.#deps.stores.remove(accountId)
  }

  /** The conversation list as the app shows it now; written a moment later, with whatever came since. */
  keepConversations(list: Conversation[]): void {
    if (this.#listToKeep !== null) {
      this.#listToKeep.list = list
      return
    }
    const cancel = (this.#deps.timers ?? systemTimers).after(LIST_WRITE_DELAY_MS, () => this.#writeList())
    this.#listToKeep = { list, cancel }
  }

  #writeList(): void {
    const waiting = this.#listToKeep
    if (waiting === null) return
    this.#listToKeep = null
    waiting.cancel()
    this.#write((store) => store.keepConversations(waiting.list))
  }

  keepGroup(details: GroupDetails): void {
    this.#write((store) => store.keepGroup(details))
  }

  keepPerson(person: Person): void {
    this.#write((store) => store.keepPerson(person))
  }

  /** Whether push is connected: while it is, what it brings follows what was read before it. */
  pushLive(live: boolean): void {
    this.#live = live
    if (!live) this.#tips.clear()
  }

  /** Resolves once every write queued so far (the list waiting too) has landed, or failed. */
  settled(): Promise<void> {
    this.#writeList()
    return this.historySettled()
  }

  /**
   * Resolves once every write already asked of the store has landed, or failed, leaving the list
   * waiting to be written to its time: a read of a history needs the messages kept a moment ago,
   * not the list, and writing that first (a hundred conversations, on opening one) held it up.
   */
  historySettled(): Promise<void> {
    return this.#writes.then(() => this.#answered())
  }

  /** Resolves once every write asked of the store so far has been answered. */
  async #answered(): Promise<void> {
    while (this.#unanswered.size > 0) await Promise.all([...this.#unanswered])
  }

  #keepPage(page: HistoryPage): void {
    const { conversationId, messages } = page
    const joins =
      page.end === 'older'
        ? { after: null, before: page.before, reachesStart: page.atStart }
        : page.end === 'newer'
          ? { after: page.after, before: null, reachesStart: page.after === null && page.atStart }
          : { after: null, before: null, reachesStart: page.atStart }
    // A catch-up that found nothing newer holds nothing to keep: its one id, `after`, is where
    // what is kept already ends.
    const nothingNewer = page.end === 'newer' && messages.length === 0
    if (!nothingNewer) this.#write((store) => store.keepRun(conversationId, messages, joins))
    // A newest page or a catch-up read while push is live: from here on, push brings what follows,
    // from its newest message, or from where it was read from when it found nothing newer (a
    // history opened from the store and already up to date: what is sent or pushed next follows
    // the kept history as much as after any other read).
    const through = messages.at(-1)?.id ?? (page.end === 'newer' ? page.after : null)
    if (page.end !== 'older' && through !== null && this.#live) this.#advanceTip(conversationId, through)
  }

  #keepArrival(message: Message): void {
    const tip = this.#tips.get(message.conversationId)
    if (this.#live && tip !== undefined && compareIds(message.id, tip) > 0) {
      this.#tips.set(message.conversationId, message.id)
      this.#write((store) => store.keepRun(message.conversationId, [message], { after: tip, before: null, reachesStart: false }))
    } else {
      this.#write((store) => store.keepMessages([message]))
    }
  }

  #keepChange(change: MessageChange): void {
    switch (change.kind) {
      case 'replaced':
        return this.#write((store) => store.keepMessages([change.message]))
      case 'reacted':
        return this.#write((store) => store.changeMessage(change.conversationId, change.messageId, { kind: 'reactions', reactions: change.reactions }))
      case 'pinned': {
        const pinnedAt = change.pinned ? Math.floor(this.#deps.now() / 1000) : null
        return this.#write((store) => store.changeMessage(change.conversationId, change.messageId, { kind: 'pinned', pinnedAt }))
      }
      case 'deleted':
        return this.#write((store) => store.changeMessage(change.conversationId, change.messageId, { kind: 'deleted' }))
    }
  }

  #advanceTip(conversationId: ConversationId, messageId: string): void {
    const tip = this.#tips.get(conversationId)
    if (tip === undefined || compareIds(messageId, tip) > 0) this.#tips.set(conversationId, messageId)
  }

  async #openStore(target: Target, answerCheck: (check: StoreCheck) => void): Promise<LocalStore | null> {
    try {
      const { store, setAside, check } = await this.#deps.stores.open(target.accountId)
      target.store = store
      // Closed while it opened (signed out, say): what was written meanwhile still lands in it, and
      // close() then closes it; nothing is told any more.
      if (setAside !== null && this.#target === target) this.#deps.notice(setAside)
      void (check === undefined ? Promise.resolve<StoreCheck>('whole') : this.#checkLater(target, check)).then(
        (check) => {
          answerCheck(check)
          this.#checked(target, store, check)
        },
        () => answerCheck('whole')
      )
      return store
    } catch (error) {
      answerCheck('whole')
      target.writtenUnchecked = null
      this.#deps.log.error('could not open the local store; messages will not be kept on this device', error)
      if (this.#target === target) this.#deps.notice(OPEN_FAILED_NOTICE)
      return null
    }
  }

  /** Runs the check CHECK_AFTER_MS from now, unless the store has been let go of by then: nothing is left to check. */
  #checkLater(target: Target, check: () => Promise<StoreCheck>): Promise<StoreCheck> {
    return new Promise<void>((resolve) => (this.#deps.timers ?? systemTimers).after(CHECK_AFTER_MS, resolve)).then(() =>
      this.#target === target ? check() : 'whole'
    )
  }

  /**
   * The store's check answered. A damaged store is replaced in turn with the writes: those queued
   * before now land in it first, then the new store receives what it was written since it began to
   * open, and every write after goes to the new one.
   */
  #checked(target: Target, damaged: LocalStore, check: StoreCheck): void {
    const written = target.writtenUnchecked ?? []
    target.writtenUnchecked = null
    if (check === 'whole') return
    const replacing = this.#writes.then(async () => {
      await this.#answered()
      if (this.#target !== target || target.store !== damaged) return
      let replacement: { store: LocalStore; setAside: string }
      try {
        replacement = await this.#deps.stores.replaceDamaged(target.accountId, damaged)
      } catch (error) {
        this.#deps.log.error('could not replace the damaged local store; messages will not be kept on this device', error)
        target.store = null
        target.opened = Promise.resolve(null)
        this.#deps.notice(OPEN_FAILED_NOTICE)
        return
      }
      if (this.#target !== target) {
        await replacement.store.close()
        return
      }
      target.store = replacement.store
      target.opened = Promise.resolve(replacement.store)
      this.#deps.notice(replacement.setAside)
      for (const write of written) await write(replacement.store).catch((error: unknown) => this.#writeFailed(target, error))
      this.#deps.replaced?.()
    })
    this.#writes = replacing
  }

  /**
   * Runs `task` on `accountId`'s store in turn with the writes queued before it, its opening among
   * them; resolves with what it answered, or null when that store is not open by then (none could
   * be, or the account signed out) or the task failed (told as any failed write is).
   */
  inTurn<T>(accountId: string, task: (store: LocalStore) => Promise<T>): Promise<{ value: T } | null> {
    const target = this.#target?.accountId === accountId ? this.#target : null
    const turn = this.#writes.then(async () => {
      const store = target === null ? null : await target.opened
      if (store === null) return null
      try {
        return { value: await task(store) }
      } catch (error) {
        if (target !== null) this.#writeFailed(target, error)
        return null
      }
    })
    this.#writes = turn.then(() => undefined)
    return turn
  }

  #writeFailed(target: Target, error: unknown): void {
    this.#deps.log.error('could not write to the local store', error)
    // A write may fail on the damage the store's check is about to find: that is told as a store
    // set aside, not as a disk that is full.
    void target.checked.then((check) => {
      if (check === 'damaged' || this.#failureTold) return
      this.#failureTold = true
      this.#deps.notice(WRITE_FAILED_NOTICE)
    })
  }

  /** Queues a write into the store of whoever is signed in now, once it is open. */
  #write(write: Write): void {
    const target = this.#target
    if (target === null) return
    target.writtenUnchecked?.push(write)
    this.#writes = this.#writes.then(async () => {
      const store = await target.opened
      if (store === null) return
      // Asked in turn, but its answer not waited for here: the store answers in the order it is
      // asked (its SQL runs in a thread of its own), so whatever is asked of it after finds this
      // written, and the next write need not wait a round trip behind it.
      const answered = write(store).catch((error: unknown) => this.#writeFailed(target, error))
      this.#unanswered.add(answered)
      void answered.then(() => this.#unanswered.delete(answered))
    })
  }
}
