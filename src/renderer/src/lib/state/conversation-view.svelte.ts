// The open conversation: its history, older pages on demand, live arrivals and the user's own
// messages that main has not yet had accepted (the outbox).
import { type ConversationId, compareIds } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Message, MessagePage, OutgoingAttachment, PendingMessage } from '@shared/messages'
import type { MuteDuration } from '@shared/attention'
import type { InvokeResponse } from '@shared/window-api'
import { call, listen, messageOf } from '../main-process'
import { mergeMessages, withArrival } from '../merge-messages'
import { RetryWhenBack } from '../retry-when-back'
import type { AttachmentDrafts } from './attachment-drafts.svelte'
import { DraftsModel } from './drafts.svelte'

/**
 * An older page goes on top. It is older than everything shown, unless messages arrived while it
 * was on its way: joining by concatenation then spares sorting thousands of messages per page.
 */
function prependOlder(page: Message[], shown: Message[]): Message[] {
  const newestOfPage = page.at(-1)
  const oldestShown = shown[0]
  if (newestOfPage === undefined || oldestShown === undefined) return mergeMessages(page, shown)
  const inOrder = newestOfPage.createdAt < oldestShown.createdAt || (newestOfPage.createdAt === oldestShown.createdAt && compareIds(newestOfPage.id, oldestShown.id) < 0)
  return inOrder ? [...page, ...shown] : mergeMessages(page, shown)
}

/** The most older pages an opening reads on its way to the first unread message. */
const UNREAD_PAGES = 5

export class ConversationViewModel {
  conversationId = $state<ConversationId | null>(null)
  conversation = $state<Conversation | null>(null)
  /**
   * Replaced, never changed in place: raw, so that thousands of messages are not each wrapped in a
   * proxy the first time something reads them.
   */
  messages = $state.raw<Message[]>([])
  hasOlder = $state(false)
  status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle')
  error = $state<string | null>(null)
  loadingOlder = $state(false)
  olderError = $state<string | null>(null)
  /** Where the "New messages" divider goes: the first message that was unread when the conversation opened. */
  firstUnreadId = $state<string | null>(null)
  /**
   * A message the history is asked to scroll to and focus (see `jumpTo`). A new object each time,
   * so asking twice for the same message scrolls to it twice.
   */
  focusRequest = $state<{ messageId: string } | null>(null)
  /** Why the last mute or unmute was refused. */
  muteError = $state<string | null>(null)
  #pending = $state<PendingMessage[]>([])

  /**
   * Main drops a pending message once the service accepted it, but the accepted message and the
   * outbox update are separate events: hide the pending copy as soon as either arrives.
   */
  pending: PendingMessage[] = $derived.by(() => {
    return this.#pending.filter((p) => !this.messages.some((m) => m.sourceGuid === p.clientId))
  })

  /** Unsent text and pictures per conversation, so switching away, reloading or restarting loses nothing. */
  readonly drafts = new DraftsModel()

  /** The older page on its way, which a second caller waits for rather than asking again. */
  #olderLoad: Promise<void> | null = null
  /** An open, or an older page, that failed for want of the service goes again once it is back. */
  readonly #openWhenBack = new RetryWhenBack(() => void this.retryOpen())
  readonly #olderWhenBack = new RetryWhenBack(() => void this.loadOlder())

  /** Arrivals while `conversations:open` is in flight, merged once its page is in. */
  #early: Message[] = []
  /**
   * New copies of messages not shown while a page is on its way (main checks a page it served from
   * its store against the service, and may say so before the page is in): applied once it is.
   */
  #earlyUpdates: Message[] = []
  /** An outbox update while opening is newer than the outbox the open call read. */
  #earlyPending: PendingMessage[] | null = null

  get draft(): string {
    return this.drafts.text(this.conversationId)
  }

  set draft(text: string) {
    this.drafts.setText(this.conversationId, text)
  }

  /** The open conversation's waiting pictures. */
  get pictures(): AttachmentDrafts {
    return this.drafts.pictures(this.conversationId)
  }

