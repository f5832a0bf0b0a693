// The whole of main's behaviour, free of Electron: the Electron shell (`src/main/index.ts`) and
// browser mode (`src/main/browser/`) each build one of these and carry its handlers and events
// to the renderer over their own transport. This file only wires the parts together: each
// feature's handlers live in a module of their own, and every message goes by the message flow.
import { randomUUID } from 'node:crypto'
import type { DesktopState } from '@shared/attention'
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Me, PushStatus } from '@shared/session'
import type { InvokeHandlers } from '@shared/window-api'
import { conversationKind, otherParticipant } from '@shared/conversation-id'
import { pictureOrigins } from '@shared/picture-origins'
import { issuerOf } from '@shared/token-issuer'
import { accountHandlers } from './account'
import { AppError } from './app-error'
import { showArrivals } from './arrivals'
import { Attention } from './attention'
import { Backfill } from './backfill'
import { Blocks, unsentToBlocked } from './blocks'
import { CatchUp } from './catch-up'
import { conversationHandlers } from './conversation-handlers'
import { Conversations } from './conversations'
import { desktopHandlers } from './desktop-handlers'
import { DraftKeeper, draftHandlers } from './drafts'
import { errorCodeOf } from './failures'
import { Exporter, exportHandlers } from './exports'
import type { FeatureContext } from './feature-context'
import { GoneGroups, watchingForGoneGroups } from './gone-groups'
import { KeptHistory } from './kept-history'
import { KeptPageCheck } from './kept-page-check'
import { keepingReads } from './kept-reads'
import { groupHandlers } from './groups'
import { MessageActions } from './message-actions'
import { MessageFlow } from './message-flow'
import { messageHandlers } from './message-handlers'
import { Notifications } from './notifications'
import { OpenConversation } from './open-conversation'
import { Outbox } from './outbox'
import { OutboxKeeper } from './outbox-keeper'
import { pagePictureEvents, withPagePictures, type KeptPictureAddress, type PictureOrigins } from './page-pictures'
import { PictureKeeper } from './picture-keeper'
import { peopleHandlers } from './people'
import { pollHandlers } from './poll-handlers'
import { Polls } from './polls'
import { Reachability, watchingReach } from './reachability'
import type { AppWindow, EventSink, ExportFiles, IdleSource, KeptPicture, LocalStore, LocalStores, Notifier, PictureUsage, Preferences, ServiceConnection, ServiceGateway, StatusDisplay, TokenVault } from './ports'
import type { Log } from '../log/log'
import { Session } from './session'
import { readSettings } from './settings'
import { sessionHandlers } from './session-handlers'
import { serviceSettingsHandlers } from './service-settings'
import { ShareOrigins } from './share-origins'
import { StoreKeeper } from './store-keeper'
import { storageHandlers } from './storage-handlers'
import { MessageSearch } from './message-search'
import { Timelines } from './timelines'
import { ServiceHold } from './service-hold'
import type { Timers } from './timers'
import { TypingPublisher } from './typing'
import { uploadHandlers } from './upload-handlers'
import { UserRequests } from './user-requests'
import { Uploads } from './uploads'

export const NOT_REMOVED_NOTICE = 'Some of the messages kept on this device could not be removed at sign-out. Signing in and out again tries once more.'

export interface AppCoreDependencies {
  /** The service, built by the composition root (`service/service-connection.ts` for a real one). */
  service: ServiceConnection
  vault: TokenVault
  preferences: Preferences
  /** Where each account's conversations and messages are kept on this device; absent: nothing is kept. */
  stores?: LocalStores
  /**
   * The address at which this host serves the page a picture kept on this device (hosting/kept-pictures.ts);
   * absent: the page loads every picture from its own address.
   */
  keptPictureAddress?: (url: string) => string
  /** Where an export's file is saved (Electron asks the person); absent: it goes to the page, which saves it. */
  exportFiles?: ExportFiles
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
  /** Every message the app learns of or changes, for whoever keeps a copy of them. */
  messages: Pick<MessageFlow, 'on'>
  /** The pictures kept on this device, for the host's local picture addresses and the storage settings. */
  pictures: {
    /** The picture for the page: the kept one, or fetched now from an address the page may load it from; null when neither works. */
    serve(url: string): Promise<KeptPicture | null>
    /** How much room the signed-in account's pictures take, of how much; null while none is open. */
    usage(): PictureUsage | null
  }
  /** The host saw the screen lock or the computer go to sleep. */
  locked(): void
  /** The host saw the computer wake or the screen unlock. */
  resumed(): void
  /** Restores a kept session (with what it left unsent) and connects push; resolves once that has been attempted. */
  start(): Promise<void>
  /** Disconnects push and stops timers; safe to call more than once. */
  stop(): Promise<void>
}

