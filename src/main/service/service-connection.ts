// Binds core to a real deployment: the REST client and the push connection, translated into the
// app's own shapes. Both composition roots build one and hand it to core; core itself knows only
// the ports it implements (core/ports.ts), never the api/ and push/ layers.
import type { Conversation, ConversationId, Me, Message } from '../../shared/domain'
import { conversationKind, otherParticipant } from '../../shared/conversation-id'
import { isIssuedBy, issuerOf, type IssuedToken, type TokenIssuer } from '../../shared/token-issuer'
import { listChats, listDirectMessages, sendDirectMessage } from '../api/chats'
import type { WireGroup, WireVerification } from '../api/decoders'
import { getGroup, listGroups } from '../api/groups'
import { uploadPicture } from '../api/images'
import { deleteMessage, editDirectMessage, editGroupMessage, getGroupMessage, pinnedDirectMessages, pinnedGroupMessages, setPinned } from '../api/message-actions'
import { listGroupMessages, sendGroupMessage, type WireMessagePage } from '../api/messages'
import { muteGroup, unmuteGroup } from '../api/mutes'
import type { MessagePageRequest } from '../api/paging'
import { ServiceClient } from '../api/service-client'
import type { ServiceConfig } from '../api/service-config'
import { ServiceSettingsControl, type SavedServiceSettings } from './service-settings-control'
import { likedByMe, likedForMe, mostLiked, react, unreact } from '../api/reactions'
import { confirmCode, readVerification, revokeAtIssuer, sendSmsCode, signIn } from '../api/sessions'
import { chatToConversation, selfUserToMe, toMessage, toReactions, tokenResultToMe } from '../api/to-domain'
import { getMe } from '../api/users'
import { conversationChannel, userChannel } from '../push/channels'
import { PushConnection } from '../push/push-connection'
import { AppError } from '../core/app-error'
import type { ConnectionOwner, PushFeed, ServiceConnection, ServiceGateway, TextRouteAddress } from '../core/ports'
import type { Log } from '../log/log'
import { groupConversations, groupGateway } from './groups'
import { peopleGateway } from './people'
import { pollGateway } from './polls'
import { profileGateway } from './profile'
import { securityGateway } from './security'
import { isChangeNotice } from './change-notices'
import { pinnedMessageId } from './pins'
import { reactionToYourMessage } from './reactions'
import { typistOf } from './typists'
import { speakingCore } from './service-failures'

/** MU1's longest timed mute, a year in minutes (§8). */
const MAX_MUTE_MINUTES = 525_600

/** The service's largest page (§7 G1, §11 C1). */
const LIST_PAGE_SIZE = 100

export interface ServiceConnectionOptions {
  /** The settings in force at start-up. */
  config: ServiceConfig
  log: Log
  /** Where Settings ▸ Service keeps what it saves; without it, saved settings last as long as the app. */
  saved?: SavedServiceSettings
  /** The variables that override saved settings, as start-up applied them. */
  environment?: Record<string, string | undefined>
}

