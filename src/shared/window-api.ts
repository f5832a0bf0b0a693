// The one contract between the renderer and main. Every channel is named here and nowhere else;
// both transports (Electron IPC and browser mode's WebSocket) carry exactly these.
import type { ConversationId } from './conversation-id'
import type { Conversation, OpenedConversation, Typist } from './conversations'
import type { OutgoingAttachment, UploadProgress, Message, MessagePage, MostLiked, PendingMessage, Reaction, ReactionEmoji } from './messages'
import type { ConfirmCodeResult, PushStatus, SessionState, SignInResult, SignOutResult } from './session'
import type { DesktopState, MuteDuration, PresenceStatus } from './attention'
import type { SettingsChanges } from './settings'
import type { ImageContentType } from './image-files'

import type { NewPoll, Poll, PollPage } from './polls'
import type {
  AddMembersResult,
  FormerGroup,
  FormerMember,
  GroupChanges,
  GroupDetails,
  JoinOutcome,
  JoinRequest,
  MemberCandidate,
  NewGroup,
  PendingJoin
} from './groups'
import type { Account, ProfileChanges, SaveProfileResult, SignedInApp, TextRoute, TwoStepConfirmation } from './account'
import type { BlockedUser, ChatStanding, Contact, ContactCard, ContactImportProgress, ContactImportResult, Person, Profile } from './people'
import type { AddressCheck, ServiceSettings, ServiceSettingsView } from './service-settings'
import type { HistoryDownload, StorageState } from './storage'
import type { ExportChunk, ExportFormat, ExportProgress, ExportResult, OpenAtRequest, PicturePage } from './conversation-files'
import type { MessageSearchRequest, MessageSearchResult } from './search'
import type { Draft, DraftPicture } from './drafts'

type Empty = Record<string, never>