  listen(): () => void {
    const stops = [
      this.drafts.listen(),
      listen('messages:received', (message) => this.#receive(message)),
      listen('messages:updated', (message) => this.update(message)),
      listen('outbox:changed', ({ conversationId, pending }) => {
        if (conversationId !== this.conversationId) return
        if (this.status === 'loading') this.#earlyPending = pending
        else this.#pending = pending
      })
    ]
    return () => stops.forEach((stop) => stop())
  }

  /** Resolves with the opened conversation, or `null` when it failed or another was opened meanwhile. */
  async open(id: ConversationId): Promise<Conversation | null> {
    const previous = this.conversationId
    if (previous !== null) this.drafts.flush(previous)
    if (previous !== null && previous !== id) void call('conversations:close', { conversationId: previous }).catch(() => {})
    this.conversationId = id
    this.conversation = null
    this.messages = []
    this.#pending = []
    this.hasOlder = false
    this.firstUnreadId = null
    this.focusRequest = null
    this.muteError = null
    return this.#load(id)
  }

  /**
   * Opens the conversation again after it failed: by Try again, or by itself once the service is
   * back. What the user wrote meanwhile stays in view while it loads.
   */
  async retryOpen(): Promise<Conversation | null> {
    const id = this.conversationId
    if (id === null || this.status === 'loading') return null
    return this.#load(id)
  }

  async #load(id: ConversationId): Promise<Conversation | null> {
    this.#early = []
    this.#earlyUpdates = []
    this.#earlyPending = null
    this.olderError = null
    this.#olderLoad = null
    this.#openWhenBack.cancel()
    this.#olderWhenBack.cancel()
    this.status = 'loading'
    this.error = null
    try {
      const opened = await call('conversations:open', { conversationId: id })
      if (this.conversationId !== id) return null
      const firstUnreadId = opened.firstUnreadId ?? null
      const page = await this.#reaching(id, firstUnreadId, opened)
      if (this.conversationId !== id) return null
      this.conversation = opened.conversation
      this.messages = this.#withEarlyUpdates(mergeMessages(page.messages, this.#early))
      this.#early = []
      this.hasOlder = page.hasOlder
      this.firstUnreadId = firstUnreadId
      this.#pending = this.#earlyPending ?? opened.pending
      this.#earlyPending = null
      this.status = 'ready'
      return opened.conversation
    } catch (error) {
      if (this.conversationId === id) {
        this.#earlyUpdates = []
        this.status = 'error'
        this.error = messageOf(error)
        // Meanwhile an outbox update is the newest word on what waits to be sent.
        if (this.#earlyPending !== null) this.#pending = this.#earlyPending
        this.#earlyPending = null
        this.#openWhenBack.failed(error)
      }
      return null
    }
  }

  /**
   * The opening page with older messages put on top until it holds the first unread one, so the
   * history opens at its "New messages" divider however many came since the user last looked (a
   * bounded number: main counts no further back). From this device's store in one step when it
   * keeps the stretch, else page by page; when a page fails, what was loaded stands, and
   * `Jump to first unread` tries again later.
   */
  async #reaching(id: ConversationId, messageId: string | null, page: MessagePage): Promise<MessagePage> {
    const has = (messages: Message[]) => messages.some((message) => message.id === messageId)
    if (messageId === null || !page.hasOlder || has(page.messages)) return page
    const beforeId = page.messages[0]?.id ?? null
    const stretch = await call('conversations:openAt', { conversationId: id, messageId, beforeId }).catch(() => null)
    if (this.conversationId !== id) return page
    if (stretch?.found === true) return { messages: prependOlder(stretch.messages, page.messages), hasOlder: stretch.hasOlder }
    let reached = page
    for (let pages = 0; pages < UNREAD_PAGES && reached.hasOlder && !has(reached.messages); pages++) {
      const oldest = reached.messages[0]
      if (oldest === undefined) break
      const older = await call('messages:loadOlder', { conversationId: id, beforeId: oldest.id }).catch(() => null)
      if (older === null || this.conversationId !== id) break
      reached = { messages: prependOlder(older.messages, reached.messages), hasOlder: older.hasOlder }
    }
    return reached
  }

  close(): void {
    this.#openWhenBack.cancel()
    this.#olderWhenBack.cancel()
    const id = this.conversationId
    if (id !== null) this.drafts.flush(id)
    this.conversationId = null
    this.conversation = null
    this.messages = []
    this.#pending = []
    this.status = 'idle'
    if (id !== null) void call('conversations:close', { conversationId: id }).catch(() => {})
  }

  /** Another user signed in: nothing the previous one typed may show for them. */
  forgetDrafts(): void {
    this.drafts.forget()
  }

  loadOlder(): Promise<void> {
    if (this.#olderLoad !== null) return this.#olderLoad
    const load = this.#loadOlderPage().finally(() => {
      if (this.#olderLoad === load) this.#olderLoad = null
    })
    this.#olderLoad = load
    return load
  }

  /**
   * Loads older pages until the message is in, then asks the history to scroll to it and focus it.
   * Resolves false when the history has no such message or a page could not be loaded (`olderError` says why).
   */
  async jumpTo(messageId: string): Promise<boolean> {
    const id = this.conversationId
    while (this.conversationId === id && !this.messages.some((message) => message.id === messageId)) {
      if (!this.hasOlder || this.status !== 'ready') return false
      await this.loadOlder()
      if (this.olderError !== null) return false
    }
    if (this.conversationId !== id) return false
    this.focusRequest = { messageId }
    return true
  }

