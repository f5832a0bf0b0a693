// Direct-message chats (docs/protocol.md §11).
import { directMessageEnvelope, directMessagePage, wireChatList, type WireChat, type WireMessage } from './decoders'
import type { WireMessagePage } from './messages'
import { messageBody, type OutgoingMessage } from './outgoing-message'
import { pageQuery, type MessagePageRequest } from './paging'
import type { ServiceClient } from './service-client'

export interface ChatListRequest {
  page?: number
  /** 1–100; the service's default is 20. */
  perPage?: number
}

/** C1: newest activity first. A chat exists from its first message. */
export function listChats(client: ServiceClient, request: ChatListRequest = {}): Promise<WireChat[]> {
  return client.call({
    operation: 'C1 list chats',
    method: 'GET',
    host: 'base',
    path: '/chats',
    query: { page: request.page, per_page: request.perPage },
    schema: wireChatList
  })
}

/** C2. Paged like MS1; an empty page (304) comes back as no messages. */
export function listDirectMessages(client: ServiceClient, otherUserId: string, request: MessagePageRequest = {}): Promise<WireMessagePage> {
  return client.call({
    operation: 'C2 list direct messages',
    method: 'GET',
    host: 'base',
    path: '/direct_messages',
    query: { other_user_id: otherUserId, ...pageQuery(request) },
    schema: directMessagePage.transform((page) => ({ count: page.count ?? null, messages: page.direct_messages })),
    whenEmpty: () => ({ count: null, messages: [] })
  })
}

/** C3. 403 when the recipient has blocked the caller; 409 as MS2. */
export function sendDirectMessage(client: ServiceClient, recipientId: string, message: OutgoingMessage): Promise<WireMessage> {
  return client.call({
    operation: 'C3 send direct message',
    method: 'POST',
    host: 'base',
    path: '/direct_messages',
    body: { direct_message: { ...messageBody(message), recipient_id: recipientId } },
    schema: directMessageEnvelope
  })
}
