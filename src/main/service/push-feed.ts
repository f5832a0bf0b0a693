// The push feed core follows (core/ports.ts PushFeed): one PushConnection for the signed-in user,
// whose events are handed to core in the app's shapes. System messages that only announce a change
// shown elsewhere are left out, a pin is read again, and typists and reactors are named.
import type { ConversationId } from '@shared/conversation-id'
import type { Message } from '@shared/messages'
import type { Me } from '@shared/session'
import { isIssuedBy, issuerOf, type IssuedToken } from '@shared/token-issuer'
import type { WireGroup } from '../api/decoders'
import type { ServiceConfig } from '../api/service-config'
import { toReactions } from '../api/to-domain'
import type { ConnectionOwner, PushFeed } from '../core/ports'
import type { Log } from '../log/log'
import { conversationChannel, userChannel } from '../push/channels'
import { PushConnection } from '../push/push-connection'
import { isChangeNotice } from './change-notices'
import { pinnedMessageId } from './pins'
import { reactionToYourMessage } from './reactions'
import { typistOf } from './typists'

export interface LivePushFeedOptions {
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
export class LivePushFeed implements PushFeed {
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
    // A connection stopped (a sign-out, a new token) may say `offline` seconds later, once its
    // goodbye has timed out: by then a newer one may be live, and its status is the one that holds.
    connection.on('status', (status) => {
      if (this.#connection === connection || this.#connection === null) owner.status(status)
    })
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