export interface InvokeContract {
  /** The renderer has subscribed to events; main may flush what it queued. */
  'app:ready': { req: Empty; res: null }
  'session:get': { req: Empty; res: SessionState }
  'session:signIn': { req: { username: string; password: string }; res: SignInResult }
  /** Sends (or re-sends) the SMS with the verification code; returns the phone hint. */
  'session:sendCode': { req: Empty; res: { smsHint: string | null } }
  'session:confirmCode': { req: { code: string }; res: ConfirmCodeResult }
  'session:cancelVerification': { req: Empty; res: null }
  /** Refused, with the count, while messages wait unsent, unless `discardUnsent` says to drop them. */
  'session:signOut': { req: { discardUnsent?: boolean | undefined }; res: SignOutResult }
  'conversations:list': { req: Empty; res: Conversation[] }
  /** Loads recent history, marks the conversation read and follows it live. */
  'conversations:open': { req: { conversationId: ConversationId }; res: OpenedConversation }
  'conversations:close': { req: { conversationId: ConversationId }; res: null }
  /** The conversation open when the app last stopped (or the page was last closed), to open again. */
  'conversations:leftOpen': { req: Empty; res: { conversationId: ConversationId | null } }
  'messages:loadOlder': { req: { conversationId: ConversationId; beforeId: string }; res: MessagePage }
  /**
   * The history kept on this device from a little before `messageId` up to just before `beforeId`,
   * in one piece, for the page to join to what it shows and bring the message into view;
   * `found: false` (and no messages) when this device keeps no unbroken stretch from one to the other.
   */
  'conversations:openAt': { req: OpenAtRequest; res: MessagePage & { found: boolean } }
  /** The pictures of the conversation's messages kept on this device, newest first, a page at a time. */
  'conversations:pictures': { req: { conversationId: ConversationId; beforeId: string | null }; res: PicturePage }
  /**
   * Exports the conversation's whole history to one file, first fetching what this device does not
   * keep yet. Progress comes as `exports:progress`; in browser mode the file itself as `exports:chunk`.
   */
  'exports:start': { req: { exportId: string; conversationId: ConversationId; format: ExportFormat }; res: ExportResult }
  /** Stops an export: its `exports:start` then answers cancelled. Nothing happens when it has ended. */
  'exports:cancel': { req: { exportId: string }; res: null }
  'messages:send': {
    req: { conversationId: ConversationId; text: string; clientId: string; attachments?: OutgoingAttachment[] | undefined }
    res: PendingMessage
  }
  /**
   * Uploads a picture to the image service (I1) and answers its URL, for a message to carry.
   * Progress comes as `uploads:progress` events under the same `uploadId`.
   */
  'uploads:start': { req: { uploadId: string; contentType: ImageContentType; bytes: Uint8Array }; res: { url: string } }
  /** Stops an upload: its `uploads:start` then fails. Nothing happens when it has already ended. */
  'uploads:cancel': { req: { uploadId: string }; res: null }
  /** Every conversation's unsent draft, kept on this device (in memory only, when no store is open). */
  'drafts:list': { req: Empty; res: Draft[] }
  /** The conversation's draft as it is now, replacing the one kept; an empty one is forgotten. */
  'drafts:keep': { req: { conversationId: ConversationId; text: string; pictures: DraftPicture[] }; res: null }
  'messages:retry': { req: { conversationId: ConversationId; clientId: string }; res: PendingMessage }
  'messages:discard': { req: { conversationId: ConversationId; clientId: string }; res: null }
  /** Mutes one conversation's notifications: a group's on the service (MU1), a chat's on this device. */
  'conversations:mute': { req: { conversationId: ConversationId; duration: MuteDuration }; res: Conversation }
  'conversations:unmute': { req: { conversationId: ConversationId }; res: Conversation }
  /** Your status, the global mute, the badge count, the settings, and what this host offers. */
  'desktop:get': { req: Empty; res: DesktopState }
  'presence:set': { req: { status: PresenceStatus }; res: DesktopState }
  /** The page saw the user's input: browser mode tells idleness from these (Electron asks the system). */
  'presence:activity': { req: Empty; res: null }
  'notifications:mute': { req: { duration: MuteDuration }; res: DesktopState }
  'notifications:unmute': { req: Empty; res: DesktopState }
  /** Keep full history is changed in Settings ▸ Storage only (`storage:keepFullHistory`), which starts or stops the download with it. */
  'settings:update': { req: { changes: Omit<SettingsChanges, 'keepFullHistory'> }; res: DesktopState }
  'shell:openExternal': { req: { url: string }; res: null }
  /** PL1: the poll's message reaches the conversation as `messages:received` too. */
  'polls:create': { req: { conversationId: ConversationId; poll: NewPoll }; res: Poll }
  'polls:get': { req: { conversationId: ConversationId; pollId: string }; res: Poll }
  /** PL4: replaces the user's earlier votes. */
  'polls:vote': { req: { conversationId: ConversationId; pollId: string; optionIds: string[] }; res: Poll }
  'polls:end': { req: { conversationId: ConversationId; pollId: string }; res: Poll }
  /** PL6: `next` from the page before, or null for the first page. */
  'polls:list': { req: { conversationId: ConversationId; next: string | null }; res: PollPage }
  /** The user typed in the composer; main tells the others at most every 5 s. */
  'typing:typed': { req: { conversationId: ConversationId }; res: null }
  /** RX1: your reaction, replacing any earlier one; answers the message's reactions afterwards. */
  'messages:react': { req: { conversationId: ConversationId; messageId: string; emoji: ReactionEmoji }; res: Reaction[] }
  /** RX2: takes your reaction back. */
  'messages:unreact': { req: { conversationId: ConversationId; messageId: string }; res: Reaction[] }
  /** MS4/C4: your own message, within 15 minutes of sending. */
  'messages:edit': { req: { conversationId: ConversationId; messageId: string; text: string }; res: Message }
  /** MS5: as the conversation's deletion mode allows; the tombstone arrives as `messages:updated`. */
  'messages:delete': { req: { conversationId: ConversationId; messageId: string }; res: null }
  /** MS6/MS7. */
  'messages:setPinned': { req: { conversationId: ConversationId; messageId: string; pinned: boolean }; res: null }
  /** MS8/C5: latest pin first. */
  'messages:pinned': { req: { conversationId: ConversationId }; res: Message[] }
  /** RX3 for each period, RX4 and RX5: groups only. */
  'messages:mostLiked': { req: { conversationId: ConversationId }; res: MostLiked }

