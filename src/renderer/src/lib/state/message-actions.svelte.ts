// What the user does to messages of the open conversation: react, edit, delete and pin. The
// service's answer is shown at once; the pushes that follow (messages:updated) say the same again.
import type { Message, ReactionEmoji } from '@shared/messages'
import { canEdit } from '@shared/message-permissions'
import { call, messageOf } from '../main-process'
import type { ConversationViewModel } from './conversation-view.svelte'

/** What a deleted message shows until its tombstone arrives (the service's own tombstone text). */
const TOMBSTONE_TEXT = 'This message was deleted'

export class MessageActionsModel {
  /** The message being edited in the composer, with the text as the user is changing it. */
  editing = $state<{ messageId: string; text: string } | null>(null)
  editError = $state<string | null>(null)
  saving = $state(false)
  /** Why the last reaction, deletion or pin was refused. */
  error = $state<string | null>(null)

  readonly #viewOf: () => ConversationViewModel
  readonly #meId: () => string

  constructor(view: () => ConversationViewModel, meId: () => string) {
    this.#viewOf = view
    this.#meId = meId
  }

  get #view(): ConversationViewModel {
    return this.#viewOf()
  }

  /** Chooses `emoji`; choosing the user's own reaction again takes it back (RX2). */
  async toggleReaction(message: Message, emoji: ReactionEmoji | string): Promise<void> {
    const mine = message.reactions?.find((reaction) => reaction.userIds.includes(this.#meId()))
    await this.#act(async () => {
      const conversationId = message.conversationId
      const reactions =
        mine?.emoji === emoji
          ? await call('messages:unreact', { conversationId, messageId: message.id })
          : await call('messages:react', { conversationId, messageId: message.id, emoji: emoji as ReactionEmoji })
      this.#view.update({ ...this.#current(message), reactions })
    })
  }

  startEdit(message: Message): void {
    this.editing = { messageId: message.id, text: message.text }
    this.editError = null
  }

  /** ↑ in an empty Message box: edits the user's newest message shown that can still be edited; false when there is none. */
  editNewest(nowSeconds = Math.floor(Date.now() / 1000)): boolean {
    const meId = this.#meId()
    const newest = this.#view.messages.findLast((message) => canEdit(message, meId, nowSeconds))
    if (newest === undefined) return false
    this.startEdit(newest)
    return true
  }

  cancelEdit(): void {
    this.editing = null
    this.editError = null
  }

  /** Saves the edit; a refusal keeps the text in the composer with the reason. */
  async saveEdit(): Promise<void> {
    const editing = this.editing
    const conversationId = this.#view.conversationId
    if (editing === null || conversationId === null || this.saving) return
    this.saving = true
    this.editError = null
    try {
      const edited = await call('messages:edit', { conversationId, messageId: editing.messageId, text: editing.text })
      this.#view.update(edited)
      if (this.editing?.messageId === editing.messageId) this.editing = null
    } catch (error) {
      this.editError = messageOf(error)
    } finally {
      this.saving = false
    }
  }

  async delete(message: Message): Promise<void> {
    await this.#act(async () => {
      await call('messages:delete', { conversationId: message.conversationId, messageId: message.id })
      const { reactions: _reactions, pinnedAt: _pinnedAt, ...rest } = this.#current(message)
      this.#view.update({ ...rest, deleted: true, text: TOMBSTONE_TEXT, attachments: [] })
    })
  }

  async setPinned(message: Message, pinned: boolean): Promise<void> {
    await this.#act(async () => {
      await call('messages:setPinned', { conversationId: message.conversationId, messageId: message.id, pinned })
      const { pinnedAt: _pinnedAt, ...rest } = this.#current(message)
      this.#view.update(pinned ? { ...rest, pinnedAt: Math.floor(Date.now() / 1000) } : rest)
    })
  }

  /** Forgets what belonged to the conversation that was open. */
  reset(): void {
    this.editing = null
    this.editError = null
    this.error = null
  }

  async #act(work: () => Promise<void>): Promise<void> {
    this.error = null
    try {
      await work()
    } catch (error) {
      this.error = messageOf(error)
    }
  }

  /** The message as the view has it now: a push may have changed it since the button was drawn. */
  #current(message: Message): Message {
    return this.#view.messages.find((shown) => shown.id === message.id) ?? message
  }
}
