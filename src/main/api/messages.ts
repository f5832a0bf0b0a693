// Group messages (docs/protocol.md §10).
import { groupMessageEnvelope, groupMessagePage, type WireMessage } from './decoders'
import { messageBody, type OutgoingMessage } from './outgoing-message'
import { pageQuery, type MessagePageRequest } from './paging'
import { path, type ServiceClient } from './service-client'

export interface WireMessagePage {
  /** Every message in the conversation, when the service says; `null` on an empty page. */
  count: number | null
  messages: WireMessage[]
}

/** MS1. An empty page arrives as 304 with no body and comes back as no messages. */
export function listGroupMessages(client: ServiceClient, groupId: string, request: MessagePageRequest = {}): Promise<WireMessagePage> {
  return client.call({
    operation: 'MS1 list messages',
    method: 'GET',
    host: 'base',
    path: path`/groups/${groupId}/messages`,
    query: pageQuery(request),
    schema: groupMessagePage.transform((page) => ({ count: page.count ?? null, messages: page.messages })),
    whenEmpty: () => ({ count: null, messages: [] })
  })
}

/** MS2. 409 means this `sourceGuid` was already accepted: the message is there, not lost. */
export function sendGroupMessage(client: ServiceClient, groupId: string, message: OutgoingMessage): Promise<WireMessage> {
  return client.call({
    operation: 'MS2 send message',
    method: 'POST',
    host: 'base',
    path: path`/groups/${groupId}/messages`,
    body: { message: messageBody(message) },
    schema: groupMessageEnvelope.transform((value) => value.message)
  })
}
