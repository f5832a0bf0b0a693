// Messages as the renderer sees them: what they carry, the pages a history comes in, what waits in
// the outbox, what a system message announces, reactions, and pictures on their way to the image
// service. Main decodes the service's payloads into these shapes, so the renderer never depends on
// wire formats.
import type { ConversationId } from './conversation-id'

export type Attachment =
  | { type: 'image'; url: string }
  /**
   * A picture the page does not load, its origin being neither the image service's nor a listed
   * picture origin: its address, shown as a link the person may open in their browser. Main makes
   * these of image attachments on their way to the page (core/page-pictures.ts); the service never
   * sends one, and no message is sent with one.
   */
  | { type: 'imageLink'; url: string }
  | { type: 'location'; lat: string; lng: string; name: string }
  | { type: 'emoji'; placeholder: string; charmap: [number, number][] }
  | { type: 'poll'; pollId: string }

/** A picture a message carries, at the URL the image service stored it under. */
export type ImageAttachment = Extract<Attachment, { type: 'image' }>

/** A place a message carries: its name (possibly empty) and coordinates in decimal degrees. */
export type LocationAttachment = Extract<Attachment, { type: 'location' }>

/** What the page may hand main to send with a message: pictures already uploaded, and places. */
export type OutgoingAttachment = ImageAttachment | LocationAttachment

/** A picture a message carries that the page shows as a link, never loads. */
export type ImageLinkAttachment = Extract<Attachment, { type: 'imageLink' }>

/** What a message the user sends may carry: a picture, a location, emoji; a poll only the service makes. */
export type SendableAttachment = Exclude<Attachment, { type: 'poll' | 'imageLink' }>

export interface Message {
  id: string
  conversationId: ConversationId
  sourceGuid: string
  senderId: string
  senderName: string
  senderAvatarUrl: string | null
  text: string
  attachments: Attachment[]
  /** Unix seconds. */
  createdAt: number
  /** System messages (joins, pins, renames…) are set apart in the view. */
  system: boolean
  /** For a system message about people (added, removed, joined…), who it is about; empty otherwise. */
  aboutUserIds: string[]
  deleted: boolean
  /** What a system message (or a poll's own message) announces, with the names it carries; absent otherwise. */
  event?: MessageEvent
  /** Everyone's reactions, one entry per emoji in the order they first appeared; absent reads as none. */
  reactions?: Reaction[]
  /** Unix seconds of the last edit, when the message was edited. */
  editedAt?: number
  /** Unix seconds of the pin, while the message is pinned. */
  pinnedAt?: number
}

/** A message the user wrote that the service has not yet accepted. */
export interface PendingMessage {
  /** Also the `source_guid` sent to the service, so a retry can never post twice. */
  clientId: string
  conversationId: ConversationId
  text: string
  /** Pictures (already uploaded) it carries; absent reads as none. */
  attachments?: SendableAttachment[]
  /** Unix milliseconds, when the user pressed Send. */
  queuedAt: number
  state: 'sending' | 'failed'
  /** Why the last attempt failed, in the user's words. */
  error: string | null
}

export interface MessagePage {
  /** Oldest first. */
  messages: Message[]
  hasOlder: boolean
}

/**
 * What a system message announces, names already read from it. `pinned` names nobody: the service
 * says only who pinned by id, and its own text carries the name.
 */
export type MessageEvent =
  | { kind: 'joined'; user: string }
  | { kind: 'rejoined'; user: string }
  | { kind: 'added'; users: string[]; by: string }
  | { kind: 'removed'; user: string; by: string }
  | { kind: 'left'; user: string }
  | { kind: 'nicknameChanged'; from: string; to: string }
  | { kind: 'pinned'; pinned: boolean }
  | { kind: 'pollCreated'; pollId: string; subject: string }
  | { kind: 'pollFinished'; pollId: string; subject: string }

// Reactions, edits, deletes and pins.

/** The emoji the service accepts as reactions (docs/protocol.md §12), in the order the picker shows them. */
export const REACTION_EMOJI = ['👍', '❤️', '🤣', '🎉', '🔥', '😮', '👀', '😭', '🥺', '🙏', '💀', '🫶', '🤬', '💅', '🫠'] as const
export type ReactionEmoji = (typeof REACTION_EMOJI)[number]

/** Everyone who reacted to a message with one emoji, in the order they did. */
export interface Reaction {
  emoji: string
  userIds: string[]
}

export type LikePeriod = 'day' | 'week' | 'month'

/** A group's Most liked panel: RX3 for each period, what you reacted to (RX4), and your messages others liked (RX5). */
export interface MostLiked {
  day: Message[]
  week: Message[]
  month: Message[]
  mine: Message[]
  forMe: Message[]
}

// Pictures on their way to the image service.

/** How far one upload has gone: main sends one whenever another percent has been handed over. */
export interface UploadProgress {
  uploadId: string
  sentBytes: number
  totalBytes: number
}
