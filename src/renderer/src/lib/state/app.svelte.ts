// The renderer's composition root: one instance of each concern, and the few rules that join them.
import { conversationKind, type ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Me } from '@shared/session'
import type { MuteDuration } from '@shared/attention'
import { reportActivity } from '../activity-reporter'
import { call, listen } from '../main-process'
import type { TextPart } from '../given-text'
import { ConnectionModel } from './connection.svelte'
import { ConversationViewModel } from './conversation-view.svelte'
import { ConversationsModel } from './conversations.svelte'
import { DesktopModel } from './desktop.svelte'
import { PageNotificationsModel } from './page-notifications.svelte'
import { SessionModel } from './session.svelte'
import { StorageNoticesModel } from './storage-notices.svelte'

export class AppModel {
  readonly session = new SessionModel({ onUserChange: (me) => this.#followUser(me) })
  readonly connection = new ConnectionModel()
  readonly conversations = new ConversationsModel()
  readonly view = new ConversationViewModel()
  readonly desktop = new DesktopModel()
  readonly notifications = new PageNotificationsModel({ open: (id) => void this.openConversation(id) })
  /** What main says about what this device keeps, until dismissed. */
  readonly storageNotices = new StorageNoticesModel()
  /** A word on why the open conversation closed (the user left a group, or is no longer in it). */
  notice = $state<readonly TextPart[] | null>(null)
  #stops: (() => void)[] = []
  /** Whose drafts the view holds: the last user who was signed in. */
  #draftsOf: string | null = null
  /** The conversation left open at the last stop, until it opens again or the person opens another. */
  #leftOpen: ConversationId | null = null

  /** Subscribes to every event, then tells main it may deliver what it queued, then loads. */
  async start(): Promise<void> {
    this.#stops = [
      this.session.listen(),
      this.connection.listen(),
      this.view.listen(),
      this.desktop.listen(),
      this.notifications.listen(),
      this.storageNotices.listen(),
      listen('conversations:changed', (list) => this.#followList(list)),
      listen('conversations:focus', ({ conversationId }) => void this.openConversation(conversationId)),
      // Only browser mode tells idleness from these; Electron asks the system and ignores them.
      reportActivity({ report: () => void call('presence:activity', {}).catch(() => {}) })
    ]
    // Main holds events until this call; a failure here leaves nothing better to do than go on.
    await call('app:ready', {}).catch(() => {})
    await Promise.all([this.session.load(), this.desktop.load()])
  }

  stop(): void {
    for (const stop of this.#stops) stop()
    this.#stops = []
  }

  async openConversation(id: ConversationId): Promise<void> {
    if (this.conversations.selectedId === id && this.view.conversationId === id) return
    this.notice = null
    this.conversations.select(id)
    const opened = await this.view.open(id)
    if (opened) this.conversations.update(opened)
  }

  /**
   * Opens a conversation at one of its messages, loaded in context, highlighted and focused.
   * Resolves false when the message could not be reached.
   */
  async openAt(id: ConversationId, messageId: string): Promise<boolean> {
    await this.openConversation(id)
    if (this.view.conversationId !== id) return false
    return this.view.openAt(messageId)
  }

  /** Shows no conversation: the open one is gone (the user left or deleted the group), with why. */
  closeConversation(notice: readonly TextPart[] | null = null): void {
    this.view.close()
    this.conversations.select(null)
    this.notice = notice
  }

  /** Mutes (or with `null` unmutes) the open conversation; the list shows it as soon as main agrees. */
  async muteOpenConversation(duration: MuteDuration | null): Promise<void> {
    const updated = await this.view.setMute(duration)
    if (updated) this.conversations.update(updated)
  }

  openLink(url: string): void {
    void call('shell:openExternal', { url }).catch(() => {})
  }

  /**
   * A new list. An open group that is not in it any more has gone for the user: they were removed,
   * left from another device, or it was deleted, and the service does not say which (a deleted
   * group answers 404 like one the user is out of). It closes rather than staying on screen as it
   * was. A chat never does: one just started is a draft, listed only once it has messages.
   */
  #followList(list: Conversation[]): void {
    const openId = this.view.conversationId
    const name = this.conversations.selected?.name ?? this.view.conversation?.name ?? 'this group'
    this.conversations.replace(list)
    this.#reopenIfListed()
    if (openId === null || conversationKind(openId) !== 'group' || list.some((conversation) => conversation.id === openId)) return
    this.closeConversation([{ given: name }, ' was deleted, or you are no longer in it.'])
  }

  /**
   * Signing in loads the list; signing out (or being signed out) closes what we showed. Drafts
   * outlive a sign-out, which is often just an expired session: the same user signing back in
   * finds what they were typing. Only a different user signing in forgets them.
   */
  #followUser(me: Me | null): void {
    this.view.close()
    this.conversations.clear()
    this.#leftOpen = null
    if (me === null) return
    if (this.#draftsOf !== null && this.#draftsOf !== me.id) this.view.forgetDrafts()
    this.#draftsOf = me.id
    // What main keeps from before a reload or a restart.
    void this.view.drafts.load()
    void this.conversations.list.load().then(() => this.#reopenIfListed())
    void this.#askLeftOpen()
  }

  /** Which conversation was open when the app last stopped (or the page was reloaded), to open again. */
  async #askLeftOpen(): Promise<void> {
    this.#leftOpen = null
    const { conversationId } = await call('conversations:leftOpen', {}).catch(() => ({ conversationId: null }))
    this.#leftOpen = conversationId
    this.#reopenIfListed()
  }

  /**
   * The conversation left open opens again as soon as the list holds it (from the store at a start,
   * before the service answers), unless the person has opened one first.
   */
  #reopenIfListed(): void {
    const conversationId = this.#leftOpen
    if (conversationId === null) return
    if (this.conversations.selectedId !== null || this.view.conversationId !== null) {
      this.#leftOpen = null
      return
    }
    if (!this.conversations.list.value.some((conversation) => conversation.id === conversationId)) return
    this.#leftOpen = null
    void this.openConversation(conversationId)
  }
}
