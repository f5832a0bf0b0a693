// Everything core needs from outside it, in one place: the service it talks to, and the platform
// it runs on. The composition roots (`src/main/index.ts` for Electron, `browser/app.ts` for
// browser mode) build the real ones: the service connection in `service/`, the platform adapters
// in `desktop/` or `browser/`. Tests pass in-memory fakes. Core imports none of those folders.
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation, Typist } from '@shared/conversations'
import type { LikePeriod, Message, PendingMessage, Reaction, SendableAttachment } from '@shared/messages'
import type { NewPoll, Poll, PollPage } from '@shared/polls'
import type { Me, PushStatus } from '@shared/session'
import type { DesktopState, Mute, PresenceStatus } from '@shared/attention'
import type { ImageContentType } from '@shared/image-files'
import type { Contact, ContactCard, Person, Profile } from '@shared/people'
import type { Account, SignedInApp } from '@shared/account'
import type {
  FormerGroup,
  FormerMember,
  GroupChanges,
  GroupDetails,
  JoinRequest,
  Member,
  MemberCandidate,
  NewGroup,
  PendingJoin
} from '@shared/groups'
import type { EventContract, EventName } from '@shared/window-api'
import type { AddressCheck, ServiceSettings, ServiceSettingsView } from '@shared/service-settings'
import type { IssuedToken } from '@shared/token-issuer'
import type { ProfileChanges, ProfileField } from '@shared/account'
import type { SearchHit } from '@shared/search'
import type { Draft } from '@shared/drafts'

// The service. Every call fails with an AppError whose code says what went wrong (`NETWORK` when
// the service is out of reach), never with an error type of the transport underneath.

export type LoginOutcome =
  /** The token comes with the addresses the sign-in went to: those that issued it. */
  | { kind: 'token'; token: IssuedToken; me: Me }
  | { kind: 'verification'; verificationId: string; smsHint: string | null; textRoute: TextRouteAddress | null }

/** Where to text, and what, to verify by texting the service; the verification carries both. */
export interface TextRouteAddress {
  systemNumber: string
  longPin: string
}

/** Signing in and out. */
export interface SessionService {
  login(request: { username: string; password: string; deviceId: string; verificationCode?: string }): Promise<LoginOutcome>
  /** V1; fails NOT_FOUND once the verification is unknown or expired. */
  readVerification(verificationId: string): Promise<{ verified: boolean; textRoute: TextRouteAddress | null }>
  sendSmsCode(verificationId: string): Promise<{ smsHint: string | null }>
  confirmCode(verificationId: string, code: string): Promise<{ verified: true } | { verified: false; remainingAttempts: number }>
  /** Who the current token belongs to. */
  me(): Promise<Me>
  /** T3 at the deployment that issued `token`, whichever the app points at now. */
  revokeToken(token: IssuedToken): Promise<void>
}

/** The conversation list. */
export interface ConversationService {
  /** Every group the user is in and every chat they have, with no unread counts yet. */
  listConversations(): Promise<Conversation[]>
  /** Up to `limit` messages newer than `afterId`, oldest first. */
  messagesAfter(conversationId: ConversationId, afterId: string, limit: number): Promise<Message[]>
}

/** The history of one conversation. */
export interface TimelineService {
  /** The newest `limit` messages, oldest first. */
  latestMessages(conversationId: ConversationId, limit: number): Promise<Message[]>
  /** Up to `limit` messages older than `beforeId`, oldest first. */
  messagesBefore(conversationId: ConversationId, beforeId: string, limit: number): Promise<Message[]>
  /** Up to `limit` messages newer than `afterId`, oldest first. */
  messagesAfter(conversationId: ConversationId, afterId: string, limit: number): Promise<Message[]>
}

/** Muting a group on the service, for the account (chats are muted on this device). */
export interface GroupMuteService {
  /**
   * Mutes for `durationMs` from now, or with no end when null. A duration rather than an end, so
   * the service's clock and core's need not agree (core's is the one the user sees, and tests set it).
   */
  muteGroup(groupId: ConversationId, durationMs: number | null): Promise<void>
  unmuteGroup(groupId: ConversationId): Promise<void>
}

