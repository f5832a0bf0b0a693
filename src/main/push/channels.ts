// Push channel names (docs/protocol.md §14.2).
import { conversationKind, type ConversationId } from '@shared/conversation-id'

export function userChannel(userId: string): string {
  return `/user/${userId}`
}

export function groupChannel(groupId: string): string {
  return `/group/${groupId}`
}

/** The gateway writes a chat id `a+b` as `a_b` (a `+` in a DM channel is refused). */
export function directMessageChannel(chatId: string): string {
  return `/direct_message/${chatId.replace('+', '_')}`
}

/** The live channel of a conversation: a chat id's DM channel, otherwise the group's. */
export function conversationChannel(conversationId: ConversationId): string {
  return conversationKind(conversationId) === 'dm' ? directMessageChannel(conversationId) : groupChannel(conversationId)
}

/** The conversation a `/group/…` or `/direct_message/…` channel carries, or null for other channels. */
export function conversationOfChannel(channel: string): ConversationId | null {
  const group = /^\/group\/(\d+)$/.exec(channel)
  if (group?.[1] !== undefined) return group[1]
  const dm = /^\/direct_message\/(\d+)_(\d+)$/.exec(channel)
  if (dm?.[1] !== undefined && dm[2] !== undefined) return `${dm[1]}+${dm[2]}`
  return null
}