export function connectToService({ config, log, saved, environment }: ServiceConnectionOptions): ServiceConnection {
  let owner: ConnectionOwner | null = null
  const attachedOwner = (): ConnectionOwner => {
    if (owner === null) throw new Error('The service connection was used before core attached to it.')
    return owner
  }
  const token = (): IssuedToken | null => owner?.token() ?? null
  const settings = new ServiceSettingsControl({
    initial: config,
    log,
    ...(saved === undefined ? {} : { saved }),
    ...(environment === undefined ? {} : { environment })
  })
  /** Where a request sent now goes: a token it brings back was issued there. */
  const issuerInForce = (): TokenIssuer => issuerOf(settings.config)
  const client = new ServiceClient({ config: () => settings.config, getToken: token })
  client.onUnauthorized(() => owner?.tokenRefused())
  client.onTokenElsewhere(() => owner?.tokenElsewhere())

  const requireMeId = (): string => {
    const me = owner?.me() ?? null
    if (me === null) throw new AppError('UNAUTHENTICATED', 'Please sign in first.')
    return me.id
  }

  async function messagePage(conversationId: ConversationId, request: MessagePageRequest): Promise<Message[]> {
    const page: WireMessagePage =
      conversationKind(conversationId) === 'dm'
        ? await listDirectMessages(client, otherParticipant(conversationId, requireMeId()), request)
        : await listGroupMessages(client, conversationId, request)
    const messages = page.messages.map((wire) => toMessage(wire, conversationId))
    // `after` pages come oldest first, the others newest first (§10); the app keeps history oldest first.
    return request.anchor !== undefined && 'after' in request.anchor ? messages : messages.reverse()
  }

  async function everyPage<T>(fetchPage: (page: number) => Promise<T[]>): Promise<T[]> {
    const all: T[] = []
    for (let page = 1; ; page += 1) {
      const items = await fetchPage(page)
      all.push(...items)
      if (items.length < LIST_PAGE_SIZE) return all
    }
  }

  const gateway: ServiceGateway = speakingCore({
    ...pollGateway({ client, meId: requireMeId, group: (groupId) => getGroup(client, groupId), now: Date.now }),
    ...groupGateway({ client, meId: requireMeId }),
    ...peopleGateway({ client, meId: requireMeId, groups: () => everyPage((page) => listGroups(client, { page, perPage: LIST_PAGE_SIZE })) }),
    ...securityGateway(client, issuerInForce),
    ...profileGateway(client),
    async login({ username, password, deviceId, verificationCode }) {
      const issuer = issuerInForce()
      const outcome = await signIn(client, { username, password, deviceId, ...(verificationCode === undefined ? {} : { verificationCode }) })
      if (outcome.kind === 'verification') {
        const smsHint = outcome.verification.methods?.sms
        return {
          kind: 'verification',
          verificationId: outcome.verification.code,
          smsHint: typeof smsHint === 'string' ? smsHint : null,
          textRoute: textRouteAddressOf(outcome.verification)
        }
      }
      const me = tokenResultToMe(outcome.result)
      if (me === null) throw new AppError('INTERNAL', 'The service signed you in without saying who you are.')
      return { kind: 'token', token: { token: outcome.result.access_token, issuer }, me }
    },
    async readVerification(verificationId) {
      const verification = await readVerification(client, verificationId)
      return { verified: verification.status === 'verified', textRoute: textRouteAddressOf(verification) }
    },
    async sendSmsCode(verificationId) {
      const { hint } = await sendSmsCode(client, verificationId)
      return { smsHint: hint }
    },
    async confirmCode(verificationId, code) {
      const outcome = await confirmCode(client, verificationId, code)
      return outcome.kind === 'verified' ? { verified: true } : { verified: false, remainingAttempts: outcome.remainingAttempts }
    },
    me: async () => selfUserToMe(await getMe(client)),
    revokeToken: (issued) => revokeAtIssuer(issued),
    async listConversations() {
      const me = requireMeId()
      const [groups, chats] = await Promise.all([
        // With members: the caller's own entry is the only place the service shows their mute of a
        // group (made on any device) and their nickname there. A group has at most 5000 members.
        everyPage((page) => listGroups(client, { page, perPage: LIST_PAGE_SIZE })),
        everyPage((page) => listChats(client, { page, perPage: LIST_PAGE_SIZE }))
      ])
      const conversations: Conversation[] = [
        ...(await groupConversations(client, groups, me)),
        ...chats.map((chat) => chatToConversation(chat, me))
      ]
      return conversations
    },
    latestMessages: (conversationId, limit) => messagePage(conversationId, { limit }),
    messagesBefore: (conversationId, beforeId, limit) => messagePage(conversationId, { anchor: { before: beforeId }, limit }),
    messagesAfter: (conversationId, afterId, limit) => messagePage(conversationId, { anchor: { after: afterId }, limit }),
    async muteGroup(groupId, durationMs) {
      // The service counts whole minutes: rounded up, so its mute never ends before the one promised.
      const minutes = durationMs === null ? null : Math.min(Math.max(Math.ceil(durationMs / 60_000), 1), MAX_MUTE_MINUTES)
      await muteGroup(client, groupId, minutes)
    },
    async unmuteGroup(groupId) {
      await unmuteGroup(client, groupId)
    },
    async sendMessage(conversationId, text, sourceGuid, attachments = []) {
      const wire =
        conversationKind(conversationId) === 'dm'
          ? await sendDirectMessage(client, otherParticipant(conversationId, requireMeId()), { sourceGuid, text, attachments })
          : await sendGroupMessage(client, conversationId, { sourceGuid, text, attachments })
      return toMessage(wire, conversationId)
    },
    react: async (conversationId, messageId, emoji) => toReactions(await react(client, conversationId, messageId, emoji)),
    unreact: async (conversationId, messageId) => toReactions(await unreact(client, conversationId, messageId)),
    async editMessage(conversationId, messageId, text) {
      const wire =
        conversationKind(conversationId) === 'dm'
          ? await editDirectMessage(client, conversationId, messageId, text)
          : await editGroupMessage(client, conversationId, messageId, text)
      return toMessage(wire, conversationId)
    },
    deleteMessage: (conversationId, messageId) => deleteMessage(client, conversationId, messageId),
    setPinned: (conversationId, messageId, pinned) => setPinned(client, conversationId, messageId, pinned),
    async pinnedMessages(conversationId) {
      const wires =
        conversationKind(conversationId) === 'dm'
          ? await pinnedDirectMessages(client, otherParticipant(conversationId, requireMeId()))
          : await pinnedGroupMessages(client, conversationId)
      return wires.map((wire) => toMessage(wire, conversationId))
    },
    mostLiked: async (groupId, period) => (await mostLiked(client, groupId, period)).map((wire) => toMessage(wire, groupId)),
    likedByMe: async (groupId) => (await likedByMe(client, groupId)).map((wire) => toMessage(wire, groupId)),
    likedForMe: async (groupId) => (await likedForMe(client, groupId)).map((wire) => toMessage(wire, groupId))
  })

  return {
    gateway,
    images: speakingCore({ uploadImage: (upload) => uploadPicture(client, upload) }),
    push: new LivePushFeed({
      config: () => settings.config,
      log,
      token,
      owner: attachedOwner,
      group: (groupId) => getGroup(client, groupId),
      groupMessage: async (groupId, messageId) => toMessage(await getGroupMessage(client, groupId, messageId), groupId)
    }),
    attach(newOwner) {
      if (owner !== null) throw new Error('A service connection serves one core.')
      owner = newOwner
    },
    settings
  }
}

