// Messages the user has written that the service has not accepted yet. Nothing typed is lost: a
// message stays here, visible, until the service takes it or the user discards it. Each keeps its
// client id as `source_guid` on every attempt, so the service refuses a second copy (409) when an
// earlier attempt did arrive but its answer was lost. The service does so for 60 s only, though
// (§18 #24), and an app stopped or cut off for longer would post the message twice: so before it
// sends again a message whose earlier attempt may have arrived, the outbox looks for it in the
// conversation's history.
import { type ConversationId, conversationKind } from '@shared/conversation-id'
import type { Message, PendingMessage, SendableAttachment } from '@shared/messages'
import { MAX_ATTACHMENTS } from '@shared/limits'
import { errorCodeOf, toIpcError, userMessageFor } from './failures'
import { AppError } from './app-error'
import type { TimelineService } from './ports'
import { RetryTimer } from './retry-timer'

export interface OutboxDependencies {
  /** Posts the message to the service and returns it as stored. */
  deliver(pending: PendingMessage): Promise<Message>
  /** The service had already stored this message: find it, so it shows up once. */
  recoverDelivered(pending: PendingMessage): Promise<void>
  /** Where a message whose answer was lost is looked for before it is sent again. */
  history: Pick<TimelineService, 'latestMessages' | 'messagesBefore'>
  delivered(message: Message, pending: PendingMessage): void
  changed(conversationId: ConversationId, pending: PendingMessage[]): void
  /**
   * Keeps the outbox across restarts: every message still waiting, after each change. Resolves once
   * it is kept (or could not be: the keeper says so itself); a new message shows only after that.
   */
  save(all: PendingMessage[]): Promise<void> | void
  /** Who the user writes to in a chat, to say who refused a message; undefined when not known. */
  chatPartnerName?(conversationId: ConversationId): string | undefined
  /**
   * Why core will not send this message, in the user's words (to someone they block, say); null
   * to send it. Asked before every attempt, so a reason that has gone lets a retry through.
   */
  refusal?(pending: PendingMessage): Promise<string | null>
  /**
   * A group refused a message: it became an announcement group or the user lost their role, which
   * the service announces to nobody (§14.5). Reads the group again so the list, and the composer
   * it decides, catch up.
   */
  groupRefused?(conversationId: ConversationId): Promise<void>
}

/** First and longest wait before messages that failed for want of the service are sent again. */
const FIRST_RETRY_MS = 2_000
const LONGEST_RETRY_MS = 60_000

/**
 * How far back the history is read for a message that may have arrived: to a little before it was
 * written, as far as the service's clock can be behind ours, in pages of the largest size MS1
 * serves, and never more than so many pages (past them it is sent again, and only the 60 s of
 * refusal guard it).
 */
const CLOCK_SLACK_MS = 15 * 60_000
const HISTORY_PAGE = 100
const HISTORY_PAGES = 10

interface Entry {
  message: PendingMessage
  /**
   * Failed only because the service was out of reach, or the session had ended: it goes again
   * by itself when the service is back or the user has signed in again.
   */
  waitingForService: boolean
  /**
   * An attempt may have reached the service without its answer reaching us (lost on the way, or
   * the app stopped first): the message is looked for on the service before it goes again.
   */
  mayHaveArrived: boolean
}

export class Outbox {
  readonly #deps: OutboxDependencies
  readonly #entries = new Map<string, Entry>()
  /** Attempts in one conversation run one after another, so messages arrive in the order written. */
  readonly #queues = new Map<ConversationId, Promise<void>>()
  /**
   * Besides every reconnect of push, messages waiting for the service go again on a timer: the
   * service can be back (and the first attempt fail on a connection it closed) with push never
   * having noticed it was gone.
   */
  readonly #retry = new RetryTimer({ firstMs: FIRST_RETRY_MS, longestMs: LONGEST_RETRY_MS }, () => this.resume())
  /** Stopped (shutdown, sign-out): an attempt that fails afterwards must not set the timer again. */
  #stopped = false
  /** The last save asked for; saves land in the order asked, so this one landing means all have. */
  #lastSave: Promise<void> = Promise.resolve()

