// The whole of main's behaviour, free of Electron: the Electron shell (`src/main/index.ts`) and
// browser mode (`src/main/browser/`) each build one of these and carry its handlers and events
// to the renderer over their own transport.
import { randomUUID } from 'node:crypto'
import type { Conversation, ConversationId, DesktopState, Me, Message, MuteDuration, PushStatus } from '../../shared/domain'
import type { InvokeHandlers } from '../../shared/ipc'
import { conversationKind, otherParticipant } from '../../shared/conversation-id'
import { pictureOrigins } from '../../shared/picture-origins'
import { issuerOf } from '../../shared/token-issuer'
import { accountHandlers } from './account'
import { AppError } from './app-error'
import { errorCodeOf } from './failures'
import { Blocks, unsentToBlocked } from './blocks'
import { Conversations } from './conversations'
import { Desktop } from './desktop'
import type { FeatureContext } from './feature-context'
import { GoneGroups, watchingForGoneGroups } from './gone-groups'
import { groupHandlers } from './groups'
import { MessageActions } from './message-actions'
import { muteFor } from './mute'
import { Notifications } from './notifications'
import { Outbox } from './outbox'
import { pagePictureEvents, withPagePictures, type PictureOrigins } from './page-pictures'
import { peopleHandlers } from './people'
import { Polls } from './polls'
import { TypingPublisher } from './typing'
import type { AppWindow, EventSink, IdleSource, Notifier, Preferences, ServiceConnection, ServiceGateway, StatusDisplay, TokenVault } from './ports'
import type { Log } from '../log/log'
import { Session } from './session'
import { serviceSettingsHandlers } from './service-settings'
import { ShareOrigins } from './share-origins'
import { Timelines } from './timelines'
import { RetryTimer } from './retry-timer'
import type { Timers } from './timers'
import { Uploads } from './uploads'

export interface AppCoreDependencies {
  /** The service, built by the composition root (`service/service-connection.ts` for a real one). */
  service: ServiceConnection
  vault: TokenVault
  preferences: Preferences
  notifier: Notifier
  window: AppWindow
  idle: IdleSource
  /** The tray in Electron; browser mode shows the state in the page only. */
  display: StatusDisplay
  /** What this host offers the user. */
  host: DesktopState['host']
  events: EventSink
  openExternal: (url: string) => Promise<void>
  log: Log
  /** Unix milliseconds; tests pass a clock of their own. */
  now?: () => number
  /** How core waits (checking for a text sign-in, say); tests may drive their own. */
  timers?: Timers
}

export interface AppCore {
  handlers: InvokeHandlers
  /** The host saw the screen lock or the computer go to sleep. */
  locked(): void
  /** The host saw the computer wake or the screen unlock. */
  resumed(): void
  /** Restores a kept session and connects push; resolves once that has been attempted. */
  start(): Promise<void>
  /** Disconnects push and stops timers; safe to call more than once. */
  stop(): Promise<void>
}

/** First and longest wait before a catch-up that failed is tried again. */
const FIRST_CATCH_UP_RETRY_MS = 1_000
const LONGEST_CATCH_UP_RETRY_MS = 30_000

