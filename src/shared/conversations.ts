// The conversations the user is in, as the renderer sees them: the list's entries, with what a group
// lets its members do, a conversation opened with its first page, and who is typing in one. Main
// decodes the service's payloads into these shapes, so the renderer never depends on wire formats.
import type { Mute } from './attention'
import type { ConversationId, ConversationKind } from './conversation-id'
import type { Attachment, MessagePage, PendingMessage } from './messages'

export interface MessagePreview {
  senderName: string
  text: string
  hasAttachments: boolean
  /**
   * What the message carries, where the list can name it ("Sent a picture") when it has no words;
   * absent for anything else, and in lists kept on the device before it was known.
   */
  attachmentKind?: PreviewAttachmentKind
}

export type PreviewAttachmentKind = 'picture' | 'location' | 'poll'

/** A preview of a message with these attachments (the first one the list can name decides). */
export function previewOf(senderName: string, text: string, attachments: readonly Attachment[]): MessagePreview {
  const kind = attachments.map(kindOf).find((found) => found !== undefined)
  return { senderName, text, hasAttachments: attachments.length > 0, ...(kind === undefined ? {} : { attachmentKind: kind }) }
}

function kindOf(attachment: Attachment): PreviewAttachmentKind | undefined {
  switch (attachment.type) {
    case 'image':
    case 'imageLink':
      return 'picture'
    case 'location':
      return 'location'
    case 'poll':
      return 'poll'
    case 'emoji':
      return undefined
  }
}

export interface Conversation {
  id: ConversationId
  kind: ConversationKind
  name: string
  avatarUrl: string | null
  /** Unix seconds of the last message, or of creation when there is none. */
  lastActivityAt: number
  lastMessageId: string | null
  preview: MessagePreview | null
  unreadCount: number
  /** Notifications for this conversation are muted (groups on the service, chats on this device). */
  mute: Mute | null
  /** Your nickname in this group, when the service said it: a mention of it reaches you too. */
  myNickname?: string
  /** Your role in this group, when the service listed its members; chats have none. */
  myRole?: GroupRole
  /** Who may delete messages in this group (`message_deletion_mode`), when the service said; chats always allow the sender. */
  deletionMode?: DeletionActor[]
  /** The group's type (§2.6), when the service said: who may manage it and who may post. */
  groupType?: GroupType
  /** Requests to join waiting for the user's approval, in a group they manage. */
  joinRequestCount?: number
  /**
   * How many messages the conversation has: what the service said when the list was read, with each
   * newer message learnt of since; absent when the service did not say.
   */
  messageCount?: number
}

export interface OpenedConversation extends MessagePage {
  conversation: Conversation
  pending: PendingMessage[]
  /** Where the history's "New messages" divider goes; absent or null when nothing was unread. */
  firstUnreadId?: string | null
}

export type GroupRole = 'owner' | 'admin' | 'user'

/** §2.6: who may manage a group and who may post in it. */
export type GroupType = 'private' | 'closed' | 'announcement'

/** Who a group lets delete a message: its sender, or an admin (or the owner). */
export type DeletionActor = 'sender' | 'admin'

/** Someone is typing in a conversation (§14.3). */
export interface Typist {
  conversationId: ConversationId
  userId: string
  name: string
  /** Unix milliseconds, when they last said so. */
  at: number
}