  // Groups. `groupId` is a group's conversation id.
  /** G5: the user owns the new group, which joins the list. */
  'groups:create': { req: { group: NewGroup }; res: Conversation }
  /** G4: the group's settings and members, as the user may see them. */
  'groups:get': { req: { groupId: ConversationId }; res: GroupDetails }
  /** G6: all or nothing; a refusal changes nothing. */
  'groups:update': { req: { groupId: ConversationId; changes: GroupChanges }; res: GroupDetails }
  /** G7: the owner only; the group leaves the list. */
  'groups:destroy': { req: { groupId: ConversationId }; res: null }
  /** G10: the owner hands the group to another member, and stays an admin. */
  'groups:transferOwnership': { req: { groupId: ConversationId; userId: string }; res: GroupDetails }
  /** MB4 on the user's own membership; the group leaves the list. */
  'groups:leave': { req: { groupId: ConversationId }; res: null }
  /** G2: the groups the user left, latest first. */
  'groups:former': { req: Empty; res: FormerGroup[] }
  /** G9: back into a group the user left; it joins the list. */
  'groups:rejoin': { req: { groupId: ConversationId }; res: Conversation }
  /**
   * Reads a pasted share link as the app would join through it, sending nothing: refused, saying
   * why, when it is not one of the service's own share links. Answers it as the service writes it.
   */
  'groups:checkLink': { req: { link: string }; res: { link: string } }
  /** G8 through a share link: joined, or a request waiting for approval. Refused as `groups:checkLink` refuses. */
  'groups:join': { req: { link: string; answer: string | null }; res: JoinOutcome }
  /** The user's requests to join that no manager has settled yet, as far as this device knows. */
  'groups:pendingJoins': { req: Empty; res: PendingJoin[] }
  /** Forgets a request this device was waiting on (a refusal is never announced). */
  'groups:forgetPendingJoin': { req: { groupId: ConversationId }; res: PendingJoin[] }
  /** MB1 `inactive`: who left, was removed or banned (admins and the owner only). */
  'members:former': { req: { groupId: ConversationId }; res: FormerMember[] }
  /** MB2, then MB3 until the service has finished: who was added and who could not be. */
  'members:add': { req: { groupId: ConversationId; candidates: MemberCandidate[] }; res: AddMembersResult }
  /** MB4 on someone else. */
  'members:remove': { req: { groupId: ConversationId; membershipId: string }; res: GroupDetails }
  /**
   * Keeps someone out: a member who left, for good (MB7); a current member is removed (MB4), which
   * already bars them from the link and from rejoining. Answers the former members afterwards.
   */
  'members:ban': { req: { groupId: ConversationId; membershipId: string }; res: FormerMember[] }
  /** MB9: the owner makes a member an admin, or an admin a member again. */
  'members:setRole': { req: { groupId: ConversationId; membershipId: string; role: 'admin' | 'user' }; res: GroupDetails }
  /** MB8: the user's own nickname in this group. */
  'members:setNickname': { req: { groupId: ConversationId; nickname: string }; res: GroupDetails }
  /** MB5: requests to join, oldest first. */
  'members:joinRequests': { req: { groupId: ConversationId }; res: JoinRequest[] }
  /** MB6: answers the requests still waiting afterwards. */
  'members:decide': { req: { groupId: ConversationId; membershipId: string; approve: boolean }; res: JoinRequest[] }