export function createAppCore(deps: AppCoreDependencies): AppCore {
  const { log } = deps
  // Everything the page is told passes the picture rule on its way, judged by the settings in force then.
  const pagePictureOrigins: PictureOrigins = () => pictureOrigins(deps.service.settings.current().settings)
  const events = pagePictureEvents(deps.events, pagePictureOrigins)
  const now = deps.now ?? Date.now
  let openConversationId: ConversationId | null = null

  let pushStatus: PushStatus = 'offline'
  /** Whose unsent messages the outbox holds: they go out only as that account. */
  let outboxOwner: string | null = deps.preferences.get('account')?.id ?? null
  // A catch-up that failed (its read lost on the way, say) goes again on a timer: push is up by
  // then and asks for none, so what it missed would show only after the next outage.
  const catchUpRetry = new RetryTimer(
    { firstMs: FIRST_CATCH_UP_RETRY_MS, longestMs: LONGEST_CATCH_UP_RETRY_MS, ...(deps.timers === undefined ? {} : { timers: deps.timers }) },
    () => void catchUp()
  )

  // A group deleted, or one the user was put out of, is announced to nobody (docs/protocol.md
  // §14.5): whichever call on it first answers 404 takes it out of the list.
  const goneGroups: GoneGroups = new GoneGroups({
    isListed: (groupId): boolean => conversations.get(groupId)?.kind === 'group',
    readGroup: (groupId) => deps.service.gateway.groupDetails(groupId),
    gone: (groupId) => forgetGroup(groupId)
  })
  const gateway: ServiceGateway = watchingForGoneGroups(deps.service.gateway, goneGroups)
  const { push } = deps.service
  deps.service.attach({
    token: () => session.token,
    me: () => session.me,
    message: (message) => receive(message),
    reaction: (reaction) => notifications.consider({ kind: 'reaction', ...reaction }),
    messageChanged: (message) => events.emit('messages:updated', message),
    typing: (typist) => {
      const conversation = conversations.get(typist.conversationId)
      if (conversation === undefined) return
      const name = typist.name || (conversation.kind === 'dm' ? conversation.name : 'Someone')
      events.emit('typing:received', { ...typist, name })
    },
    conversationsChanged: () => void refreshConversations().catch(() => undefined),
    status: (status) => setPushStatus(status),
    live: () => void catchUp(),
    tokenRefused: () => void session.expire(),
    tokenElsewhere: () => void session.issuerLeft()
  })

  const session: Session = new Session({
    service: gateway,
    vault: deps.vault,
    preferences: deps.preferences,
    log,
    deployment: () => issuerOf(deps.service.settings.current().settings),
    now,
    ...(deps.timers === undefined ? {} : { timers: deps.timers }),
    changed: (state) => events.emit('session:changed', state),
    signedIn: (me) => {
      if (outboxOwner !== me.id) outbox.clear()
      outboxOwner = me.id
      push.start(me)
      // Chats whose first message never went are listed again with it, before it is sent again.
      refreshConversations()
        .then(() => conversations.restoreDrafts((userId) => gateway.person(userId)))
        .then(
          () => outbox.resume(),
          () => undefined
        )
    },
    signedOut: () => {
      // The outbox stays: what the user wrote goes out if they sign back in (and is dropped only
      // when someone else does). Everything read from the service is theirs no longer to show.
      void push.stop()
      catchUpRetry.cancel()
      outbox.stop()
      uploads.cancelAll()
      openConversationId = null
      shareOrigins.forget()
      blocks.forget()
      timelines.clear()
      conversations.clear()
      notifications.clear()
      desktop.reset()
      setPushStatus('offline')
    }
  })

  const conversations: Conversations = new Conversations({
    service: gateway,
    preferences: deps.preferences,
    now,
    changed: (list) => {
      events.emit('conversations:changed', list)
      desktop.unreadChanged()
    }
  })
  const desktop: Desktop = new Desktop({
    preferences: deps.preferences,
    idle: deps.idle,
    now,
    host: deps.host,
    unreadCount: () => conversations.badgeCount(),
    changed: (state) => {
      events.emit('desktop:changed', state)
      deps.display.show(state)
    }
  })
  const notifications = new Notifications({
    notifier: deps.notifier,
    situation: (conversationId) => {
      const me = session.me
      const conversation = conversations.get(conversationId)
      if (me === null || conversation === undefined) return null
      const state = desktop.state
      return {
        me,
        conversation,
        nickname: conversation.myNickname ?? null,
        lookingAt: deps.window.isFocused() ? openConversationId : null,
        status: state.status,
        globallyMuted: state.mute !== null,
        settings: state.settings
      }
    },
    open: (conversationId) => {
      deps.window.reveal()
      events.emit('conversations:focus', { conversationId })
    },
    reply: (conversationId, text) => {
      if (session.me === null || conversations.get(conversationId) === undefined) return
      outbox.enqueue(conversationId, text, randomUUID())
    }
  })
  const timelines = new Timelines(gateway)
  const shareOrigins = new ShareOrigins({ contactLink: () => gateway.contactLink() })
  const blocks = new Blocks({
    blocked: async () => (await gateway.blocks()).map((block) => block.userId),
    canMessage: async (userId) => (await gateway.profile(userId)).canMessage,
    changed: (userId, standing) => events.emit('people:standingChanged', { userId, ...standing })
  })
  const polls = new Polls(gateway, now)
  const typing = new TypingPublisher((conversationId) => push.typing(conversationId), now)
  const outbox = new Outbox({
    deliver: async (pending) => {
      try {
        return await gateway.sendMessage(pending.conversationId, pending.text, pending.clientId, pending.attachments ?? [])
      } catch (error) {
        // In a chat C3's one refusal is the other person blocking the user: the chat says so from now on.
        const peer = chatPeer(pending.conversationId)
        if (peer !== null && errorCodeOf(error) === 'FORBIDDEN') blocks.refusedBy(peer)
        throw error
      }
    },
    refusal: async (pending) => {
      const peer = chatPeer(pending.conversationId)
      if (peer === null || !(await blocks.blocks(peer))) return null
      return unsentToBlocked(conversations.get(pending.conversationId)?.name ?? 'this person')
    },
    recoverDelivered: async (pending) => {
      for (const message of await timelines.catchUp(pending.conversationId)) receive(message)
    },
    history: gateway,
    delivered: (message) => receive(message),
    changed: (conversationId, pending) => {
      conversations.unsentChanged(conversationId, pending)
      events.emit('outbox:changed', { conversationId, pending })
    },
    save: (all) => deps.preferences.set('outbox', all),
    chatPartnerName: (conversationId) => conversations.get(conversationId)?.name,
    groupRefused: async (conversationId) => {
      await handlers['groups:get']({ groupId: conversationId })
    }
  })
  outbox.restore(deps.preferences.get('outbox') ?? [])
  const messageActions = new MessageActions({
    service: gateway,
    conversation: (conversationId) => requireConversation(conversationId),
    changed: (message) => events.emit('messages:updated', message)
  })
  const uploads = new Uploads({
    upload: (upload) => deps.service.images.uploadImage(upload),
    progress: (progress) => events.emit('uploads:progress', progress)
  })

  function setPushStatus(status: PushStatus): void {
    pushStatus = status
    events.emit('push:status', status)
  }

  /**
   * Every message reaches the renderer, the list and the notifier through here, and only once:
   * pushed, caught up on, or sent. One of the user's own whose answer was lost, still waiting in
   * the outbox, leaves it once shown, by whichever of those ways it came back.
   */
  function receive(message: Message): void {
    show(message)
    outbox.arrived(message)
  }

  function show(message: Message): void {
    // The service tells the user they were removed from a group, or left it (on another device),
    // only by this system message: the list is fetched again, without the group.
    if (isAboutLeaving(message, session.me)) void refreshConversations().catch(() => undefined)
    if (conversations.get(message.conversationId) === undefined) {
      // A first message in a new chat, or in a group we were just added to: the list must learn
      // of the conversation itself, and counts its unread messages as it does.
      refreshConversations().then(
        () => announce(message),
        () => undefined
      )
      return
    }
    const inTimeline = timelines.isLoaded(message.conversationId)
    if (inTimeline && !timelines.accept(message)) return
    const isNew = conversations.isNewest(message)
    if (!inTimeline && !isNew) return
    // The message goes to the renderer before the list, the badge and the read state are brought
    // up to date (the list goes whole, and the read state to disk): an open conversation shows
    // it without waiting for them.
    events.emit('messages:received', message)
    if (!isNew) return
    if (message.senderId === chatPeer(message.conversationId)) blocks.heardFrom(message.senderId)
    const me = session.me
    const isOpen = message.conversationId === openConversationId
    const fromMe = me !== null && message.senderId === me.id
    conversations.record(message, { read: isOpen || fromMe })
    notifications.consider({ kind: 'message', message })
  }

  /** A message the list already counts (it was fetched for it): the renderer and the notifier still need it. */
  function announce(message: Message): void {
    events.emit('messages:received', message)
    notifications.consider({ kind: 'message', message })
  }

  async function refreshConversations(): Promise<Conversation[]> {
    const me = requireMe()
    try {
      return await conversations.refresh(me.id)
    } catch (error) {
      log.warn('could not refresh the conversation list', error)
      throw error
    }
  }

  /** A group the service no longer shows the user: it leaves the list, its history and push at once. */
  function forgetGroup(groupId: ConversationId): void {
    if (openConversationId === groupId) {
      push.unfollow(groupId)
      openConversationId = null
    }
    timelines.forget(groupId)
    conversations.forget(groupId)
  }

  /** Push is live: fetch what it missed in every conversation the user has open or had open. */
  async function catchUp(): Promise<void> {
    if (session.me === null) return
    catchUpRetry.cancel()
    outbox.resume()
    let complete = true
    await Promise.all(
      timelines.loadedConversations().map(async (conversationId) => {
        try {
          for (const message of await timelines.catchUp(conversationId)) receive(message)
        } catch (error) {
          complete = false
          log.warn(`could not catch up on ${conversationId}`, error)
        }
      })
    )
    if (complete) catchUpRetry.succeeded()
    else if (session.me !== null) catchUpRetry.schedule()
    await refreshConversations().catch(() => undefined)
    if (openConversationId !== null) conversations.markRead(openConversationId)
  }

  /**
   * Push from scratch, for the signed-in user and the open conversation: a push connection keeps
   * the token and the gateway it started with, so a new token (M4) or a new deployment (Settings ▸
   * Service) needs a new one.
   */
  async function followAgain(): Promise<void> {
    const me = session.me
    // Other settings may be another deployment, whose links live elsewhere.
    shareOrigins.forget()
    await push.stop()
    if (me === null) return
    push.start(me)
    if (openConversationId !== null) push.follow(openConversationId)
  }

  /** The other person of a chat, for the signed-in user; null for a group, or when nobody is signed in. */
  function chatPeer(conversationId: ConversationId): string | null {
    const me = session.me
    return me === null || conversationKind(conversationId) !== 'dm' ? null : otherParticipant(conversationId, me.id)
  }

  function requireMe(): Me {
    const me = session.me
    if (me === null) throw new AppError('UNAUTHENTICATED', 'Please sign in first.')
    return me
  }

  function requireConversation(conversationId: ConversationId): Conversation {
    requireMe()
    const conversation = conversations.get(conversationId)
    if (!conversation) throw new AppError('NOT_FOUND', 'That conversation is not in your list any more.')
    return conversation
  }

  const features: FeatureContext = {
    gateway,
    conversations,
    preferences: deps.preferences,
    events,
    blocks,
    shareOrigins,
    log,
    me: requireMe,
    refreshConversations,
    now,
    meChanged: (me) => session.updateMe(me),
    endSession: (notice) => session.expire(notice),
    refusalMeans: (notice, run) => session.refusalMeans(notice, run),
    switchToken: async (issue) => {
      await session.switchToken(issue)
      await followAgain()
    }
  }

  const handlers: InvokeHandlers = {
    ...groupHandlers(features),
    ...peopleHandlers(features),
    ...accountHandlers(features),
    ...serviceSettingsHandlers({
      settings: deps.service.settings,
      token: () => session.token,
      endSession: (notice) => session.expire(notice),
      followIssuer: (issuer) => session.followIssuer(issuer),
      followAgain
    }),
    'session:textInstead': () => session.textInstead(),
    'session:cancelTextRoute': async () => {
      session.cancelTextRoute()
      return null
    },
    'session:startOver': () => session.startOver(),
    'polls:create': async ({ conversationId, poll }) => {
      requireConversation(conversationId)
      const created = await polls.create(conversationId, poll)
      receive(created.message)
      return created.poll
    },
    'polls:get': async ({ conversationId, pollId }) => {
      requireConversation(conversationId)
      return polls.get(conversationId, pollId)
    },
    'polls:vote': async ({ conversationId, pollId, optionIds }) => {
      requireConversation(conversationId)
      return polls.vote(conversationId, pollId, optionIds)
    },
    'polls:end': async ({ conversationId, pollId }) => {
      requireConversation(conversationId)
      return polls.end(conversationId, pollId)
    },
    'polls:list': async ({ conversationId, next }) => {
      requireConversation(conversationId)
      return polls.list(conversationId, next)
    },
    'typing:typed': async ({ conversationId }) => {
      requireConversation(conversationId)
      typing.typed(conversationId)
      return null
    },
    'app:ready': async () => {
      // A renderer that (re)loads learns the connection's state now; it only changes rarely.
      events.emit('push:status', pushStatus)
      // A reload is how a person asks for what is new. The list here was fetched at sign-in and
      // on reconnects, and the service announces to nobody a group deleted or a change of its
      // settings (§14.5): the page gets this list now and the service's own when it comes.
      if (session.me !== null) void refreshConversations().catch(() => undefined)
      return null
    },
    'session:get': async () => session.state,
    'session:signIn': ({ username, password }) => session.signIn(username, password),
    'session:sendCode': () => session.sendCode(),
    'session:confirmCode': ({ code }) => session.confirmCode(code),
    'session:cancelVerification': async () => {
      session.cancelVerification()
      return null
    },
    'session:signOut': async () => {
      await session.signOut()
      return null
    },
    'conversations:list': async () => (session.me === null ? [] : conversations.list()),
    'conversations:open': async ({ conversationId }) => {
      const conversation = requireConversation(conversationId)
      if (openConversationId !== null && openConversationId !== conversationId) push.unfollow(openConversationId)
      openConversationId = conversationId
      push.follow(conversationId)
      const page = await timelines.load(conversationId)
      const firstUnreadId = await conversations.firstUnreadId(conversationId, page.messages)
      const newest = page.messages.at(-1)
      if (newest) conversations.record(newest, { read: true })
      conversations.markRead(conversationId)
      notifications.seen(conversationId)
      return { conversation: conversations.get(conversationId) ?? conversation, ...page, pending: outbox.pendingIn(conversationId), firstUnreadId }
    },
    'conversations:close': async ({ conversationId }) => {
      if (openConversationId === conversationId) {
        push.unfollow(conversationId)
        openConversationId = null
      }
      return null
    },
    'messages:loadOlder': ({ conversationId, beforeId }) => {
      requireConversation(conversationId)
      return timelines.older(conversationId, beforeId)
    },
    'messages:send': async ({ conversationId, text, clientId, attachments }) => {
      requireConversation(conversationId)
      return outbox.enqueue(conversationId, text, clientId, attachments ?? [])
    },
    'uploads:start': async ({ uploadId, contentType, bytes }) => {
      requireMe()
      return { url: await uploads.start(uploadId, contentType, bytes) }
    },
    'uploads:cancel': async ({ uploadId }) => {
      uploads.cancel(uploadId)
      return null
    },
    'messages:retry': async ({ conversationId, clientId }) => {
      requireMe()
      return outbox.retry(conversationId, clientId)
    },
    'messages:discard': async ({ conversationId, clientId }) => {
      requireMe()
      outbox.discard(conversationId, clientId)
      return null
    },
    'conversations:mute': ({ conversationId, duration }) => muteConversation(conversationId, duration),
    'conversations:unmute': ({ conversationId }) => muteConversation(conversationId, null),
    'desktop:get': async () => desktop.state,
    'presence:set': async ({ status }) => desktop.setStatus(status),
    'presence:activity': async () => {
      desktop.activity()
      return null
    },
    'notifications:mute': async ({ duration }) => desktop.mute(duration),
    'notifications:unmute': async () => desktop.unmute(),
    'settings:update': async ({ changes }) => desktop.updateSettings(changes),
    'shell:openExternal': async ({ url }) => {
      await deps.openExternal(url)
      return null
    },
    'messages:react': ({ conversationId, messageId, emoji }) => messageActions.react(conversationId, messageId, emoji),
    'messages:unreact': ({ conversationId, messageId }) => messageActions.unreact(conversationId, messageId),
    'messages:edit': ({ conversationId, messageId, text }) => messageActions.edit(conversationId, messageId, text),
    'messages:delete': async ({ conversationId, messageId }) => {
      await messageActions.delete(conversationId, messageId)
      return null
    },
    'messages:setPinned': async ({ conversationId, messageId, pinned }) => {
      await messageActions.setPinned(conversationId, messageId, pinned)
      return null
    },
    'messages:pinned': ({ conversationId }) => messageActions.pinned(conversationId),
    'messages:mostLiked': ({ conversationId }) => messageActions.mostLiked(conversationId)
  }

  /** Mutes (or with null, unmutes) one conversation: a group on the service, so the mute follows the account; a chat here. */
  async function muteConversation(conversationId: ConversationId, duration: MuteDuration | null): Promise<Conversation> {
    const conversation = requireConversation(conversationId)
    const startedAt = now()
    const mute = duration === null ? null : muteFor(duration, startedAt)
    if (conversation.kind === 'group') {
      if (mute === null) await gateway.unmuteGroup(conversationId)
      else await gateway.muteGroup(conversationId, mute.until === null ? null : mute.until - startedAt)
    }
    return conversations.setMute(conversationId, mute) ?? conversation
  }

  return {
    handlers: withPagePictures(handlers, pagePictureOrigins),
    locked: () => desktop.locked(),
    resumed: () => {
      conversations.resumed()
      desktop.resumed()
    },
    start: async () => {
      desktop.start()
      await session.restore()
    },
    stop: async () => {
      catchUpRetry.cancel()
      session.stop()
      desktop.stop()
      conversations.stop()
      outbox.stop()
      await push.stop()
    }
  }
}

/** A system message saying `me` was removed from its group or left it. */
function isAboutLeaving(message: Message, me: Me | null): boolean {
  const kind = message.event?.kind
  return me !== null && message.system && (kind === 'removed' || kind === 'left') && message.aboutUserIds.includes(me.id)
}
