// What a message new to the app does there: the open conversation shows it, the list counts it
// and moves its conversation up, and the notifier considers it. It listens to the message flow, so
// a message does this once, whether push, a catch-up or the answer to a send brought it.
import type { ConversationId } from '@shared/conversation-id'
import type { Message } from '@shared/messages'
import type { Me } from '@shared/session'
import type { Blocks } from './blocks'
import type { Conversations } from './conversations'
import type { MessageFlow } from './message-flow'
import type { Notifications } from './notifications'
import type { EventSink } from './ports'
import type { Timelines } from './timelines'

export interface ArrivalsDependencies {
  conversations: Conversations
  timelines: Pick<Timelines, 'isLoaded'>
  notifications: Pick<Notifications, 'consider'>
  blocks: Pick<Blocks, 'heardFrom'>
  events: EventSink
  /** Who is signed in; null when nobody is. */
  me(): Me | null
  /** The conversation the user has open; null when none is. */
  openConversationId(): ConversationId | null
  /** The other person of a chat, for the signed-in user; null for a group, or when nobody is signed in. */
  chatPeer(conversationId: ConversationId): string | null
  /** Fetches the list again; rejects when it could not. */
  refreshConversations(): Promise<unknown>
}

export function showArrivals(flow: MessageFlow, deps: ArrivalsDependencies): void {
  const { conversations, events, notifications } = deps

  /** A message the list already counts (it was fetched for it): the renderer and the notifier still need it. */
  function announce(message: Message): void {
    events.emit('messages:received', message)
    notifications.consider({ kind: 'message', message })
  }

  flow.on('arrived', ({ message }) => {
    const me = deps.me()
    // The service tells the user they were removed from a group, or left it (on another device),
    // only by this system message: the list is fetched again, without the group.
    if (isAboutLeaving(message, me)) void deps.refreshConversations().catch(() => undefined)
    if (conversations.get(message.conversationId) === undefined) {
      // A first message in a new chat, or in a group we were just added to: the list must learn
      // of the conversation itself, and counts its unread messages as it does.
      deps.refreshConversations().then(
        () => announce(message),
        () => undefined
      )
      return
    }
    const inTimeline = deps.timelines.isLoaded(message.conversationId)
    const isNew = conversations.isNewest(message)
    if (!inTimeline && !isNew) return
    // The message goes to the renderer before the list, the badge and the read state are brought
    // up to date (the list goes whole, and the read state to disk): an open conversation shows
    // it without waiting for them.
    events.emit('messages:received', message)
    if (!isNew) return
    if (message.senderId === deps.chatPeer(message.conversationId)) deps.blocks.heardFrom(message.senderId)
    const isOpen = message.conversationId === deps.openConversationId()
    const fromMe = me !== null && message.senderId === me.id
    conversations.record(message, { read: isOpen || fromMe })
    notifications.consider({ kind: 'message', message })
  })
}

/** A system message saying `me` was removed from its group or left it. */
function isAboutLeaving(message: Message, me: Me | null): boolean {
  const kind = message.event?.kind
  return me !== null && message.system && (kind === 'removed' || kind === 'left') && message.aboutUserIds.includes(me.id)
}