  // People, contacts and blocks.
  /** U3 with the shared groups, and whether the user blocked them or keeps them as a contact. */
  'people:profile': { req: { userId: string }; res: Profile }
  /** B3; answers the profile afterwards. */
  'people:block': { req: { userId: string }; res: Profile }
  /** B4; answers the profile afterwards. */
  'people:unblock': { req: { userId: string }; res: Profile }
  /**
   * Whether the user and this person can write to each other, read afresh (U3, and B1 when either
   * blocks the other): a chat with them shows what their profile shows. Changes come as
   * `people:standingChanged`.
   */
  'people:standing': { req: { userId: string }; res: ChatStanding }
  /** B1: oldest first. */
  'people:blocked': { req: Empty; res: BlockedUser[] }
  /** Everyone the user could write to or add: their contacts and the members of their groups, by name. */
  'people:candidates': { req: Empty; res: Person[] }
  /** R1, every page: by when each became a contact. */
  'contacts:list': { req: Empty; res: Contact[] }
  /** R2 from someone's contact link; answers their profile. */
  'contacts:addFromLink': { req: { link: string }; res: Profile }
  /** R3 (1000 cards a request) then R4; progress comes as `contacts:importProgress` under `importId`. */
  'contacts:import': { req: { importId: string; cards: ContactCard[] }; res: ContactImportResult }
  /** R5. */
  'contacts:remove': { req: { userId: string }; res: null }
  /** The user's own contact link, for others to add them. */
  'contacts:myLink': { req: Empty; res: { url: string } }
  /**
   * A direct conversation with this person, to write in: an existing chat, or a new one that joins
   * the list when its first message is sent (C3).
   */
  'chats:start': { req: { userId: string }; res: Conversation }

  // Signing in other ways, and the account.
  /** On the verification screen: sign in by texting the service; main checks (V1) until it has seen it. */
  'session:textInstead': { req: Empty; res: TextRoute }
  /** Stops checking for the text; the verification stays, for another route. */
  'session:cancelTextRoute': { req: Empty; res: null }
  /** A locked or expired verification: signs in again with the same credentials, for a new one. */
  'session:startOver': { req: Empty; res: SignInResult }
  /** U1, as the account's owner sees it. */
  'account:get': { req: Empty; res: Account }
  /** U2; a refusal names the field it is about. */
  'account:updateProfile': { req: { changes: ProfileChanges }; res: SaveProfileResult }
  /** P1: every session of the account ends, this one too, with a notice on the sign-in screen. */
  'account:changePassword': { req: { current: string; next: string }; res: null }
  /** M2 then V2: a code is sent to the account's phone; answers its hint. */
  'security:beginTwoStep': { req: Empty; res: { phoneHint: string | null } }
  /** V3, M3, M4: turns two-step verification on, and main switches to the new token at once. */
  'security:confirmTwoStep': { req: { code: string }; res: TwoStepConfirmation }
  /** Forgets a two-step setup begun and not confirmed. */
  'security:cancelTwoStep': { req: Empty; res: null }
  /** M5. */
  'security:disableTwoStep': { req: Empty; res: Account }
  /** M1: a new backup code, replacing the old one; shown once. */
  'security:newBackupCode': { req: Empty; res: { backupCode: string } }
  /** T1: the account's live tokens, oldest first. */
  'security:signedInApps': { req: Empty; res: SignedInApp[] }
  /** T2: signs that app out; when it was this one, the session ends. Answers the apps still signed in. */
  'security:signOutApp': { req: { id: string }; res: SignedInApp[] }

  // Settings ▸ Service.
  /** The service settings in force, and which of them an environment variable decides. */
  'service:get': { req: Empty; res: ServiceSettingsView }
  /** Test connection: asks each of the six addresses what the service answers, and says what came back; changes nothing. */
  'service:test': { req: { settings: ServiceSettings }; res: AddressCheck[] }
  /**
   * Keeps the settings (those the environment decides stay as they are) and moves the app to them
   * without a restart; the session goes on if that service accepts it, else it ends with a notice.
   */
  'service:save': { req: { settings: ServiceSettings }; res: ServiceSettingsView }

