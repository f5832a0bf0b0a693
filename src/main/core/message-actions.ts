// What the user does to a message already in a conversation (react, edit, delete, pin) and the
// lists built from those (pins, most liked). The service decides who may do what; here its
// refusals are put in the user's words, and a pin that was already made counts as made.
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Message, MostLiked, Reaction } from '@shared/messages'
import { EDIT_WINDOW_SECONDS } from '@shared/message-permissions'
import { AppError } from './app-error'
import { errorCodeOf } from './failures'
import type { MessageChange } from './message-flow'
import type { MessageActionService } from './ports'

export interface MessageActionsDependencies {
  service: MessageActionService
  /** The conversation the user names, or an AppError when it is not theirs. */
  conversation: (conversationId: ConversationId) => Conversation
  /** What the service accepted, to go where pushed changes go (the message flow). */
  changed: (change: MessageChange) => void
}

/** What the service's refusal of each action means for the user, where it can mean one thing only. */
const REFUSALS = {
  edit: `This message can no longer be edited: only your own messages can be, for ${EDIT_WINDOW_SECONDS / 60} minutes after sending.`,
  delete: 'You cannot delete this message: this conversation does not let you.',
  react: 'That reaction is not one the service accepts.'
} as const

export class MessageActions {
  readonly #deps: MessageActionsDependencies

  constructor(deps: MessageActionsDependencies) {
    this.#deps = deps
  }

  async react(conversationId: ConversationId, messageId: string, emoji: string): Promise<Reaction[]> {
    this.#deps.conversation(conversationId)
    const reactions = await refused(this.#deps.service.react(conversationId, messageId, emoji), 'VALIDATION', REFUSALS.react)
    this.#deps.changed({ kind: 'reacted', conversationId, messageId, reactions })
    return reactions
  }

  async unreact(conversationId: ConversationId, messageId: string): Promise<Reaction[]> {
    this.#deps.conversation(conversationId)
    const reactions = await this.#deps.service.unreact(conversationId, messageId)
    this.#deps.changed({ kind: 'reacted', conversationId, messageId, reactions })
    return reactions
  }

  async edit(conversationId: ConversationId, messageId: string, text: string): Promise<Message> {
    this.#deps.conversation(conversationId)
    const edited = await refused(this.#deps.service.editMessage(conversationId, messageId, text), 'FORBIDDEN', REFUSALS.edit)
    this.#deps.changed({ kind: 'replaced', message: edited })
    return edited
  }

  async delete(conversationId: ConversationId, messageId: string): Promise<void> {
    this.#deps.conversation(conversationId)
    await refused(this.#deps.service.deleteMessage(conversationId, messageId), 'FORBIDDEN', REFUSALS.delete)
    this.#deps.changed({ kind: 'deleted', conversationId, messageId })
  }

  /**
   * Pins or unpins. The service refuses to pin what is pinned (or unpin what is not) with a 400;
   * someone else may just have done it, and the user's wish holds either way.
   */
  async setPinned(conversationId: ConversationId, messageId: string, pinned: boolean): Promise<void> {
    this.#deps.conversation(conversationId)
    try {
      await this.#deps.service.setPinned(conversationId, messageId, pinned)
    } catch (error) {
      if (errorCodeOf(error) !== 'VALIDATION') throw error
    }
    this.#deps.changed({ kind: 'pinned', conversationId, messageId, pinned })
  }

  async pinned(conversationId: ConversationId): Promise<Message[]> {
    this.#deps.conversation(conversationId)
    return this.#deps.service.pinnedMessages(conversationId)
  }

  async mostLiked(conversationId: ConversationId): Promise<MostLiked> {
    const conversation = this.#deps.conversation(conversationId)
    if (conversation.kind !== 'group') throw new AppError('VALIDATION', 'Most liked is shown for groups only.')
    const { service } = this.#deps
    const [day, week, month, mine, forMe] = await Promise.all([
      service.mostLiked(conversationId, 'day'),
      service.mostLiked(conversationId, 'week'),
      service.mostLiked(conversationId, 'month'),
      service.likedByMe(conversationId),
      service.likedForMe(conversationId)
    ])
    return { day, week, month, mine, forMe }
  }
}

/** `work`, with a refusal of `code` reworded as `message`: the service's own words stay in the cause. */
async function refused<T>(work: Promise<T>, code: 'FORBIDDEN' | 'VALIDATION', message: string): Promise<T> {
  try {
    return await work
  } catch (error) {
    if (errorCodeOf(error) === code) throw new AppError(code, message, { cause: error })
    throw error
  }
}
