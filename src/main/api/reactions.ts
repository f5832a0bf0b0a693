// Reactions and the likes lists (docs/protocol.md §12).
import { z } from 'zod'
import type { LikePeriod } from '@shared/messages'
import { wireMessage, type WireMessage } from './decoders'
import { path, type ServiceClient } from './service-client'

/** RX1 and RX2 answer the message's whole list of reactions afterwards; entries are read by `toReactions`. */
const reactionsAnswer = z
  .looseObject({ reactions: z.array(z.unknown()).nullish().catch(null) })
  .transform((answer) => answer.reactions ?? [])

const likedMessages = z.looseObject({ messages: z.array(wireMessage) }).transform((answer) => answer.messages)

/** RX1: `emoji` must be one of the fifteen permitted codes; it replaces the caller's earlier reaction. */
export function react(client: ServiceClient, conversationId: string, messageId: string, emoji: string): Promise<unknown[]> {
  return client.call({
    operation: 'RX1 react',
    method: 'POST',
    host: 'base',
    path: path`/messages/${conversationId}/${messageId}/like`,
    body: { like_icon: { type: 'unicode', code: emoji } },
    schema: reactionsAnswer
  })
}

/** RX2: a caller with no reaction changes nothing. */
export function unreact(client: ServiceClient, conversationId: string, messageId: string): Promise<unknown[]> {
  return client.call({
    operation: 'RX2 unreact',
    method: 'POST',
    host: 'base',
    path: path`/messages/${conversationId}/${messageId}/unlike`,
    schema: reactionsAnswer
  })
}

/** RX3: the group's messages of the period with a reaction, most reactions first. */
export function mostLiked(client: ServiceClient, groupId: string, period: LikePeriod): Promise<WireMessage[]> {
  return client.call({
    operation: 'RX3 most liked',
    method: 'GET',
    host: 'base',
    path: path`/groups/${groupId}/likes`,
    query: { period },
    schema: likedMessages
  })
}

/** RX4: what the caller reacted to, latest reaction first. */
export function likedByMe(client: ServiceClient, groupId: string): Promise<WireMessage[]> {
  return client.call({ operation: 'RX4 my likes', method: 'GET', host: 'base', path: path`/groups/${groupId}/likes/mine`, schema: likedMessages })
}

/** RX5: the caller's messages someone else reacted to, newest first. */
export function likedForMe(client: ServiceClient, groupId: string): Promise<WireMessage[]> {
  return client.call({ operation: 'RX5 likes for me', method: 'GET', host: 'base', path: path`/groups/${groupId}/likes/for_me`, schema: likedMessages })
}
