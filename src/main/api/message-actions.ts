// Editing, deleting and pinning messages (docs/protocol.md §10, §11).
import { z } from 'zod'
import { wireMessage, type WireMessage } from './decoders'
import { path, type ServiceClient } from './service-client'

/** MS3, MS4 and C4 answer bare (v4): `{"message": M}`. */
const oneMessage = z.looseObject({ message: wireMessage }).transform((answer) => answer.message)

const pinnedMessages = z.looseObject({ messages: z.array(wireMessage) }).transform((answer) => answer.messages)

/** MS3: one message as it is now; a deleted one comes back as its tombstone. */
export function getGroupMessage(client: ServiceClient, groupId: string, messageId: string): Promise<WireMessage> {
  return client.call({ operation: 'MS3 show message', method: 'GET', host: 'v4', path: path`/groups/${groupId}/messages/${messageId}`, schema: oneMessage })
}

/** MS4: the sender's own message, within 15 minutes of sending; anything else is a 403. */
export function editGroupMessage(client: ServiceClient, groupId: string, messageId: string, text: string): Promise<WireMessage> {
  return client.call({
    operation: 'MS4 edit message',
    method: 'PUT',
    host: 'v4',
    path: path`/groups/${groupId}/messages/${messageId}`,
    body: { text },
    schema: oneMessage
  })
}

/** C4: as MS4, in a chat. */
export function editDirectMessage(client: ServiceClient, chatId: string, messageId: string, text: string): Promise<WireMessage> {
  return client.call({
    operation: 'C4 edit direct message',
    method: 'PUT',
    host: 'v4',
    path: path`/direct_messages/${chatId}/messages/${messageId}`,
    body: { text },
    schema: oneMessage
  })
}

/** MS5: answers 204; who may delete is the conversation's deletion mode's call (403 otherwise). */
export function deleteMessage(client: ServiceClient, conversationId: string, messageId: string): Promise<void> {
  return client.call({
    operation: 'MS5 delete message',
    method: 'DELETE',
    host: 'base',
    path: path`/conversations/${conversationId}/messages/${messageId}`,
    schema: z.unknown().transform(() => undefined),
    whenEmpty: () => undefined
  })
}

/** MS6 (`pinned`) or MS7: a 400 means it already was pinned, or was not. */
export function setPinned(client: ServiceClient, conversationId: string, messageId: string, pinned: boolean): Promise<void> {
  return client.call({
    operation: pinned ? 'MS6 pin message' : 'MS7 unpin message',
    method: 'POST',
    host: 'base',
    path: pinned ? path`/conversations/${conversationId}/messages/${messageId}/pin` : path`/conversations/${conversationId}/messages/${messageId}/unpin`,
    schema: z.unknown().transform(() => undefined)
  })
}

/** MS8: a group's pinned messages, latest pin first. */
export function pinnedGroupMessages(client: ServiceClient, groupId: string): Promise<WireMessage[]> {
  return client.call({ operation: 'MS8 pinned messages', method: 'GET', host: 'base', path: path`/pinned/groups/${groupId}/messages`, schema: pinnedMessages })
}

/** C5: a chat's pinned messages, named by the other participant. */
export function pinnedDirectMessages(client: ServiceClient, otherUserId: string): Promise<WireMessage[]> {
  return client.call({
    operation: 'C5 pinned direct messages',
    method: 'GET',
    host: 'base',
    path: '/pinned/direct_messages',
    query: { other_user_id: otherUserId },
    schema: pinnedMessages
  })
}