/** What the user does to one message: react, edit, delete, pin; and the lists of pins and likes. */
export interface MessageActionService {
  /** RX1: answers the message's reactions afterwards. */
  react(conversationId: ConversationId, messageId: string, emoji: string): Promise<Reaction[]>
  /** RX2. */
  unreact(conversationId: ConversationId, messageId: string): Promise<Reaction[]>
  /** MS4 or C4: the message as edited. */
  editMessage(conversationId: ConversationId, messageId: string, text: string): Promise<Message>
  /** MS5. */
  deleteMessage(conversationId: ConversationId, messageId: string): Promise<void>
  /** MS6 or MS7. */
  setPinned(conversationId: ConversationId, messageId: string, pinned: boolean): Promise<void>
  /** MS8 or C5: latest pin first. */
  pinnedMessages(conversationId: ConversationId): Promise<Message[]>
  /** RX3. */
  mostLiked(groupId: ConversationId, period: LikePeriod): Promise<Message[]>
  /** RX4. */
  likedByMe(groupId: ConversationId): Promise<Message[]>
  /** RX5. */
  likedForMe(groupId: ConversationId): Promise<Message[]>
}

/** Polls in groups (PL1–PL6), each answered as the user sees it. */
export interface PollService {
  /** PL1: the poll and its message in the group. */
  createPoll(groupId: ConversationId, poll: NewPoll): Promise<{ poll: Poll; message: Message }>
  /** PL2. */
  poll(groupId: ConversationId, pollId: string): Promise<Poll>
  /** PL4: replaces the user's earlier votes. */
  vote(groupId: ConversationId, pollId: string, optionIds: string[]): Promise<Poll>
  /** PL5. */
  endPoll(groupId: ConversationId, pollId: string): Promise<Poll>
  /** PL6: `next` from the page before, or null for the first. */
  polls(groupId: ConversationId, next: string | null): Promise<PollPage>
}

/** One page of the user's contacts (R1), oldest first; `next` continues after its last, null when it is empty. */
export interface ContactPage {
  contacts: Contact[]
  next: string | null
}

/** Other users: profiles (U3), blocks (B1, B3, B4), contacts (R1–R5) and the user's own contact link. */
export interface PeopleService {
  /** U3 with the groups both are in. Whether the user blocks them is for `blocks()` to say: U3 does not. */
  profile(userId: string): Promise<Omit<Profile, 'blockedByMe'>>
  /** U3 without the groups: who someone is, by name and avatar. */
  person(userId: string): Promise<Person>
  /** B1: whom the user blocks, oldest first; `blockedAt` in Unix seconds. */
  blocks(): Promise<{ userId: string; blockedAt: number }[]>
  /** B3: blocking someone already blocked changes nothing. */
  block(userId: string): Promise<void>
  /** B4: NOT_FOUND when there is no such block. */
  unblock(userId: string): Promise<void>
  /** R1: the contacts made after `after` (a page's `next`; null for the first page). */
  contactsAfter(after: string | null): Promise<ContactPage>
  /** R2, with the token of that user's contact link. */
  addContact(userId: string, token: string): Promise<void>
  /** R3: at most 1000 cards, each with a `guid` that R4 answers its match under; answers the batch id. */
  importContacts(cards: (ContactCard & { guid: string })[]): Promise<string>
  /** R4: the cards of a batch that matched an account, as the contacts they made, in the order sent. */
  importedContacts(batchId: string): Promise<Contact[]>
  /** R5: NOT_FOUND when they are not a contact. */
  removeContact(userId: string): Promise<void>
  /** U1's `share_url`, the link others add the user with; null when the service gave none. */
  contactLink(): Promise<string | null>
  /** G1: the members of every group the user is in, the user among them; someone in two groups comes twice. */
  groupMembers(): Promise<Person[]>
}

/** What G8 made of the user's request to join through a share link. */
export type LinkJoinOutcome =
  | { status: 'joined'; conversation: Conversation }
  | { status: 'pending'; question: string | null; answer: string | null; requestedAt: number }

/** A member MB3 reports added, under the `guid` of the request item that added them. */
export interface AddedMember {
  guid: string | null
  member: Member
}

/**
 * Groups the user creates, manages, joins and leaves, and their members (G2, G4–G10, MB1–MB9).
 * A refusal comes as the AppError of its status; G10's per-item statuses are read the same way.
 */
