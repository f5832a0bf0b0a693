// The conversation list and the one conversation open: opening it reads its newest page, marks
// it read and has push follow it; muting one.
import type { MuteDuration } from '@shared/attention'
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { InvokeHandlers } from '@shared/window-api'
import type { FeatureContext } from './feature-context'
import { muteFor } from './mute'
import type { Notifications } from './notifications'
import type { OpenConversation } from './open-conversation'
import type { CatchUp } from './catch-up'
import type { Outbox } from './outbox'
import type { Timelines } from './timelines'
import type { KeptHistory } from './kept-history'

type ConversationChannel = Extract<keyof InvokeHandlers, `conversations:${string}`>
export type ConversationHandlers = Pick<InvokeHandlers, ConversationChannel>

export interface ConversationParts {
  opened: OpenConversation
  timelines: Pick<Timelines, 'load' | 'after'>
  catchUp: Pick<CatchUp, 'conversation'>
  notifications: Pick<Notifications, 'seen'>
  outbox: Pick<Outbox, 'pendingIn'>
  kept: Pick<KeptHistory, 'pictures' | 'openAt'>
  /** Someone is signed in. */
  signedIn(): boolean
}

export function conversationHandlers(context: FeatureContext, parts: ConversationParts): ConversationHandlers {
  const { conversations, gateway } = context

  /** Mutes (or with null, unmutes) one conversation: a group on the service, so the mute follows the account; a chat here. */
  async function mute(conversationId: ConversationId, duration: MuteDuration | null): Promise<Conversation> {
    const conversation = context.conversation(conversationId)
    const startedAt = context.now()
    const mute = duration === null ? null : muteFor(duration, startedAt)
    if (conversation.kind === 'group') {
      if (mute === null) await gateway.unmuteGroup(conversationId)
      else await gateway.muteGroup(conversationId, mute.until === null ? null : mute.until - startedAt)
    }
    return conversations.setMute(conversationId, mute) ?? conversation
  }

  return {
    'conversations:list': async () => (parts.signedIn() ? conversations.list() : []),
    'conversations:open': async ({ conversationId }) => {
      const conversation = context.conversation(conversationId)
      parts.opened.open(conversationId)
      const { fromDevice, ...page } = await parts.timelines.load(conversationId)
      // Kept on this device: what the service has that is newer comes after, as it arrives.
      if (fromDevice) void parts.catchUp.conversation(conversationId)
      // Where "New messages" goes is a nicety: out of reach of the service, the history opens without it.
      const readAfter = (afterId: string, limit: number) => parts.timelines.after(conversationId, afterId, limit)
      const firstUnreadId = await conversations.firstUnreadId(conversationId, page.messages, readAfter).catch(() => null)
      const newest = page.messages.at(-1)
      if (newest) conversations.record(newest, { read: true })
      conversations.markRead(conversationId)
      parts.notifications.seen(conversationId)
      return { conversation: conversations.get(conversationId) ?? conversation, ...page, pending: parts.outbox.pendingIn(conversationId), firstUnreadId }
    },
    'conversations:close': async ({ conversationId }) => {
      parts.opened.close(conversationId)
      return null
    },
    'conversations:leftOpen': async () => ({ conversationId: parts.signedIn() ? await parts.opened.leftOpen() : null }),
    'conversations:openAt': async (request) => {
      context.conversation(request.conversationId)
      return parts.kept.openAt(request)
    },
    'conversations:pictures': async ({ conversationId, beforeId }) => {
      context.conversation(conversationId)
      return parts.kept.pictures(conversationId, beforeId)
    },
    'conversations:mute': ({ conversationId, duration }) => mute(conversationId, duration),
    'conversations:unmute': ({ conversationId }) => mute(conversationId, null)
  }
}