  // Settings ▸ Storage. Progress of the download comes as `storage:progress`.
  /** What is kept on this device and how the download of the rest stands. */
  'storage:get': { req: Empty; res: StorageState }
  /** Turns Keep full history on this device on or off (a setting, kept as the others are). */
  'storage:keepFullHistory': { req: { on: boolean }; res: StorageState }
  /** Pauses the download until `storage:resume`, across restarts too. */
  'storage:pause': { req: Empty; res: StorageState }
  'storage:resume': { req: Empty; res: StorageState }
  /**
   * Deletes the messages this account keeps on this device (what waits to be sent stays); the app
   * reads from the service again, and with Keep full history on, the download starts over.
   */
  'storage:deleteLocalData': { req: Empty; res: StorageState }
  /**
   * Searches the messages kept on this device: newest first, a page at a time (`after`: the page
   * before's `next`), with how the query was read and what was searched.
   */
  'search:messages': { req: MessageSearchRequest; res: MessageSearchResult }
}

/** A notification for the page to show with its own `Notification` API (browser mode only). */
export interface PageNotification {
  /** One per conversation: a newer one replaces the notification shown under the same key. */
  key: string
  conversationId: ConversationId
  title: string
  body: string
  silent: boolean
}

export interface EventContract {
  'session:changed': SessionState
  'conversations:changed': Conversation[]
  /** A message reached a conversation: pushed, caught up after a reconnect, or one of ours accepted. */
  'messages:received': Message
  /** The outbox of one conversation changed: its full list of messages not yet accepted. */
  'outbox:changed': { conversationId: ConversationId; pending: PendingMessage[] }
  'push:status': PushStatus
  /**
   * Whether the app counts as offline: push is not connected and the service cannot be reached (it
   * refused the connection, did not answer, or push has not connected for a few seconds). What the
   * app shows then is what this device keeps. Never true while push is connected.
   */
  'connection:offline': { offline: boolean }
  /** Someone else is typing in the open conversation (they count as stopped 5 s after `at`). */
  'typing:received': Typist
  'uploads:progress': UploadProgress
  /** The user clicked a notification: show this conversation. */
  'conversations:focus': { conversationId: ConversationId }
  'desktop:changed': DesktopState
  /** Browser mode: show this notification (the Electron shell shows its own). */
  'notifications:show': PageNotification
  /** Browser mode: the notification under this key is out of date (its conversation was read). */
  'notifications:close': { key: string }
  /** A message already delivered changed: new reactions, an edit, or its deletion (the tombstone). */
  'messages:updated': Message
  'contacts:importProgress': ContactImportProgress
  /** Main learned that the user and this person can, or can no longer, write to each other. */
  'people:standingChanged': ChatStanding & { userId: string }
  /** Something the person should know about what this device keeps (a store set aside, a full disk). */
  'storage:notice': { text: string }
  /** The download of older history moved on, paused, waited or finished. */
  'storage:progress': HistoryDownload
  'exports:progress': ExportProgress
  /** The next piece of an export's file, in order, for the page to save (browser mode). */
  'exports:chunk': ExportChunk
}

export type InvokeChannel = keyof InvokeContract
export type EventName = keyof EventContract
export type InvokeRequest<C extends InvokeChannel> = InvokeContract[C]['req']
export type InvokeResponse<C extends InvokeChannel> = InvokeContract[C]['res']

/** Main's side of the contract, one handler per channel: a channel without one is a compile error. */
export type InvokeHandlers = {
  [C in InvokeChannel]: (request: InvokeRequest<C>) => Promise<InvokeResponse<C>>
}

export const ERROR_CODES = [
  'UNAUTHENTICATED',
  'FORBIDDEN',
  'NOT_FOUND',
  'VALIDATION',
  'CONFLICT',
  'NETWORK',
  'RATE_LIMITED',
  'INTERNAL'
] as const
export type ErrorCode = (typeof ERROR_CODES)[number]

export interface IpcError {
  code: ErrorCode
  /** In the user's words: what happened and what to do. */
  message: string
}

export type IpcResult<T> = { ok: true; value: T } | { ok: false; error: IpcError }

