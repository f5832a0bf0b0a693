// The app's own model of the service, as the renderer sees it. Main decodes the service's payloads
// into these shapes, so the renderer never depends on wire formats.

/** A group id, or a chat id `"<lo>+<hi>"` for a direct-message conversation. */
export type ConversationId = string

export type ConversationKind = 'group' | 'dm'

export interface Me {
  id: string
  name: string
  avatarUrl: string | null
}

export interface MessagePreview {
  senderName: string
  text: string
  hasAttachments: boolean
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
}

export type Attachment =
  | { type: 'image'; url: string }
  | { type: 'location'; lat: string; lng: string; name: string }
  | { type: 'emoji'; placeholder: string; charmap: [number, number][] }
  | { type: 'poll'; pollId: string }

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
  deleted: boolean
}

/** A message the user wrote that the service has not yet accepted. */
export interface PendingMessage {
  /** Also the `source_guid` sent to the service, so a retry can never post twice. */
  clientId: string
  conversationId: ConversationId
  text: string
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

export interface OpenedConversation extends MessagePage {
  conversation: Conversation
  pending: PendingMessage[]
}

export type PushStatus = 'offline' | 'connecting' | 'connected' | 'reconnecting'

export interface VerificationChallenge {
  /** Last digits of the phone the SMS goes to, when the service tells them. */
  smsHint: string | null
}

export type SessionState =
  | { status: 'signedOut'; notice: string | null }
  | { status: 'verifying'; challenge: VerificationChallenge }
  | { status: 'signedIn'; me: Me }

export type SignInResult =
  | { status: 'signedIn'; me: Me }
  | { status: 'verificationRequired'; challenge: VerificationChallenge }

export type ConfirmCodeResult =
  | { status: 'signedIn'; me: Me }
  | { status: 'wrongCode'; remainingAttempts: number }