export function createAppCore(deps: AppCoreDependencies): AppCore {
  const { log } = deps
  // Everything the page is told passes the picture rule on its way, judged by the settings in force then.
  const pagePictureOrigins: PictureOrigins = () => pictureOrigins(deps.service.settings.current().settings)
  // A message's picture kept on this device goes to the page at the host's address for it.
  const keptPictureAddress: KeptPictureAddress = (url) =>
    deps.keptPictureAddress !== undefined && pictures?.has(url) === true ? deps.keptPictureAddress(url) : null
  const events = pagePictureEvents(deps.events, pagePictureOrigins, keptPictureAddress)
  const now = deps.now ?? Date.now
  const timers = deps.timers === undefined ? {} : { timers: deps.timers }
  const { push } = deps.service

  let pushStatus: PushStatus = 'offline'
  /** Whose store is open: a sign-out by the user removes it. */
  let signedInAs: string | null = null
  /** Counts sign-ins, sign-outs and the stop: what waited for a turn of the session can tell it is over. */
  let sessionTurn = 0
  /** Settles once the signed-in account's unsent messages are back from its store. */
  let outboxBack: Promise<void> = Promise.resolve()
  /**
   * Settles once what the signed-in account's store keeps (its list and outbox) is back, or there is
   * none, and the list has then been asked of the service again (whether it answered or not). The
   * store opens in a thread of its own and push may be live before it is: catch-up goes on from what
   * is kept, and must ask for the list after that (of two lists asked for at once, only the later one
   * counts); and the outbox it resumes must find a chat listed only for its unsent first message in
   * the list, by name. So catch-up waits for this.
   */
  let keptShown: Promise<void> = Promise.resolve()

  const flow = new MessageFlow((event, error) => log.error(`a listener of the message flow's ${event} failed`, error))
  const storageNotice = (text: string): void => events.emit('storage:notice', { text })
  const keeper =
    deps.stores === undefined
      ? null
      : new StoreKeeper({
          stores: deps.stores,
          flow,
          log,
          now,
          notice: storageNotice,
          // A store found damaged after it opened was made anew: the history download starts over into it.
          replaced: () => {
            backfill.restart()
            drafts.rewrite()
          },
          ...timers
        })
  /** The signed-in account's store; null while there is none (or it is opening). */
  const localStore = (): LocalStore | null => keeper?.store ?? null
  // The outbox holds the signed-in account's unsent messages only, kept in that account's store.
  const outboxKeeper = new OutboxKeeper({ keeper, preferences: deps.preferences, log })
  const drafts = new DraftKeeper({ keeper, now })
  const pictures =
    keeper === null
      ? null
      : new PictureKeeper({
          flow,
          cache: () => localStore()?.pictures ?? null,
          download: (url) => deps.service.images.downloadPicture(url),
          origins: pagePictureOrigins,
          limitMb: readSettings(deps.preferences.get('settings')).pictureCacheLimitMb,
          log,
          now
        })
  const opened = new OpenConversation({ push, keeper })
  const reachability = new Reachability({ changed: (offline) => events.emit('connection:offline', { offline }), ...timers })
  // A group deleted, or one the user was put out of, is announced to nobody (docs/protocol.md
  // §14.5): whichever call on it first answers 404 takes it out of the list.
  const goneGroups: GoneGroups = new GoneGroups({
    isListed: (groupId): boolean => conversations.get(groupId)?.kind === 'group',
    readGroup: (groupId) => deps.service.gateway.groupDetails(groupId),
    gone: (groupId) => forgetGroup(groupId)
  })
  // Every answer, and every failure to reach the service, tells whether the app is offline.
  const watched: ServiceGateway = watchingReach(watchingForGoneGroups(deps.service.gateway, goneGroups), reachability)
  const hold = new ServiceHold(deps.timers)
  const held: ServiceGateway = hold.holding(watched)
  const gateway: ServiceGateway = keeper === null ? held : keepingReads(held, { store: localStore, keepGroup: (details) => keeper.keepGroup(details), keepPerson: (person) => keeper.keepPerson(person) })
  deps.service.attach({
    token: () => session.token,
    me: () => session.me,
    message: (message) => flow.arrive(message, 'pushed'),
    reaction: (reaction) => notifications.consider({ kind: 'reaction', ...reaction }),
    messageChanged: (message) => flow.changed({ kind: 'replaced', message }),
    typing: (typist) => {
      const conversation = conversations.get(typist.conversationId)
      if (conversation === undefined) return
      const name = typist.name || (conversation.kind === 'dm' ? conversation.name : 'Someone')
      events.emit('typing:received', { ...typist, name })
    },
    conversationsChanged: () => void refreshConversations().catch(() => undefined),
    status: (status) => setPushStatus(status),
    live: () => void keptShown.then(() => catchUp.run()),
    tokenRefused: () => void session.expire(),
    tokenElsewhere: () => void session.issuerLeft()
  })

  const session: Session = new Session({
    service: gateway,
    vault: deps.vault,
    preferences: deps.preferences,
    log,
    deployment: () => issuerOf(deps.service.settings.current().settings),
    keptLocally: async (accountId) => (await deps.stores?.has(accountId)) ?? false,
    now,
    ...timers,
    changed: (state) => events.emit('session:changed', state),
    signedIn: (me, { fromDevice: restored }) => {
      signedInAs = me.id
      const turn = ++sessionTurn
      const store = keeper?.open(me.id) ?? Promise.resolve(null)
      drafts.signedIn(me.id)
      opened.signedIn(me.id)
      // What this account left unsent comes back from its store, with what is written meanwhile.
      const outboxKept = outboxKeeper.signedIn(me.id, store).then((saved) => {
        if (session.me?.id === me.id) outbox.restore(saved)
      })
      outboxBack = outboxKept
      // What this device kept shows first; the service then brings it up to date. Chats whose
      // first message never went are listed again with it, before it is sent again.
      const fromDevice = showKept(me, store)
      // Restored from the device, it is shown before the service is asked anything (service-hold.ts).
      if (restored) hold.holdWhileShowing(fromDevice)
      // Push waits as the service's calls do: connecting loads faye and makes Node's first HTTP
      // request, work for the one thread that also answers the page while it draws the kept list.
      void hold.released().then(() => {
        if (turn !== sessionTurn) return
        push.start(me)
        // Whatever was opened meanwhile is followed now that there is a connection to follow it on.
        opened.followAgain()
      })
      const shown = fromDevice.then(() => outboxKept)
      const listed = shown.then(() => refreshConversations()).then(() => conversations.restoreDrafts((userId) => gateway.person(userId)))
      // Catch-up (and the outbox it resumes) waits for the list too: a chat listed only for its
      // unsent first message must be in it, by name, before that message goes out again.
      keptShown = listed.catch(() => undefined)
      listed.then(
        () => outbox.resume(),
        () => undefined
      )
    },
    signedOut: async (byUser) => {
      // What the user wrote stays in their store, to go out when they sign back in; nobody else
      // opens it. Everything read from the service is theirs no longer to show.
      const accountId = signedInAs
      signedInAs = null
      sessionTurn++
      void push.stop()
      catchUp.cancel()
      backfill.stop()
      outbox.release()
      outboxKeeper.signedOut()
      drafts.signedOut(byUser)
      uploads.cancelAll()
      exporter.cancelAll()
      opened.clear()
      shareOrigins.forget()
      blocks.forget()
      timelines.clear()
      flow.clear()
      pictures?.clear()
      conversations.clear()
      notifications.clear()
      attention.reset()
      setPushStatus('offline')
      if (!byUser) {
        void keeper?.close()
        return
      }
      // Signed out by the user (who said yes to dropping what waited unsent): nothing of the
      // account stays on this device, its stored messages, outbox, pictures and key included.
      if (keeper !== null && accountId !== null) {
        await keeper.remove(accountId).catch((error: unknown) => {
          log.error('could not remove what this device keeps of the account', error)
          events.emit('storage:notice', { text: NOT_REMOVED_NOTICE })
        })
      }
    }
  })

  const conversations: Conversations = new Conversations({
    service: gateway,
    preferences: deps.preferences,
    now,
    changed: (list) => {
      events.emit('conversations:changed', list)
      attention.unreadChanged()
      keeper?.keepConversations(list)
      pictures?.keepAvatars(list.map((conversation) => conversation.avatarUrl))
    }
  })
  const attention: Attention = new Attention({
    preferences: deps.preferences,
    idle: deps.idle,
    now,
    host: deps.host,
    unreadCount: () => conversations.badgeCount(),
    changed: (state) => {
      events.emit('desktop:changed', state)
      deps.display.show(state)
      pictures?.setLimit(state.settings.pictureCacheLimitMb)
    }
  })
  const notifications = new Notifications({
    notifier: deps.notifier,
    situation: (conversationId) => {
      const me = session.me
      const conversation = conversations.get(conversationId)
      if (me === null || conversation === undefined) return null
      const state = attention.state
      return {
        me,
        conversation,
        nickname: conversation.myNickname ?? null,
        lookingAt: deps.window.isFocused() ? opened.id : null,
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
  const timelines = new Timelines(gateway, flow, localStore, new KeptPageCheck({ service: gateway, flow, log }), () => keeper?.historySettled() ?? Promise.resolve())
  const shareOrigins = new ShareOrigins({ contactLink: () => gateway.contactLink() })
  const blocks = new Blocks({
    blocked: async () => (await gateway.blocks()).map((block) => block.userId),
    canMessage: async (userId) => (await gateway.profile(userId)).canMessage,
    changed: (userId, standing) => events.emit('people:standingChanged', { userId, ...standing })
  })
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
    recoverDelivered: (pending) => timelines.catchUp(pending.conversationId),
    history: gateway,
    delivered: (message) => flow.arrive(message, 'sent'),
    changed: (conversationId, pending) => {
      conversations.unsentChanged(conversationId, pending)
      events.emit('outbox:changed', { conversationId, pending })
    },
    save: (all) => outboxKeeper.save(all),
    chatPartnerName: (conversationId) => conversations.get(conversationId)?.name,
    groupRefused: async (conversationId) => {
      await handlers['groups:get']({ groupId: conversationId })
    }
  })
  const uploads = new Uploads({
    upload: (upload) => deps.service.images.uploadImage(upload),
    progress: (progress) => events.emit('uploads:progress', progress)
  })
  const catchUp = new CatchUp({
    timelines,
    conversations,
    opened,
    outbox,
    signedIn: () => session.me !== null,
    kept: localStore,
    // Older history downloads only once every conversation is up to date, and again after each outage.
    caughtUp: () => backfill.caughtUp(),
    refreshConversations,
    log,
    ...timers
  })
  const userRequests = new UserRequests()
  // Messages arriving live hold the history download up for a quiet moment (backfill.ts, LIVE_QUIET_MS).
  let liveAt: number | null = null
  flow.on('arrived', ({ source }) => {
    if (source !== 'caughtUp') liveAt = now()
  })
  const backfill = new Backfill({
    service: gateway,
    flow,
    store: localStore,
    conversations: () => conversations.list(),
    enabled: () => attention.settings.keepFullHistory,
    preferences: deps.preferences,
    pushConnected: () => pushStatus === 'connected',
    userBusy: () => userRequests.busy,
    liveAt: () => liveAt,
    changed: (download) => events.emit('storage:progress', download),
    log,
    now,
    ...timers
  })

  const search = new MessageSearch({
    store: localStore,
    me: () => session.me,
    conversations: () => conversations.list(),
    download: () => backfill.progress(),
    log
  })

  // Who hears of messages: the open conversation, the list and the notifier first, then the
  // outbox, whose copy of a message that came back goes once it shows.
  showArrivals(flow, {
    conversations,
    timelines,
    notifications,
    blocks,
    events,
    me: () => session.me,
    openConversationId: () => opened.id,
    chatPeer,
    refreshConversations
  })
  flow.on('arrived', ({ message }) => {
    outbox.arrived(message)
    // The others count the user stopped typing once their message lands: the next keystroke must say so again.
    if (message.senderId === session.me?.id) typing.messageLanded(message.conversationId)
  })
  flow.on('changed', (change) => {
    // The renderer updates a message of its own doing from the answer it asked for; the service's
    // new copy of a message goes to it, and to the list's preview.
    if (change.kind !== 'replaced') return
    events.emit('messages:updated', change.message)
    conversations.replaced(change.message)
  })

  /**
   * Shows the list the account's store kept, once it is open, if the service has not answered
   * first; answers whether it kept any conversation.
   */
  async function showKept(me: Me, opening: Promise<LocalStore | null>): Promise<boolean> {
    const store = await opening
    if (!store || session.me?.id !== me.id) return false
    const kept = await store.conversations().catch((error: unknown) => {
      log.warn('could not read the conversation list kept on this device', error)
      return []
    })
    conversations.showKept(kept)
    return kept.length > 0
  }

  function setPushStatus(status: PushStatus): void {
    pushStatus = status
    keeper?.pushLive(status === 'connected')
    reachability.pushChanged(status)
    events.emit('push:status', status)
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
    opened.close(groupId)
    timelines.forget(groupId)
    flow.forget(groupId)
    conversations.forget(groupId)
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
    opened.followAgain()
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
    return conversations.listed(conversationId)
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
    conversation: requireConversation,
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

  const exporter = new Exporter({
    service: gateway,
    flow,
    store: localStore,
    settled: () => keeper?.settled() ?? Promise.resolve(),
    conversation: requireConversation,
    picture: async (url) => (pictures === null ? null : pictures.serve(url)),
    progress: (progress) => events.emit('exports:progress', progress),
    chunk: (exportId, text) => events.emit('exports:chunk', { exportId, text }),
    ...(deps.exportFiles === undefined ? {} : { files: deps.exportFiles }),
    now,
    ...timers
  })

  const handlers: InvokeHandlers = {
    ...sessionHandlers(features, session, () => ({ push: pushStatus, offline: reachability.offline }), () => outbox.size),
    ...conversationHandlers(features, { opened, timelines, catchUp, notifications, outbox, kept: new KeptHistory(localStore), signedIn: () => session.me !== null }),
    ...messageHandlers(features, {
      timelines,
      outbox,
      typing,
      actions: new MessageActions({ service: gateway, conversation: requireConversation, changed: (change) => flow.changed(change) })
    }),
    ...pollHandlers(features, new Polls(gateway, now), flow),
    ...uploadHandlers(features, uploads),
    ...draftHandlers(features, drafts),
    ...desktopHandlers(attention, deps.openExternal),
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
    ...exportHandlers(exporter),
    ...storageHandlers({ backfill, store: localStore, settings: () => attention.settings, updateSettings: (changes) => attention.updateSettings(changes), log }),
    'search:messages': (request) => search.search(request)
  }

  return {
    handlers: withPagePictures(userRequests.track(handlers), pagePictureOrigins, keptPictureAddress),
    messages: flow,
    pictures: {
      serve: async (url) => (pictures === null ? null : pictures.serve(url)),
      usage: () => pictures?.usage() ?? null
    },
    locked: () => attention.locked(),
    resumed: () => {
      conversations.resumed()
      attention.resumed()
    },
    start: async () => {
      attention.start()
      await session.restore()
      await outboxBack
    },
    stop: async () => {
      sessionTurn++
      catchUp.cancel()
      backfill.stop()
      session.stop()
      attention.stop()
      conversations.stop()
      outbox.stop()
      reachability.stop()
      await push.stop()
      await keeper?.close()
    }
  }
}
