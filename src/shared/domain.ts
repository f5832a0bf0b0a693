// The app's own model of the service, as the renderer sees it. Main decodes the service's payloads
// into these shapes, so the renderer never depends on wire formats.
import type { TextRoute } from './account'

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
}

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

export interface OpenedConversation extends MessagePage {
  conversation: Conversation
  pending: PendingMessage[]
  /** Where the history's "New messages" divider goes; absent or null when nothing was unread. */
  firstUnreadId?: string | null
}

export type PushStatus = 'offline' | 'connecting' | 'connected' | 'reconnecting'

export interface VerificationChallenge {
  /** Last digits of the phone the SMS goes to, when the service tells them. */
  smsHint: string | null
  /** While the user signs in by texting the service instead. */
  textRoute?: TextRoute | null
  /** The verification cannot succeed any more (locked after wrong codes, or expired): offer a fresh start. */
  spent?: 'locked' | 'expired' | null
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

// The desktop half of the app: your own status, mute, settings and the badge. Main keeps it and
// sends it whole whenever any of it changes; the tray and the in-app menus both show and drive it.

/** Your own status. The service has no presence, so it lives on this device only. */
export type PresenceStatus = 'active' | 'away' | 'dnd'

/** How long a mute lasts, as the user chose it. `untilTomorrow` ends at the next 08:00 local time. */
export type MuteDuration = 'oneHour' | 'eightHours' | 'untilTomorrow' | 'untilTurnedOn'

/** A mute in force: `until` is Unix milliseconds, or null for "until I turn it back on". */
export interface Mute {
  until: number | null
}

export type AutoAwayMinutes = 0 | 5 | 10 | 30
export type ThemeChoice = 'system' | 'light' | 'dark'

export interface Settings {
  desktopNotifications: boolean
  sound: boolean
  /** Off: notifications say who wrote, not what ("New message from Grace"). */
  showMessageText: boolean
  /** Minutes without input before the status turns Away by itself; 0 never does. */
  autoAwayMinutes: AutoAwayMinutes
  /** Closing the window leaves the app running in the tray (where there is one). */
  keepRunningInTray: boolean
  startAtLogin: boolean
  theme: ThemeChoice
}

/** What a new install starts from; main reads stored settings over these (core/settings.ts). */
export const DEFAULT_SETTINGS: Settings = {
  desktopNotifications: true,
  sound: true,
  showMessageText: true,
  autoAwayMinutes: 10,
  keepRunningInTray: true,
  startAtLogin: false,
  theme: 'system'
}

/** Some settings to change; the others stay as they are. */
export type SettingsChanges = { [K in keyof Settings]?: Settings[K] | undefined }

export interface DesktopState {
  status: PresenceStatus
  /** Away came from idleness, not from the user: any activity brings Active back. */
  statusIsAutomatic: boolean
  /** The global notification mute, or null. */
  mute: Mute | null
  /** Unread messages in conversations that are not muted: what the badge shows. */
  unreadCount: number
  settings: Settings
  /** What this host has: a tray to keep running in, a way to start at login. */
  host: { tray: boolean; startAtLogin: boolean }
}

// Polls, typing and system messages.

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

export interface PollVoter {
  id: string
  /** Their nickname in the group, or empty when the group no longer lists them. */
  name: string
}

export interface PollOption {
  id: string
  title: string
  votes: number
  /** Who chose it: public polls only, empty on anonymous ones. */
  voters: PollVoter[]
}

export interface Poll {
  id: string
  conversationId: ConversationId
  subject: string
  ownerId: string
  /** Unix seconds; an ended poll's is when it ended. */
  expiresAt: number
  ended: boolean
  multiple: boolean
  anonymous: boolean
  options: PollOption[]
  /** The option ids the user chose, ascending; empty before they vote. */
  myVotes: string[]
  /** The user owns the poll, or administers the group (PL5). */
  canEnd: boolean
}

export interface NewPoll {
  subject: string
  /** 2–10 titles, in order. */
  options: string[]
  multiple: boolean
  anonymous: boolean
  /** Unix seconds, in the future. */
  expiresAt: number
}

export interface PollPage {
  /** Newest first. */
  polls: Poll[]
  /** Pass back for the next page; null on the last one. */
  next: string | null
}

/** Someone is typing in a conversation (§14.3). */
export interface Typist {
  conversationId: ConversationId
  userId: string
  name: string
  /** Unix milliseconds, when they last said so. */
  at: number
}

// Reactions, edits, deletes and pins.

/** The emoji the service accepts as reactions (docs/protocol.md §12), in the order the picker shows them. */
export const REACTION_EMOJI = ['👍', '❤️', '🤣', '🎉', '🔥', '😮', '👀', '😭', '🥺', '🙏', '💀', '🫶', '🤬', '💅', '🫠'] as const
export type ReactionEmoji = (typeof REACTION_EMOJI)[number]

/** Everyone who reacted to a message with one emoji, in the order they did. */
export interface Reaction {
  emoji: string
  userIds: string[]
}

export type GroupRole = 'owner' | 'admin' | 'user'

/** §2.6: who may manage a group and who may post in it. */
export type GroupType = 'private' | 'closed' | 'announcement'

/** Who a group lets delete a message: its sender, or an admin (or the owner). */
export type DeletionActor = 'sender' | 'admin'

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
