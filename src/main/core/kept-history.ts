// What the page reads of a conversation's history as this device keeps it, beyond its pages: every
// picture of it, and a stretch of it around one message (to open the conversation there).
import type { ConversationId } from '@shared/conversation-id'
import type { ConversationPicture, OpenAtRequest, PicturePage } from '@shared/conversation-files'
import type { MessagePage } from '@shared/messages'
import type { LocalStore } from './ports'

/** Messages with pictures read at once for the Pictures grid: a few screens of thumbnails. */
export const PICTURE_PAGE = 60
/** How many older messages come with one opened at, so it shows in its context. */
export const OPEN_AT_CONTEXT = 25

export class KeptHistory {
  readonly #store: () => LocalStore | null

  /** `store`: the signed-in account's store; null while there is none. */
  constructor(store: () => LocalStore | null) {
    this.#store = store
  }

  /** The conversation's pictures kept here, newest first, from the message before `beforeId` (null: the newest). */
  async pictures(conversationId: ConversationId, beforeId: string | null): Promise<PicturePage> {
    const store = this.#store()
    if (store === null) return { pictures: [], next: null }
    const messages = await store.pictureMessages(conversationId, beforeId, PICTURE_PAGE)
    const pictures = messages.flatMap((message) =>
      message.attachments.flatMap((attachment): ConversationPicture[] =>
        attachment.type === 'image' ? [{ messageId: message.id, url: attachment.url, senderName: message.senderName, createdAt: message.createdAt }] : []
      )
    )
    return { pictures, next: messages.length === PICTURE_PAGE ? (messages.at(-1)?.id ?? null) : null }
  }

  /** The kept stretch from a little before the message up to what the page shows; `found: false` when there is none. */
  async openAt({ conversationId, messageId, beforeId }: OpenAtRequest): Promise<MessagePage & { found: boolean }> {
    const stretch = (await this.#store()?.stretchFrom(conversationId, messageId, beforeId, OPEN_AT_CONTEXT)) ?? null
    if (stretch === null) return { found: false, messages: [], hasOlder: false }
    return { found: true, messages: stretch.messages, hasOlder: stretch.older !== 'none' }
  }
}