export interface GroupService {
  /** G5 (attested): the new group as the list shows it. */
  createGroup(group: NewGroup): Promise<Conversation>
  /** G4. */
  groupDetails(groupId: ConversationId): Promise<GroupDetails>
  /** G6: all or nothing. */
  updateGroup(groupId: ConversationId, changes: GroupChanges): Promise<GroupDetails>
  /** G7. */
  destroyGroup(groupId: ConversationId): Promise<void>
  /** G10 for one group. */
  transferOwnership(groupId: ConversationId, userId: string): Promise<void>
  /** G2, latest exit first. */
  formerGroups(): Promise<FormerGroup[]>
  /** G9: the group as the list shows it. */
  rejoinGroup(groupId: ConversationId): Promise<Conversation>
  /** G8 with the share link's token. */
  joinGroup(groupId: ConversationId, shareToken: string, answer: string | null): Promise<LinkJoinOutcome>
  /** MB1 `inactive` (admins and the owner only). */
  formerMembers(groupId: ConversationId): Promise<FormerMember[]>
  /** MB2 (attested): answers the id `addedMembers` reads the outcome under. */
  addMembers(groupId: ConversationId, candidates: (MemberCandidate & { guid: string })[]): Promise<string>
  /** MB3: null while the service is still adding (503). */
  addedMembers(groupId: ConversationId, resultsId: string): Promise<AddedMember[] | null>
  /** MB4: the user's own membership leaves the group; anyone else's is removed. */
  removeMember(groupId: ConversationId, membershipId: string): Promise<void>
  /** MB7. */
  banMember(groupId: ConversationId, membershipId: string): Promise<void>
  /** MB9. */
  setMemberRole(groupId: ConversationId, membershipId: string, role: 'admin' | 'user'): Promise<void>
  /** MB8, the user's own nickname. */
  setNickname(groupId: ConversationId, nickname: string): Promise<void>
  /** MB5, oldest first. */
  joinRequests(groupId: ConversationId): Promise<JoinRequest[]>
  /** MB6. */
  decideJoinRequest(groupId: ConversationId, membershipId: string, approve: boolean): Promise<void>
}

/** Two-step verification of the signed-in account (M1–M5) and the apps signed in to it (T1, T2). */
export interface SecurityService {
  /** U1, as the account's owner manages it. */
  account(): Promise<Account>
  /** M2: answers the id of a verification of the account's phone, whose code `sendSmsCode` sends and `confirmCode` checks. */
  startTwoStep(): Promise<string>
  /** M3, with that verification once its code is confirmed: the phone becomes the two-step channel. */
  confirmTwoStepPhone(verificationId: string): Promise<void>
  /** M4: revokes every token of the account; answers the one that replaces them, and the new backup code. */
  enableTwoStep(): Promise<{ token: IssuedToken; backupCode: string }>
  /** M5. */
  disableTwoStep(): Promise<void>
  /** M1: replaces the backup code. */
  newBackupCode(): Promise<string>
  /** T1, oldest first. */
  signedInApps(): Promise<SignedInApp[]>
  /** T2: NOT_FOUND when it is not a live token of the account. */
  signOutApp(id: string): Promise<void>
}

/** Everything core asks of the service over REST, whichever deployment it is. */
export interface ServiceGateway extends SessionService, ConversationService, TimelineService, GroupMuteService, MessageActionService, PollService, GroupService, PeopleService, SecurityService, ProfileService {
  sendMessage(conversationId: ConversationId, text: string, sourceGuid: string, attachments?: SendableAttachment[]): Promise<Message>
}

/** What U2 made of a profile change: saved, or refused for the field it names (null: none named). */
export type ProfileUpdateOutcome = { kind: 'saved'; account: Account } | { kind: 'refused'; field: ProfileField | null }

/** The user's own profile and password (U1 is SecurityService's `account`). */
export interface ProfileService {
  /** U2. */
  updateProfile(changes: ProfileChanges): Promise<ProfileUpdateOutcome>
  /** P1; every session of the account ends, this one too. FORBIDDEN when `current` is wrong. */
  changePassword(current: string, next: string): Promise<void>
}

/** The service's push channel, followed for the signed-in user. */
export interface PushFeed {
  /** Connects as this user and follows their personal channel. */
  start(me: Me): void
  follow(conversationId: ConversationId): void
  unfollow(conversationId: ConversationId): void
  /** Tells the others in a followed conversation that the user is typing (§14.3); best effort. */
  typing(conversationId: ConversationId): void
  stop(): Promise<void>
}

