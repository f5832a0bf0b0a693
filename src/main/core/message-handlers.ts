// Writing in a conversation and acting on its messages: sending through the outbox, paging back
// through the history, reacting, editing, deleting, pinning, and saying the user is typing.
import type { InvokeHandlers } from '@shared/window-api'
import type { FeatureContext } from './feature-context'
import type { MessageActions } from './message-actions'
import type { Outbox } from './outbox'
import type { Timelines } from './timelines'
import type { TypingPublisher } from './typing'

type MessageChannel = Extract<keyof InvokeHandlers, `messages:${string}` | `typing:${string}`>
export type MessageHandlers = Pick<InvokeHandlers, MessageChannel>

export interface MessageParts {
  timelines: Pick<Timelines, 'older'>
  outbox: Outbox
  actions: MessageActions
  typing: TypingPublisher
}

export function messageHandlers(context: FeatureContext, parts: MessageParts): MessageHandlers {
  const { outbox, actions } = parts
  return {
    'messages:loadOlder': ({ conversationId, beforeId }) => {
      context.conversation(conversationId)
      return parts.timelines.older(conversationId, beforeId)
    },
    'messages:send': async ({ conversationId, text, clientId, attachments }) => {
      context.conversation(conversationId)
      const pending = outbox.enqueue(conversationId, text, clientId, attachments ?? [])
      // The message is on disk before the page shows it as waiting.
      await outbox.saved()
      return outbox.waiting(clientId) ?? pending
    },
    'messages:retry': async ({ conversationId, clientId }) => {
      context.me()
      return outbox.retry(conversationId, clientId)
    },
    'messages:discard': async ({ conversationId, clientId }) => {
      context.me()
      outbox.discard(conversationId, clientId)
      return null
    },
    'messages:react': ({ conversationId, messageId, emoji }) => actions.react(conversationId, messageId, emoji),
    'messages:unreact': ({ conversationId, messageId }) => actions.unreact(conversationId, messageId),
    'messages:edit': ({ conversationId, messageId, text }) => actions.edit(conversationId, messageId, text),
    'messages:delete': async ({ conversationId, messageId }) => {
      await actions.delete(conversationId, messageId)
      return null
    },
    'messages:setPinned': async ({ conversationId, messageId, pinned }) => {
      await actions.setPinned(conversationId, messageId, pinned)
      return null
    },
    'messages:pinned': ({ conversationId }) => actions.pinned(conversationId),
    'messages:mostLiked': ({ conversationId }) => actions.mostLiked(conversationId),
    'typing:typed': async ({ conversationId }) => {
      context.conversation(conversationId)
      parts.typing.typed(conversationId)
      return null
    }
  }
}