  /**
   * Brings one of the open conversation's messages into view, highlighted and focused, however far
   * back it is: in one step from this device's store when it keeps the whole stretch from a little
   * before the message up to what is shown, else page by page as `jumpTo` does. What is shown stays
   * joined to the newest messages, so `Jump to latest` and new arrivals work as ever.
   * Resolves false when the message could not be reached.
   */
  async openAt(messageId: string): Promise<boolean> {
    const id = this.conversationId
    if (id === null || this.status !== 'ready') return false
    if (this.#olderLoad !== null) await this.#olderLoad
    if (this.conversationId !== id) return false
    if (!this.messages.some((message) => message.id === messageId)) {
      const beforeId = this.messages[0]?.id ?? null
      // Not kept here, or main could not read it: page by page from the service instead.
      const stretch: InvokeResponse<'conversations:openAt'> | null = await call('conversations:openAt', { conversationId: id, messageId, beforeId }).catch(() => null)
      if (this.conversationId !== id) return false
      // Joined only if nothing older came in meanwhile: the stretch reaches up to what was shown then.
      if (stretch === null || !stretch.found || this.messages[0]?.id !== (beforeId ?? undefined)) return this.jumpTo(messageId)
      this.messages = this.#withEarlyUpdates(prependOlder(stretch.messages, this.messages))
      this.hasOlder = stretch.hasOlder
    }
    this.focusRequest = { messageId }
    return true
  }

  async #loadOlderPage(): Promise<void> {
    const id = this.conversationId
    const oldest = this.messages[0]
    if (id === null || !oldest || !this.hasOlder || this.status !== 'ready') return
    this.loadingOlder = true
    this.olderError = null
    try {
      const page = await call('messages:loadOlder', { conversationId: id, beforeId: oldest.id })
      if (this.conversationId !== id) return
      this.messages = this.#withEarlyUpdates(prependOlder(page.messages, this.messages))
      this.hasOlder = page.hasOlder
    } catch (error) {
      this.#earlyUpdates = []
      if (this.conversationId === id) {
        this.olderError = messageOf(error)
        this.#olderWhenBack.failed(error)
      }
    } finally {
      this.loadingOlder = false
    }
  }

  /**
   * Mutes the open conversation's notifications, or with `null` unmutes them. Resolves with the
   * conversation as main now has it, or `null` when main refused (and nothing changed).
   */
  async setMute(duration: MuteDuration | null): Promise<Conversation | null> {
    const id = this.conversationId
    if (id === null) return null
    this.muteError = null
    try {
      const updated =
        duration === null
          ? await call('conversations:unmute', { conversationId: id })
          : await call('conversations:mute', { conversationId: id, duration })
      if (this.conversationId === id) this.conversation = updated
      return updated
    } catch (error) {
      if (this.conversationId === id) this.muteError = messageOf(error)
      return null
    }
  }

  /**
   * Hands the text to main's outbox. Throws when main did not take it, so the composer keeps the text.
   */
  async send(text: string, attachments: OutgoingAttachment[] = []): Promise<void> {
    const id = this.conversationId
    if (id === null) throw new Error('No conversation is open.')
    const pending = await call('messages:send', {
      conversationId: id,
      text,
      clientId: crypto.randomUUID(),
      ...(attachments.length === 0 ? {} : { attachments })
    })
    if (this.conversationId === id) this.#upsertPending(pending)
  }

  async retry(clientId: string): Promise<void> {
    const id = this.conversationId
    if (id === null) return
    try {
      const pending = await call('messages:retry', { conversationId: id, clientId })
      if (this.conversationId === id) this.#upsertPending(pending)
    } catch (error) {
      this.#markFailed(clientId, messageOf(error))
    }
  }

  async discard(clientId: string): Promise<void> {
    const id = this.conversationId
    if (id === null) return
    try {
      await call('messages:discard', { conversationId: id, clientId })
      if (this.conversationId === id) this.#pending = this.#pending.filter((p) => p.clientId !== clientId)
    } catch (error) {
      this.#markFailed(clientId, messageOf(error))
    }
  }

  /** A message already shown changed (its reactions, an edit, its deletion, a pin): shows it as it now is. */
  update(message: Message): void {
    if (message.conversationId !== this.conversationId) return
    if (!this.messages.some((shown) => shown.id === message.id)) {
      if (this.status === 'loading' || this.loadingOlder) this.#earlyUpdates.push(message)
      return
    }
    this.messages = this.messages.map((shown) => (shown.id === message.id ? message : shown))
  }

  #withEarlyUpdates(messages: Message[]): Message[] {
    const updates = this.#earlyUpdates
    if (updates.length === 0) return messages
    this.#earlyUpdates = []
    // The last said of each message is its newest copy.
    return messages.map((shown) => updates.findLast((update) => update.id === shown.id) ?? shown)
  }

  #receive(message: Message): void {
    if (message.conversationId !== this.conversationId) return
    if (this.status === 'loading') {
      this.#early.push(message)
      return
    }
    if (this.status !== 'ready') return
    this.messages = withArrival(this.messages, message)
    this.#pending = this.#pending.filter((p) => p.clientId !== message.sourceGuid)
  }

  #upsertPending(pending: PendingMessage): void {
    // It may already have been accepted (the message arrived before this reply did).
    if (this.messages.some((m) => m.sourceGuid === pending.clientId)) return
    const others = this.#pending.filter((p) => p.clientId !== pending.clientId)
    this.#pending = [...others, pending].toSorted((a, b) => a.queuedAt - b.queuedAt)
  }

  #markFailed(clientId: string, error: string): void {
    this.#pending = this.#pending.map((p) => (p.clientId === clientId ? { ...p, state: 'failed', error } : p))
  }
}