/** Someone else just reacted to one of the user's messages. */
export interface ReactionToYourMessage {
  conversationId: ConversationId
  reactorId: string
  /** The reactor's nickname in the group, when the service could say; null in a chat, whose name is theirs. */
  reactorName: string | null
  /** The reaction's character, or null for a picture from an emoji pack. */
  emoji: string | null
  message: Message
}

/** What a service connection asks of the core it serves: who is calling, and who hears what the service says unasked. */
export interface ConnectionOwner {
  /** The token every request carries, while someone is signed in, with the deployment that issued it. */
  token(): IssuedToken | null
  /** Who is signed in: chats are addressed by their other participant, seen from this user. */
  me(): Me | null
  /** A message arrived by push, already in the app's shape. */
  message(message: Message): void
  /** Someone else reacted to one of the user's messages (not sent for a reaction taken back). */
  reaction(reaction: ReactionToYourMessage): void
  /** A message already delivered changed: its reactions, its text (an edit), or it was deleted. */
  messageChanged(message: Message): void
  /** Someone else is typing in a followed conversation; `name` is empty when the service could not say. */
  typing(typist: Typist): void
  /** The user was added to a group, or something else changed the list itself. */
  conversationsChanged(): void
  status(status: PushStatus): void
  /** Push is live, on first connecting or again after an outage: fetch what arrived while it was not. */
  live(): void
  /** The service refused the current token, on a request or on the user's own channel: the session is over. */
  tokenRefused(): void
  /** A request was not sent: the addresses in force are not those of the deployment that issued the token. */
  tokenElsewhere(): void
}

/** The image service, where pictures go before a message carries them. */
export interface ImageService {
  /** I1: resolves with the picture's URL; `signal` cancels it. */
  uploadImage(upload: { bytes: Uint8Array; contentType: ImageContentType; signal: AbortSignal; onProgress: (sentBytes: number) => void }): Promise<string>
  /** A message's picture, from an address the page may load it from (no token goes with it); throws when it is not a picture the page can show. */
  downloadPicture(url: string): Promise<KeptPicture>
}

/** One deployment of the service, as the composition root hands it to core. */
export interface ServiceConnection {
  readonly gateway: ServiceGateway
  readonly images: ImageService
  readonly push: PushFeed
  /** Core calls this once, before anything else, to say who owns the connection. */
  attach(owner: ConnectionOwner): void
  /** Where the service lives, as Settings ▸ Service shows and changes it. */
  readonly settings: ServiceSettingsPort
}

/** The service settings: kept by the host, overridden by its environment, put in force at run time. */
export interface ServiceSettingsPort {
  /** The settings in force, and which of them the environment decides. */
  current(): ServiceSettingsView
  /** Asks each address what the service answers; changes nothing. */
  test(settings: ServiceSettings): Promise<AddressCheck[]>
  /**
   * Keeps the settings (those the environment decides stay as saved) and puts them in force: the
   * next request goes to them, and push to them once it starts again. `token`, the session's, is
   * shown first to new settings that still name its issuer (the same origins and app id), and the
   * answer says what it made of it; any other settings are never shown it (whoever runs an address
   * typed in must not receive it), and it is revoked at its issuer instead.
   */
  save(settings: ServiceSettings, token: IssuedToken | null): Promise<DeploymentSwitch>
}

/** What saving the service settings did. */
export interface DeploymentSwitch {
  view: ServiceSettingsView
  /**
   * The new deployment accepted the session's token, refused it, or could not say (no token, or
   * out of reach); or it is at another origin, so the token was not shown to it (`elsewhere`).
   */
  session: 'accepted' | 'refused' | 'unknown' | 'elsewhere'
}

// What this device keeps.

/**
 * One account's copy of its conversations and messages on this device (`storage/local-store/`),
 * encrypted. Fed from the message flow alone; read before the service answers, and when it cannot.
 * Every call may fail (a full disk, say): the app then carries on from the service.
 */