  constructor(deps: OutboxDependencies) {
    this.#deps = deps
  }

  /**
   * Brings back what was still unsent when the app last stopped; it goes out when the service
   * answers. A message the outbox holds already is left as it is.
   */
  restore(saved: PendingMessage[]): void {
    for (const message of saved) {
      if (this.#entries.has(message.clientId)) continue
      // It was being sent, or had failed, when the app stopped: whether it got there is not known.
      this.#entries.set(message.clientId, {
        message: { ...message, state: 'failed', error: 'Not sent yet. It will be sent when the service is reachable.' },
        waitingForService: true,
        mayHaveArrived: true
      })
    }
    for (const conversationId of new Set(saved.map((message) => message.conversationId))) this.#announce(conversationId)
  }

  /** How many messages wait, in every conversation. */
  get size(): number {
    return this.#entries.size
  }

  pendingIn(conversationId: ConversationId): PendingMessage[] {
    return [...this.#entries.values()]
      .map((entry) => entry.message)
      .filter((message) => message.conversationId === conversationId)
      .sort((a, b) => a.queuedAt - b.queuedAt)
  }

  /** Takes a message to send: text, pictures already uploaded (their URLs), or both. */
  enqueue(conversationId: ConversationId, text: string, clientId: string, attachments: SendableAttachment[] = []): PendingMessage {
    if (text.trim() === '' && attachments.length === 0) throw new AppError('VALIDATION', 'Write something before sending.')
    if (attachments.length > MAX_ATTACHMENTS) {
      throw new AppError('VALIDATION', `A message can carry at most ${MAX_ATTACHMENTS} attachments.`)
    }
    const existing = this.#entries.get(clientId)
    if (existing) return existing.message
    const message: PendingMessage = {
      clientId,
      conversationId,
      text,
      ...(attachments.length === 0 ? {} : { attachments }),
      queuedAt: Date.now(),
      state: 'sending',
      error: null
    }
    this.#entries.set(clientId, { message, waitingForService: false, mayHaveArrived: false })
    this.#stopped = false
    // On disk before anything shows it as waiting, or sends it: whatever happens next, it is kept.
    const show = (): void => {
      this.#announce(conversationId, false)
      this.#attempt(clientId)
    }
    this.#save().then(show, show)
    return message
  }

  /** Resolves once every change so far is kept (or failed to be: the keeper tells that itself). */
  saved(): Promise<void> {
    return this.#lastSave
  }

  /** The message as it stands now, while it waits; undefined once it has gone. */
  waiting(clientId: string): PendingMessage | undefined {
    return this.#entries.get(clientId)?.message
  }

  retry(conversationId: ConversationId, clientId: string): PendingMessage {
    const entry = this.#entryIn(conversationId, clientId)
    this.#stopped = false
    if (entry.message.state === 'failed') this.#attempt(clientId)
    return entry.message
  }

  discard(conversationId: ConversationId, clientId: string): void {
    const entry = this.#entryIn(conversationId, clientId)
    if (entry.message.state === 'sending') {
      throw new AppError('CONFLICT', 'This message is being sent right now. Wait a moment.')
    }
    this.#entries.delete(clientId)
    this.#announce(conversationId)
  }

  /** The service is reachable again, or the user is signed in again: send what was waiting for that, oldest first. */
  resume(): void {
    this.#stopped = false
    const waiting = [...this.#entries.values()]
      .filter((entry) => entry.waitingForService && entry.message.state === 'failed')
      .sort((a, b) => a.message.queuedAt - b.message.queuedAt)
    for (const entry of waiting) this.#attempt(entry.message.clientId)
  }

  /**
   * A message came from the service (pushed, say): when it is one still waiting here under its
   * client id, an attempt got there though its answer was lost, and the copy waiting goes now
   * rather than on the next attempt, so the message does not show twice, once as not sent. The
   * client id is a random one of ours that no one else knows before the service has our message.
   */
  arrived(message: Message): void {
    const entry = this.#entries.get(message.sourceGuid)
    if (entry === undefined || entry.message.conversationId !== message.conversationId) return
    this.#remove(entry.message)
  }

  /** Someone else signed in: these messages belong to the account that wrote them. */
  clear(): void {
    this.#forget(true)
  }

  /**
   * The account signed out: what waits is kept where it was saved (that account's store), to go
   * out when it signs in again, and is no longer the app's to show or send.
   */
  release(): void {
    this.#forget(false)
  }

  #forget(save: boolean): void {
    this.stop()
    const conversations = new Set([...this.#entries.values()].map((entry) => entry.message.conversationId))
    this.#entries.clear()
    for (const conversationId of conversations) this.#announce(conversationId, save)
  }

  /** Cancels the timed retry (shutdown); what is waiting stays, for `resume`. */
  stop(): void {
    this.#stopped = true
    this.#retry.cancel()
  }

  #entryIn(conversationId: ConversationId, clientId: string): Entry {
    const entry = this.#entries.get(clientId)
    if (!entry || entry.message.conversationId !== conversationId) {
      throw new AppError('NOT_FOUND', 'That message is no longer waiting to be sent.')
    }
    return entry
  }

  /** Sends the message, after whatever was written before it in its conversation and still waits for the service. */
  #attempt(clientId: string): void {
    const entry = this.#entries.get(clientId)
    if (!entry) return
    for (const earlier of this.#waitingBefore(entry.message)) this.#queue(earlier)
    this.#queue(entry)
  }

  #queue(entry: Entry): void {
    const { clientId, conversationId } = entry.message
    this.#update(entry, { state: 'sending', error: null }, false)
    const previous = this.#queues.get(conversationId) ?? Promise.resolve()
    const next = previous.then(() => this.#send(clientId))
    this.#queues.set(conversationId, next)
    void next.finally(() => {
      if (this.#queues.get(conversationId) === next) this.#queues.delete(conversationId)
    })
  }

  async #send(clientId: string): Promise<void> {
    const entry = this.#entries.get(clientId)
    if (!entry) return
    const pending = entry.message
    const [blocking] = this.#waitingBefore(pending)
    if (blocking) {
      // An earlier message is still waiting for the service: this one waits with it, to arrive after it.
      this.#update(entry, { state: 'failed', error: blocking.message.error }, true)
      return
    }
    try {
      const arrived = entry.mayHaveArrived ? await this.#storedCopyOf(pending) : undefined
      const refused = arrived === undefined ? ((await this.#deps.refusal?.(pending)) ?? null) : null
      if (refused !== null) {
        this.#update(entry, { state: 'failed', error: refused }, false)
        return
      }
      const message = arrived ?? (await this.#deps.deliver(pending))
      this.#retry.succeeded()
      // The sent message shows before its pending copy goes, so it never blinks out of view.
      this.#deps.delivered(message, pending)
      this.#remove(pending)
    } catch (error) {
      const code = errorCodeOf(error)
      if (code === 'CONFLICT') {
        // An earlier attempt reached the service; only its answer went missing.
        this.#remove(pending)
        await this.#deps.recoverDelivered(pending).catch(() => undefined)
        return
      }
      if (!this.#entries.has(clientId)) return
      if (code === 'NETWORK') entry.mayHaveArrived = true
      this.#update(entry, { state: 'failed', error: this.#failureText(error, pending.conversationId) }, code === 'NETWORK' || code === 'UNAUTHENTICATED')
      if (code === 'NETWORK') this.#scheduleRetry()
      if (code === 'FORBIDDEN' && conversationKind(pending.conversationId) === 'group') {
        await this.#deps.groupRefused?.(pending.conversationId).catch(() => undefined)
      }
    }
  }

  /**
   * The message as the service stored it, when an earlier attempt got there unseen; undefined when
   * it is not in the history. Only a failure to reach the service (or a refused session) counts as
   * the attempt failing: any other refusal of the history is left for the send to meet and word.
   */
  async #storedCopyOf(pending: PendingMessage): Promise<Message | undefined> {
    const { history } = this.#deps
    const writtenAt = (pending.queuedAt - CLOCK_SLACK_MS) / 1000
    try {
      let page = await history.latestMessages(pending.conversationId, HISTORY_PAGE)
      for (let read = 1; ; read += 1) {
        const found = page.find((message) => message.sourceGuid === pending.clientId)
        if (found !== undefined) return found
        const oldest = page[0]
        if (oldest === undefined || page.length < HISTORY_PAGE || oldest.createdAt < writtenAt || read === HISTORY_PAGES) return undefined
        page = await history.messagesBefore(pending.conversationId, oldest.id, HISTORY_PAGE)
      }
    } catch (error) {
      const code = errorCodeOf(error)
      if (code === 'NETWORK' || code === 'UNAUTHENTICATED') throw error
      return undefined
    }
  }

  #failureText(error: unknown, conversationId: ConversationId): string {
    // In a chat the one refusal there is (C3's 403) is the other person having blocked the user.
    if (errorCodeOf(error) === 'FORBIDDEN' && conversationKind(conversationId) === 'dm') {
      const name = this.#deps.chatPartnerName?.(conversationId) ?? 'This person'
      return `Not sent: ${name} is not accepting messages from you.`
    }
    // In a group, MS2's 403 is the user not being a poster: only admins write in an announcement group.
    if (errorCodeOf(error) === 'FORBIDDEN' && conversationKind(conversationId) === 'group') {
      return 'Not sent: only admins can write in this group now.'
    }
    return failureText(error)
  }

  /** The messages written before this one in its conversation that failed only for want of the service, oldest first. */
  #waitingBefore(message: PendingMessage): Entry[] {
    // In the order written: by when Send was pressed, and in the order kept for a tie (the sort is stable).
    const conversation = [...this.#entries.values()]
      .filter((entry) => entry.message.conversationId === message.conversationId)
      .sort((a, b) => a.message.queuedAt - b.message.queuedAt)
    const position = conversation.findIndex((entry) => entry.message.clientId === message.clientId)
    return conversation.slice(0, Math.max(position, 0)).filter((entry) => entry.waitingForService && entry.message.state === 'failed')
  }

  #scheduleRetry(): void {
    if (!this.#stopped) this.#retry.schedule()
  }


  #update(entry: Entry, change: Pick<PendingMessage, 'state' | 'error'>, waitingForService: boolean): void {
    entry.message = { ...entry.message, ...change }
    entry.waitingForService = waitingForService
    this.#announce(entry.message.conversationId)
  }

  #remove(pending: PendingMessage): void {
    // Gone already when the message came back (`arrived`) before its own answer did.
    if (!this.#entries.delete(pending.clientId)) return
    this.#announce(pending.conversationId)
  }

  #announce(conversationId: ConversationId, save = true): void {
    this.#deps.changed(conversationId, this.pendingIn(conversationId))
    if (save) void this.#save()
  }

  #save(): Promise<void> {
    const saving = Promise.resolve(this.#deps.save([...this.#entries.values()].map((entry) => entry.message))).catch(() => undefined)
    this.#lastSave = saving
    return saving
  }
}

function failureText(error: unknown): string {
  const code = errorCodeOf(error)
  if (code === 'NETWORK') {
    // The connection words a failure of its own that is worth trying again (a redirect) with what to do about it.
    const { message } = toIpcError(error)
    if (message !== userMessageFor('NETWORK')) return `Not sent: ${message} It will be sent when the service answers.`
    return 'Not sent: the service is out of reach. It will be sent when it is back.'
  }
  if (code === 'UNAUTHENTICATED') return 'Not sent: your session ended. It will be sent when you sign in again.'
  if (code === 'FORBIDDEN') return 'Not sent: you cannot post in this conversation.'
  if (code === 'VALIDATION') return 'Not sent: the service refused this message.'
  return `Not sent: ${toIpcError(error).message}`
}
