// What a conversation's history offers beyond its timeline: its pictures, all of them, and a
// stretch of it around one message, to open it there.
import type { ConversationId } from './conversation-id'

/** One picture of a message kept on this device. */
export interface ConversationPicture {
  messageId: string
  /** Where the page loads it from: the image service's address, or this device's for a kept copy. */
  url: string
  senderName: string
  /** Unix seconds. */
  createdAt: number
}

export interface PicturePage {
  /** Newest first. */
  pictures: ConversationPicture[]
  /** Pass back as `beforeId` for the next page; null on the last one. */
  next: string | null
}

export interface OpenAtRequest {
  conversationId: ConversationId
  messageId: string
  /** The oldest message the page shows, which the answer reaches up to; null when it shows none. */
  beforeId: string | null
}