export interface LocalStore {
  /** The conversation list as last kept, in its order. */
  conversations(): Promise<Conversation[]>
  keepConversations(list: Conversation[]): Promise<void>
  /**
   * Messages the service answered as one stretch of history, nothing missing between them, with
   * what the stretch is known to join: `after`, a message it directly follows (a catch-up from
   * it); `before`, one it directly precedes (an older page); `reachesStart`, nothing is older.
   */
  keepRun(conversationId: ConversationId, messages: Message[], joins: RunJoins): Promise<void>
  /** Messages known one by one (pushed, sent, edited), not as part of a stretch: kept, or replaced where kept. */
  keepMessages(messages: Message[]): Promise<void>
  /** A change to a message that may be kept, when the service answered it without the message. */
  changeMessage(conversationId: ConversationId, messageId: string, change: StoredChange): Promise<void>
  keepPoll(poll: Poll): Promise<void>
  keepGroup(details: GroupDetails): Promise<void>
  /** The group's details as last kept; null when none are. */
  group(groupId: ConversationId): Promise<GroupDetails | null>
  keepPerson(person: Person): Promise<void>
  /** Someone's name and picture as last kept; null when they are not. */
  person(userId: string): Promise<Person | null>
  /** The newest stretch kept, newest `limit` of it; null when nothing of the conversation is. */
  newest(conversationId: ConversationId, limit: number): Promise<StoredHistory | null>
  /** Up to `limit` messages of the stretch `beforeId` is in, just older than it. */
  before(conversationId: ConversationId, beforeId: string, limit: number): Promise<StoredHistory>
  /**
   * Up to `limit` messages of the stretch `afterId` is in, just newer than it, oldest first; null
   * when no stretch kept holds `afterId`.
   */
  after(conversationId: ConversationId, afterId: string, limit: number): Promise<Message[] | null>
  /** Each conversation's newest message kept in a stretch: where a catch-up goes on from. */
  syncPoints(): Promise<Map<ConversationId, string>>
  /** Messages the user wrote that the service has not accepted, in the order written. */
  outbox(): Promise<PendingMessage[]>
  keepOutbox(pending: PendingMessage[]): Promise<void>
  usage(): Promise<StoreUsage>
  /**
   * Where each conversation's newest stretch begins, for those with one: its oldest message kept,
   * and whether nothing is older. A download of older history goes on from there.
   */
  historyStarts(): Promise<Map<ConversationId, HistoryStart>>
  /** How many of the conversation's messages are kept. */
  messageCount(conversationId: ConversationId): Promise<number>
  /**
   * Forgets every message, stretch, poll and the conversation list, and gives the space back to the
   * disk; what waits in the outbox stays, since it exists nowhere else.
   */
  clearHistory(): Promise<void>
  /**
   * The conversation's kept messages that carry a picture, newest first: up to `limit` older than
   * `beforeId` (null: from the newest), whatever stretch each is in; deleted ones left out.
   */
  pictureMessages(conversationId: ConversationId, beforeId: string | null, limit: number): Promise<Message[]>
  /**
   * The stretch kept from `context` messages older than `messageId` up to just older than `beforeId`
   * (null: through the newest of the stretch), oldest first, and what lies beyond its oldest; null
   * when no one stretch holds both.
   */
  stretchFrom(conversationId: ConversationId, messageId: string, beforeId: string | null, context: number): Promise<StoredHistory | null>
  /** Up to `limit` of the conversation's kept messages newer than `afterId` (null: from the oldest), oldest first, whatever stretch each is in. */
  messagesFrom(conversationId: ConversationId, afterId: string | null, limit: number): Promise<Message[]>
  /** The conversation's polls as last kept. */
  pollsOf(conversationId: ConversationId): Promise<Poll[]>
  /** The pictures of the account's messages kept beside the store, under its key. */
  readonly pictures: PictureCache
  close(): Promise<void>
  /**
   * Kept messages that match, newest first, `limit` at a time (tombstones never do). Arguments and
   * answer are plain values, so the call can cross to another thread.
   */
  search(search: StoreSearch): Promise<StoreSearchPage>
  /** How many messages are kept, and the time of the oldest (null when none is). */
  searchScope(): Promise<{ messages: number; oldestAt: number | null }>
  /** Every conversation's unsent draft, as last kept. */
  drafts(): Promise<Draft[]>
  /** The conversation's draft, replacing the one kept. */
  keepDraft(draft: Draft): Promise<void>
  /** The conversation has no draft any more (sent, or erased). */
  forgetDraft(conversationId: ConversationId): Promise<void>
  /** The conversation open when the app last stopped; null when none was. */
  leftOpen(): Promise<ConversationId | null>
  /** The conversation open now (null: none), to open again at the next start. */
  keepLeftOpen(conversationId: ConversationId | null): Promise<void>
}

/**
 * A search as the store runs it, its words still as typed (the store finds their tokens the way its
 * index does). Every part given narrows it: words and phrases all match, one of the senders and one
 * of the conversations when any are given, every kind in `has`.
 */