interface LivePushFeedOptions {
  /** Read at every start, so a restart follows the settings just saved. */
  config: () => ServiceConfig
  log: Log
  token: () => IssuedToken | null
  owner: () => ConnectionOwner
  /** G4, for who reacted to the user's message. */
  group: (groupId: ConversationId) => Promise<WireGroup>
  /** MS3, for a message someone pinned or unpinned. */
  groupMessage: (groupId: ConversationId, messageId: string) => Promise<Message>
}

/** Follows the user's channel and the open conversation's, and hands core what arrives. */
class LivePushFeed implements PushFeed {
  readonly #options: LivePushFeedOptions
  #connection: PushConnection | null = null

  constructor(options: LivePushFeedOptions) {
    this.#options = options
  }

  start(me: Me): void {
    if (this.#connection !== null) return
    const owner = this.#options.owner()
    const { token, log } = this.#options
    const config = this.#options.config()
    // A subscribe carries the token: only to the push addresses of the deployment that issued it.
    const pushToken = (): string | null => {
      const issued = token()
      if (issued === null) return null
      if (isIssuedBy(issued.issuer, issuerOf(config))) return issued.token
      owner.tokenElsewhere()
      return null
    }
    const connection = new PushConnection({ config, getToken: pushToken, log })
    connection.on('status', (status) => owner.status(status))
    connection.on('reconnected', () => owner.live())
    connection.on('lineCreated', ({ message, wire }) => {
      if (isChangeNotice(wire)) return
      owner.message(message)
      const pinned = pinnedMessageId(wire)
      if (pinned === null) return
      this.#options.groupMessage(message.conversationId, pinned).then(
        (changed) => owner.messageChanged(changed),
        (error: unknown) => log.warn(`could not read message ${pinned} again after its pin changed`, error)
      )
    })
    connection.on('directMessageCreated', ({ message, wire }) => {
      if (!isChangeNotice(wire)) owner.message(message)
    })
    connection.on('membershipCreated', () => owner.conversationsChanged())
    connection.on('typing', (event) => {
      void typistOf(event, { meId: me.id, group: this.#options.group, log }).then((typist) => {
        if (typist !== null) owner.typing(typist)
      })
    })
    const ownChannel = userChannel(me.id)
    connection.on('messageUpdated', ({ message }) => owner.messageChanged(message))
    connection.on('messageDeleted', ({ message }) => owner.messageChanged(message))
    connection.on('favorite', (event) => {
      // The message's reactions come beside it, not in it.
      owner.messageChanged({ ...event.message, reactions: toReactions(event.reactions) })
      void reactionToYourMessage(event, { meId: me.id, ownChannel, group: this.#options.group, log }).then((reaction) => {
        if (reaction !== null) owner.reaction(reaction)
      })
    })
    connection.on('subscriptionRefused', ({ channel, error }) => {
      log.warn('push: a subscription was refused', error)
      if (channel === ownChannel && error.code === 401) owner.tokenRefused()
    })
    this.#connection = connection
    connection.follow(ownChannel)
    // Nothing is delivered before the service confirms the subscription, so whatever was sent
    // in between is fetched once it has.
    connection.whenSubscribed(ownChannel).then(
      () => owner.live(),
      () => undefined
    )
  }

  follow(conversationId: ConversationId): void {
    this.#connection?.follow(conversationChannel(conversationId))
  }

  unfollow(conversationId: ConversationId): void {
    this.#connection?.unfollow(conversationChannel(conversationId))
  }

  typing(conversationId: ConversationId): void {
    const me = this.#options.owner().me()
    if (me !== null) this.#connection?.sendTyping(conversationChannel(conversationId), me.id)
  }

  async stop(): Promise<void> {
    const connection = this.#connection
    this.#connection = null
    await connection?.close()
  }
}

/** A verification offers the text route only when it names both the number and the PIN to text it. */
function textRouteAddressOf(verification: WireVerification): TextRouteAddress | null {
  const { system_number: systemNumber, long_pin: longPin } = verification
  return systemNumber && longPin ? { systemNumber, longPin } : null
}
