// The picture URLs main hands the page. They come from the service as other people made them (a
// message's pictures, anyone's avatar, a group's picture), and a page that loads one from a host of
// its sender's choosing tells that host who looked, when, and from which address. A deployment may
// check them; this app does not count on it. So every answer and every event passes through here on
// its way to the page: a picture on the image service's origin or a listed picture origin
// (shared/picture-origins.ts) goes as it came; any other is no picture: an avatar or a group's
// picture becomes none (the page draws initials), and a message's picture a link the person may
// open in their browser through the external-link path.
//
// A message's picture this device keeps (core/picture-keeper.ts) goes to the page at the host's
// local address for it instead (browser mode's host, Electron's picture protocol), so it shows when
// its link has expired or the service is out of reach. Only pictures the page may load anyway are
// so given: a kept copy never lets through what the origins in force would not.
//
// Filtered at the page's edge, not where the service's answers are read: what core keeps (the list,
// the timelines, the outbox) stays as the service said it, and each answer is judged by the origins
// in force when it leaves, so a Save in Settings ▸ Service counts from the next answer on.
import type { Conversation, OpenedConversation } from '@shared/conversations'
import type { Attachment, Message, MessagePage, MostLiked } from '@shared/messages'
import type { Me, SessionState } from '@shared/session'
import type { GroupDetails, JoinOutcome } from '@shared/groups'
import {
  INVOKE_CHANNELS,
  type EventContract,
  type EventName,
  type InvokeChannel,
  type InvokeHandlers,
  type InvokeRequest,
  type InvokeResponse
} from '@shared/window-api'
import type { Account } from '@shared/account'
import type { ConversationPicture } from '@shared/conversation-files'
import type { DraftPicture } from '@shared/drafts'
import type { Profile } from '@shared/people'
import { isAllowedPicture } from '@shared/picture-origins'
import { isWebUrl } from '@shared/web-url'
import type { EventSink } from './ports'

/** The origins the page may load pictures from, as the settings in force say now. */
export type PictureOrigins = () => readonly string[]

/** The local address of a message's picture kept on this device; null when none is kept. */
export type KeptPictureAddress = (url: string) => string | null

const NOTHING_KEPT: KeptPictureAddress = () => null

/** The answers of every channel as they may reach the page: the compiler makes a new channel say whether it carries pictures. */
export function withPagePictures(handlers: InvokeHandlers, origins: PictureOrigins, kept: KeptPictureAddress = NOTHING_KEPT): InvokeHandlers {
  const filtered: Partial<Record<InvokeChannel, unknown>> = {}
  for (const channel of INVOKE_CHANNELS) filtered[channel] = filterAnswer(handlers, channel, origins, kept)
  // Every channel was given its own filtered handler just above.
  return filtered as InvokeHandlers
}

/** Events as they may reach the page. */
export function pagePictureEvents(sink: EventSink, origins: PictureOrigins, kept: KeptPictureAddress = NOTHING_KEPT): EventSink {
  return {
    emit<E extends EventName>(event: E, payload: EventContract[E]): void {
      const filter: Filter<EventContract[E]> = EVENTS[event]
      sink.emit(event, filter(payload, new Pictures(origins, kept)))
    }
  }
}

function filterAnswer<C extends InvokeChannel>(handlers: InvokeHandlers, channel: C, origins: PictureOrigins, kept: KeptPictureAddress) {
  const handler: (request: InvokeRequest<C>) => Promise<InvokeResponse<C>> = handlers[channel]
  const filter: Filter<InvokeResponse<C>> = ANSWERS[channel]
  // The origins are read once the answer is ready, so a Save while it was on its way counts.
  return async (request: InvokeRequest<C>): Promise<InvokeResponse<C>> => filter(await handler(request), new Pictures(origins, kept))
}

type Filter<T> = (value: T, pictures: Pictures) => T

/** What carries no picture URL goes as it is. */
const asIs = <T>(value: T): T => value

/** The rule, for the origins in force when one answer or event leaves (read only if it carries a picture). */
class Pictures {
  readonly #read: PictureOrigins
  readonly #kept: KeptPictureAddress
  #origins: readonly string[] | null = null

  constructor(origins: PictureOrigins, kept: KeptPictureAddress) {
    this.#read = origins
    this.#kept = kept
  }