export interface StoreSearch {
  /** Each matches by prefix (`hik` finds `hiking`). */
  words: string[]
  /** Each matches as a phrase. */
  phrases: string[]
  /** Senders whose name on the message has words beginning with each word of one of these. */
  senderNames: string[]
  senderIds: string[]
  conversationIds: ConversationId[]
  has: ('image' | 'poll' | 'location')[]
  /** Unix seconds: sent at or after. */
  since: number | null
  /** Unix seconds: sent before. */
  until: number | null
  /** The `next` of the page before. */
  after: string | null
  limit: number
}

export interface StoreSearchPage {
  /** Newest first. */
  hits: SearchHit[]
  /** Where the next page begins; null when there is nothing more. */
  next: string | null
}

export interface HistoryStart {
  /** The oldest message of the newest stretch kept. */
  oldestId: string
  /** Nothing in the conversation is older than it. */
  reachesStart: boolean
}

/**
 * Pictures of kept messages, by the address they were fetched from, encrypted like the store and
 * held to a size limit: what was used longest ago goes first. A picture is "used" when the page
 * shows it, and a picture fetched ahead of time counts as used when its message was written, so
 * pictures of old history never push out those of the newest.
 */
export interface PictureCache {
  /** Whether a picture from this address is kept (it may still fail to read). */
  has(url: string): boolean
  /** The picture kept for this address, counted as used now; null when none is, or it cannot be read any more. */
  read(url: string): Promise<KeptPicture | null>
  /** Whether a picture last used at `usedAt` (Unix ms) would stay, or go at once to make room for those used since. */
  wouldKeep(usedAt: number): boolean
  /** Keeps it, making room by removing what was used longest ago; false when it would be the first to go. */
  keep(url: string, picture: KeptPicture, usedAt: number): Promise<boolean>
  /** A new size limit in bytes, kept to at once. */
  setLimit(bytes: number): Promise<void>
  usage(): PictureUsage
  /** Resolves once whatever it was writing has landed; it keeps and reads nothing after. */
  close(): Promise<void>
}

export interface KeptPicture {
  /** One of the picture types the page may show (api/picture-download.ts). */
  contentType: string
  bytes: Uint8Array
}

export interface PictureUsage {
  /** Bytes the kept pictures take on disk. */
  bytes: number
  limitBytes: number
  pictures: number
}

export interface RunJoins {
  after: string | null
  before: string | null
  reachesStart: boolean
}

/** What changed, when the service said no more than that. */
export type StoredChange =
  | { kind: 'reactions'; reactions: Reaction[] }
  /** Unix seconds of the pin; null: unpinned. */
  | { kind: 'pinned'; pinnedAt: number | null }
  /** Kept as a tombstone: where it was, and that it was deleted, with nothing it said. */
  | { kind: 'deleted' }

export interface StoredHistory {
  /** Oldest first, nothing missing between them. */
  messages: Message[]
  /** What is older than the first: kept too, only on the service (or not yet known), or nothing. */
  older: 'stored' | 'service' | 'none'
}

export interface StoreUsage {
  messages: number
  conversations: number
  /** The database's size on disk. */
  bytes: number
}

/** What its integrity check found of a store: nothing wrong, or the file damaged. */
export type StoreCheck = 'whole' | 'damaged'

export interface OpenedStore {
  store: LocalStore
  /** In words, when the store there was had to be moved aside and this one made anew; null when not. */
  setAside: string | null
  /**
   * Runs the integrity check of the store, which reads the whole file, on a thread of its own while
   * the store serves; when is the caller's choice. A store it finds `damaged` is handed to
   * `replaceDamaged`. None when there is nothing to check (a store made just now, or one in memory).
   */
  check?: () => Promise<StoreCheck>
}

/** Where an export's file is saved: Electron asks the person (desktop/export-files.ts). */
export interface ExportFiles {
  /** A file to write the export into, named after `suggestedName` if the person likes; null when they chose not to save one. */
  create(suggestedName: string): Promise<ExportFile | null>
}

export interface ExportFile {
  /** What the person knows it by (its name, not where it is). */
  readonly name: string
  write(text: string): Promise<void>
  /** Everything is written: the file is complete. */
  close(): Promise<void>
  /** Cancelled or failed: what was written goes, so no half file is left to be mistaken for a whole one. */
  discard(): Promise<void>
}

