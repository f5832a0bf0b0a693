// Messages as core asks for them (core/ports.ts TimelineService, MessageActionService and sending),
// in the app's shapes: a conversation's history a page at a time, sending, and what the user does
// to one message. A chat is addressed on the wire by its other participant, a group by its id.
import type { ConversationId } from '@shared/conversation-id'
import type { Message } from '@shared/messages'
import { conversationKind, otherParticipant } from '@shared/conversation-id'
import { listDirectMessages, sendDirectMessage } from '../api/chats'
import { deleteMessage, editDirectMessage, editGroupMessage, pinnedDirectMessages, pinnedGroupMessages, setPinned } from '../api/message-actions'
import { listGroupMessages, sendGroupMessage, type WireMessagePage } from '../api/messages'
import type { MessagePageRequest } from '../api/paging'
import { likedByMe, likedForMe, mostLiked, react, unreact } from '../api/reactions'
import type { ServiceClient } from '../api/service-client'
import { toMessage, toReactions } from '../api/to-domain'
import type { MessageActionService, ServiceGateway, TimelineService } from '../core/ports'

export interface MessageGatewayOptions {
  client: ServiceClient
  meId: () => string
}

export function messageGateway({ client, meId }: MessageGatewayOptions): TimelineService & MessageActionService & Pick<ServiceGateway, 'sendMessage'> {
  async function messagePage(conversationId: ConversationId, request: MessagePageRequest): Promise<Message[]> {
    const page: WireMessagePage =
      conversationKind(conversationId) === 'dm'
        ? await listDirectMessages(client, otherParticipant(conversationId, meId()), request)
        : await listGroupMessages(client, conversationId, request)
    const messages = page.messages.map((wire) => toMessage(wire, conversationId))
    // `after` pages come oldest first, the others newest first (§10); the app keeps history oldest first.
    return request.anchor !== undefined && 'after' in request.anchor ? messages : messages.reverse()
  }

  return {
    latestMessages: (conversationId, limit) => messagePage(conversationId, { limit }),
    messagesBefore: (conversationId, beforeId, limit) => messagePage(conversationId, { anchor: { before: beforeId }, limit }),
    messagesAfter: (conversationId, afterId, limit) => messagePage(conversationId, { anchor: { after: afterId }, limit }),
    async sendMessage(conversationId, text, sourceGuid, attachments = []) {
      const wire =
        conversationKind(conversationId) === 'dm'
          ? await sendDirectMessage(client, otherParticipant(conversationId, meId()), { sourceGuid, text, attachments })
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
          ? await pinnedDirectMessages(client, otherParticipant(conversationId, meId()))
          : await pinnedGroupMessages(client, conversationId)
      return wires.map((wire) => toMessage(wire, conversationId))
    },
    mostLiked: async (groupId, period) => (await mostLiked(client, groupId, period)).map((wire) => toMessage(wire, groupId)),
    likedByMe: async (groupId) => (await likedByMe(client, groupId)).map((wire) => toMessage(wire, groupId)),
    likedForMe: async (groupId) => (await likedForMe(client, groupId)).map((wire) => toMessage(wire, groupId))
  }
}
