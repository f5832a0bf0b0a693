// What a conversation's history offers beyond its timeline: its pictures, all of them, a stretch
// of it around one message (to open it there), and an export of the whole of it to one file.
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

export const EXPORT_FORMATS = ['html', 'json'] as const
export type ExportFormat = (typeof EXPORT_FORMATS)[number]

export interface ExportProgress {
  exportId: string
  /** Reading what the service has that this device does not keep yet, then writing the file. */
  phase: 'fetching' | 'writing'
  done: number
  /** How many there are in all, when known. */
  total: number | null
}

export type ExportResult =
  /** `toPage`: the file came to the page in `exports:chunk` events, for it to save (browser mode). */
  | { status: 'saved'; fileName: string; messages: number; toPage: boolean }
  /** Cancelled, or no place to save it was chosen. */
  | { status: 'cancelled' }

export interface ExportChunk {
  exportId: string
  text: string
}

export interface OpenAtRequest {
  conversationId: ConversationId
  messageId: string
  /** The oldest message the page shows, which the answer reaches up to; null when it shows none. */
  beforeId: string | null
}