/** The stores of every account on this device. */
export interface LocalStores {
  /**
   * Opens the account's store, made anew when there is none. One that cannot be opened or
   * decrypted is moved aside and made anew: `setAside` then says so in words.
   */
  open(accountId: string): Promise<OpenedStore>
  /**
   * Closes a store its check found damaged, moves it aside and makes the account's store anew with
   * what waited unsent in it, as far as it could still be read: as `open` does with one that
   * cannot be opened. `setAside` says so in words, the messages lost named.
   */
  replaceDamaged(accountId: string, damaged: LocalStore): Promise<{ store: LocalStore; setAside: string }>
  /** Whether this device keeps a store of the account that will outlive the process (it may still fail to open). */
  has(accountId: string): Promise<boolean>
  /** Removes the account's store and its key from this device. */
  remove(accountId: string): Promise<void>
}

// The platform.

/** Where the access token is kept between runs: encrypted in Electron, a user-only file in browser mode. */
export interface TokenVault {
  /** The kept token with the deployment that issued it; null when none is kept, or one an older version kept without saying where it came from. */
  load(): Promise<IssuedToken | null>
  save(token: IssuedToken): Promise<void>
  clear(): Promise<void>
}

/** Small, non-secret state the app keeps between runs. */
export interface Preferences {
  get<K extends keyof PreferenceValues>(key: K): PreferenceValues[K] | undefined
  set<K extends keyof PreferenceValues>(key: K, value: PreferenceValues[K]): void
  delete(key: keyof PreferenceValues): void
}

export interface PreferenceValues {
  /** Generated once per installation and sent with every sign-in, so the service can remember it. */
  deviceId: string
  /** The newest message id each account has seen, per conversation: account id → conversation id → message id. */
  lastRead: Record<string, Record<ConversationId, string>>
  windowBounds: { x: number; y: number; width: number; height: number }
  /**
   * Messages not yet accepted by the service when an older version last stopped, kept here in
   * plain text: moved into the account's store (encrypted) at its next sign-in, and removed.
   */
  outbox: PendingMessage[]
  /** Who was signed in, so the app can show itself while the service is out of reach. */
  account: Me
  /** The status the user chose (an automatic Away is not kept). */
  presence: PresenceStatus
  /** The global notification mute; null or absent when notifications are on. */
  globalMute: Mute | null
  /** The desktop settings, read leniently (core/settings.ts). */
  settings: unknown
  /** Mutes of chats, kept on this device (groups are muted on the service): account id → chat id → mute. */
  chatMutes: Record<string, Record<ConversationId, Mute>>
  /**
   * When the timed mutes of groups made on this device end (Unix ms): account id → group id → end.
   * The service says only whether a group is muted, so the end is remembered here.
   */
  groupMuteEnds: Record<string, Record<ConversationId, number>>
  /** The user's requests to join groups through a link, not yet settled as far as this device knows: account id → requests. */
  pendingJoins: Record<string, PendingJoin[]>
  /**
   * The user paused the download of full history (Settings ▸ Storage): it stays paused across
   * restarts until they resume it. Kept here rather than among the settings: it is where the
   * download stands on this device, not a choice of how the app behaves.
   */
  historyDownloadPaused: boolean
}

export interface DesktopNotification {
  /** One per conversation: showing another under the same key replaces it. */
  key: string
  conversationId: ConversationId
  title: string
  body: string
  /** No sound (the Sound setting is off). */
  silent: boolean
  onClick: () => void
  /** Where the platform lets the user answer in the notification (macOS): sends the answer. */
  onReply?: (text: string) => void
}

export interface Notifier {
  show(notification: DesktopNotification): void
  /** The notification under this key is out of date: its conversation has been read. */
  close(key: string): void
}

/** How long the user has been away from the keyboard, as this host can tell. */
export interface IdleSource {
  /** Seconds since the user last used the computer (Electron) or the page (browser mode). */
  idleSeconds(): number
  /** The page saw input: browser mode's only sign of activity; the system knows it in Electron. */
  noteActivity(): void
}

/** Where the host shows the desktop state outside the page: the tray icon, its badge and menu. */
export interface StatusDisplay {
  show(state: DesktopState): void
}

export interface AppWindow {
  /** Whether the user is looking at the app right now. */
  isFocused(): boolean
  /** Brings the window to the front (after a notification click, say). */
  reveal(): void
}

export interface EventSink {
  emit<E extends EventName>(event: E, payload: EventContract[E]): void
}