const invokeChannels = {
  'app:ready': true,
  'polls:create': true,
  'polls:get': true,
  'polls:vote': true,
  'polls:end': true,
  'polls:list': true,
  'typing:typed': true,
  'session:get': true,
  'session:signIn': true,
  'session:sendCode': true,
  'session:confirmCode': true,
  'session:cancelVerification': true,
  'session:signOut': true,
  'conversations:list': true,
  'conversations:open': true,
  'conversations:close': true,
  'conversations:leftOpen': true,
  'messages:loadOlder': true,
  'conversations:openAt': true,
  'conversations:pictures': true,
  'exports:start': true,
  'exports:cancel': true,
  'messages:send': true,
  'uploads:start': true,
  'uploads:cancel': true,
  'drafts:list': true,
  'drafts:keep': true,
  'messages:retry': true,
  'messages:discard': true,
  'conversations:mute': true,
  'conversations:unmute': true,
  'desktop:get': true,
  'presence:set': true,
  'presence:activity': true,
  'notifications:mute': true,
  'notifications:unmute': true,
  'settings:update': true,
  'shell:openExternal': true,
  'messages:react': true,
  'messages:unreact': true,
  'messages:edit': true,
  'messages:delete': true,
  'messages:setPinned': true,
  'messages:pinned': true,
  'messages:mostLiked': true,
  'groups:create': true,
  'groups:get': true,
  'groups:update': true,
  'groups:destroy': true,
  'groups:transferOwnership': true,
  'groups:leave': true,
  'groups:former': true,
  'groups:rejoin': true,
  'groups:checkLink': true,
  'groups:join': true,
  'groups:pendingJoins': true,
  'groups:forgetPendingJoin': true,
  'members:former': true,
  'members:add': true,
  'members:remove': true,
  'members:ban': true,
  'members:setRole': true,
  'members:setNickname': true,
  'members:joinRequests': true,
  'members:decide': true,
  'people:profile': true,
  'people:block': true,
  'people:unblock': true,
  'people:standing': true,
  'people:blocked': true,
  'people:candidates': true,
  'contacts:list': true,
  'contacts:addFromLink': true,
  'contacts:import': true,
  'contacts:remove': true,
  'contacts:myLink': true,
  'chats:start': true,
  'session:textInstead': true,
  'session:cancelTextRoute': true,
  'session:startOver': true,
  'account:get': true,
  'account:updateProfile': true,
  'account:changePassword': true,
  'security:beginTwoStep': true,
  'security:confirmTwoStep': true,
  'security:cancelTwoStep': true,
  'security:disableTwoStep': true,
  'security:newBackupCode': true,
  'security:signedInApps': true,
  'security:signOutApp': true,
  'service:get': true,
  'service:test': true,
  'service:save': true,
  'storage:get': true,
  'storage:keepFullHistory': true,
  'storage:pause': true,
  'storage:resume': true,
  'storage:deleteLocalData': true,
  'search:messages': true
} satisfies Record<InvokeChannel, true>

const eventNames = {
  'session:changed': true,
  'typing:received': true,
  'conversations:changed': true,
  'messages:received': true,
  'outbox:changed': true,
  'push:status': true,
  'connection:offline': true,
  'uploads:progress': true,
  'conversations:focus': true,
  'desktop:changed': true,
  'notifications:show': true,
  'notifications:close': true,
  'messages:updated': true,
  'contacts:importProgress': true,
  'people:standingChanged': true,
  'storage:notice': true,
  'storage:progress': true,
  'exports:progress': true,
  'exports:chunk': true
} satisfies Record<EventName, true>

export const INVOKE_CHANNELS = Object.keys(invokeChannels) as InvokeChannel[]
export const EVENT_NAMES = Object.keys(eventNames) as EventName[]

export function isInvokeChannel(value: unknown): value is InvokeChannel {
  return typeof value === 'string' && Object.hasOwn(invokeChannels, value)
}

export function isEventName(value: unknown): value is EventName {
  return typeof value === 'string' && Object.hasOwn(eventNames, value)
}

/** What the preload exposes as `window.api`, and what browser mode's bridge implements. */
export interface Api {
  invoke<C extends InvokeChannel>(channel: C, request: InvokeRequest<C>): Promise<IpcResult<InvokeResponse<C>>>
  /** Returns a function that removes the listener. */
  on<E extends EventName>(event: E, listener: (payload: EventContract[E]) => void): () => void
}