  get #inForce(): readonly string[] {
    this.#origins ??= this.#read()
    return this.#origins
  }

  /** An avatar or a group's picture: none when the page may not load it; from this device when kept here. */
  url(url: string | null): string | null {
    if (url === null || !isAllowedPicture(url, this.#inForce)) return null
    return this.#kept(url) ?? url
  }

  withAvatar<T extends { avatarUrl: string | null }>(item: T): T {
    const avatarUrl = this.url(item.avatarUrl)
    return avatarUrl === item.avatarUrl ? item : { ...item, avatarUrl }
  }

  /**
   * A message's picture the page may not load reaches the person as a link to open in their
   * browser. One that is no web address at all cannot be opened either, and is left out. One it
   * may load comes from this device when kept here.
   */
  attachments(attachments: Attachment[]): Attachment[] {
    return attachments.flatMap((attachment): Attachment[] => {
      if (attachment.type !== 'image') return [attachment]
      if (isAllowedPicture(attachment.url, this.#inForce)) {
        const local = this.#kept(attachment.url)
        return [local === null ? attachment : { type: 'image', url: local }]
      }
      return isWebUrl(attachment.url) ? [{ type: 'imageLink', url: attachment.url }] : []
    })
  }

  /** A conversation's pictures the page may load, each from this device when kept here; the others are left out. */
  pictures(pictures: ConversationPicture[]): ConversationPicture[] {
    return pictures.flatMap((picture) => {
      if (!isAllowedPicture(picture.url, this.#inForce)) return []
      return [{ ...picture, url: this.#kept(picture.url) ?? picture.url }]
    })
  }

  /**
   * A draft's pictures: the person's own uploads, which the page draws again after a reload and
   * sends by that same address, so one it may not load (the settings changed since) is left out.
   */
  draftPictures(pictures: DraftPicture[]): DraftPicture[] {
    return pictures.filter((picture) => isAllowedPicture(picture.url, this.#inForce))
  }

  message(message: Message): Message {
    return { ...message, senderAvatarUrl: this.url(message.senderAvatarUrl), attachments: this.attachments(message.attachments) }
  }

  messages(messages: Message[]): Message[] {
    return messages.map((message) => this.message(message))
  }

  me(me: Me): Me {
    return this.withAvatar(me)
  }

  conversation(conversation: Conversation): Conversation {
    return this.withAvatar(conversation)
  }

  session(state: SessionState): SessionState {
    return state.status === 'signedIn' ? { ...state, me: this.me(state.me) } : state
  }

  page<T extends MessagePage>(page: T): T {
    return { ...page, messages: this.messages(page.messages) }
  }

  opened(opened: OpenedConversation): OpenedConversation {
    return { ...this.page(opened), conversation: this.conversation(opened.conversation) }
  }

  mostLiked(liked: MostLiked): MostLiked {
    return {
      day: this.messages(liked.day),
      week: this.messages(liked.week),
      month: this.messages(liked.month),
      mine: this.messages(liked.mine),
      forMe: this.messages(liked.forMe)
    }
  }

  group(details: GroupDetails): GroupDetails {
    return { ...details, imageUrl: this.url(details.imageUrl), members: details.members.map((member) => this.withAvatar(member)) }
  }

  joinOutcome(outcome: JoinOutcome): JoinOutcome {
    return outcome.status === 'joined' ? { ...outcome, conversation: this.conversation(outcome.conversation) } : outcome
  }

  profile(profile: Profile): Profile {
    return { ...this.withAvatar(profile), sharedGroups: profile.sharedGroups.map((group) => this.withAvatar(group)) }
  }

  account(account: Account): Account {
    return this.withAvatar(account)
  }
}

const eachAvatar = <T extends { avatarUrl: string | null }>(items: T[], pictures: Pictures): T[] => items.map((item) => pictures.withAvatar(item))

/**
 * Each channel's answer on its way to the page. `asIs` where the answer holds no picture URL; the
 * upload's answer is one, but the page only hands it back (its previews are the person's own
 * file), and pending messages carry the person's own uploads, which the page counts and never draws.
 */
const ANSWERS: { [C in InvokeChannel]: Filter<InvokeResponse<C>> } = {
  'app:ready': asIs,
  'session:get': (state, pictures) => pictures.session(state),
  'session:signIn': (result, pictures) => (result.status === 'signedIn' ? { ...result, me: pictures.me(result.me) } : result),
  'session:sendCode': asIs,
  'session:confirmCode': (result, pictures) => (result.status === 'signedIn' ? { ...result, me: pictures.me(result.me) } : result),
  'session:cancelVerification': asIs,
  'session:signOut': asIs,
  'session:textInstead': asIs,
  'session:cancelTextRoute': asIs,
  'session:startOver': (result, pictures) => (result.status === 'signedIn' ? { ...result, me: pictures.me(result.me) } : result),
  'conversations:list': (list, pictures) => list.map((conversation) => pictures.conversation(conversation)),
  'conversations:open': (opened, pictures) => pictures.opened(opened),
  'conversations:close': asIs,
  'conversations:leftOpen': asIs,
  'conversations:mute': (conversation, pictures) => pictures.conversation(conversation),
  'conversations:unmute': (conversation, pictures) => pictures.conversation(conversation),
  'messages:loadOlder': (page, pictures) => pictures.page(page),
  'conversations:openAt': (page, pictures) => pictures.page(page),
  'conversations:pictures': (page, pictures) => ({ ...page, pictures: pictures.pictures(page.pictures) }),
  // The file an export makes embeds its pictures itself: it carries none to the page to load.
  'exports:start': asIs,
  'exports:cancel': asIs,
  'messages:send': asIs,
  'messages:retry': asIs,
  'messages:discard': asIs,
  'messages:react': asIs,
  'messages:unreact': asIs,
  'messages:edit': (message, pictures) => pictures.message(message),
  'messages:delete': asIs,
  'messages:setPinned': asIs,
  'messages:pinned': (messages, pictures) => pictures.messages(messages),
  'messages:mostLiked': (liked, pictures) => pictures.mostLiked(liked),
  'uploads:start': asIs,
  'uploads:cancel': asIs,
  'drafts:list': (drafts, pictures) => drafts.map((draft) => ({ ...draft, pictures: pictures.draftPictures(draft.pictures) })),
  'drafts:keep': asIs,
  'desktop:get': asIs,
  'presence:set': asIs,
  'presence:activity': asIs,
  'notifications:mute': asIs,
  'notifications:unmute': asIs,
  'settings:update': asIs,
  'shell:openExternal': asIs,
  'polls:create': asIs,
  'polls:get': asIs,
  'polls:vote': asIs,
  'polls:end': asIs,
  'polls:list': asIs,
  'typing:typed': asIs,
  'groups:create': (conversation, pictures) => pictures.conversation(conversation),
  'groups:get': (details, pictures) => pictures.group(details),
  'groups:update': (details, pictures) => pictures.group(details),
  'groups:destroy': asIs,
  'groups:transferOwnership': (details, pictures) => pictures.group(details),
  'groups:leave': asIs,
  'groups:former': eachAvatar,
  'groups:rejoin': (conversation, pictures) => pictures.conversation(conversation),
  'groups:checkLink': asIs,
  'groups:join': (outcome, pictures) => pictures.joinOutcome(outcome),
  'groups:pendingJoins': asIs,
  'groups:forgetPendingJoin': asIs,
  'members:former': eachAvatar,
  'members:add': (result, pictures) => ({ ...result, added: eachAvatar(result.added, pictures) }),
  'members:remove': (details, pictures) => pictures.group(details),
  'members:ban': eachAvatar,
  'members:setRole': (details, pictures) => pictures.group(details),
  'members:setNickname': (details, pictures) => pictures.group(details),
  'members:joinRequests': eachAvatar,
  'members:decide': eachAvatar,
  'people:profile': (profile, pictures) => pictures.profile(profile),
  'people:block': (profile, pictures) => pictures.profile(profile),
  'people:unblock': (profile, pictures) => pictures.profile(profile),
  'people:blocked': eachAvatar,
  'people:standing': asIs,
  'people:candidates': eachAvatar,
  'contacts:list': eachAvatar,
  'contacts:addFromLink': (profile, pictures) => pictures.profile(profile),
  'contacts:import': (result, pictures) => ({ ...result, matched: eachAvatar(result.matched, pictures) }),
  'contacts:remove': asIs,
  'contacts:myLink': asIs,
  'chats:start': (conversation, pictures) => pictures.conversation(conversation),
  'account:get': (account, pictures) => pictures.account(account),
  'account:updateProfile': (result, pictures) => (result.status === 'saved' ? { ...result, account: pictures.account(result.account) } : result),
  'account:changePassword': asIs,
  'security:beginTwoStep': asIs,
  'security:confirmTwoStep': (result, pictures) => (result.status === 'enabled' ? { ...result, account: pictures.account(result.account) } : result),
  'security:cancelTwoStep': asIs,
  'security:disableTwoStep': (account, pictures) => pictures.account(account),
  'security:newBackupCode': asIs,
  'security:signedInApps': asIs,
  'security:signOutApp': asIs,
  'service:get': asIs,
  'service:test': asIs,
  'service:save': asIs,
  'storage:get': asIs,
  'storage:keepFullHistory': asIs,
  'storage:pause': asIs,
  'storage:resume': asIs,
  'storage:deleteLocalData': asIs,
  // Results carry no picture: names, times and text only.
  'search:messages': asIs
}

/** Each event on its way to the page, as for answers. */
const EVENTS: { [E in EventName]: Filter<EventContract[E]> } = {
  'session:changed': (state, pictures) => pictures.session(state),
  'conversations:changed': (list, pictures) => list.map((conversation) => pictures.conversation(conversation)),
  'messages:received': (message, pictures) => pictures.message(message),
  'messages:updated': (message, pictures) => pictures.message(message),
  'outbox:changed': asIs,
  'push:status': asIs,
  'connection:offline': asIs,
  'typing:received': asIs,
  'uploads:progress': asIs,
  'conversations:focus': asIs,
  'desktop:changed': asIs,
  'notifications:show': asIs,
  'notifications:close': asIs,
  'contacts:importProgress': asIs,
  'people:standingChanged': asIs,
  'storage:notice': asIs,
  'storage:progress': asIs,
  'exports:progress': asIs,
  // A file for the person to save, never drawn by the page: its pictures are embedded in it.
  'exports:chunk': asIs
}
