// A conversation is named by its group id, or for a direct-message chat by `"<lo>+<hi>"`: the two
// user ids, smaller number first (docs/protocol.md §2.1).

/** A group id, or a chat id `"<lo>+<hi>"` for a direct-message conversation. */
export type ConversationId = string

export type ConversationKind = 'group' | 'dm'

export function conversationKind(id: ConversationId): ConversationKind {
  return id.includes('+') ? 'dm' : 'group'
}

export function chatId(userA: string, userB: string): ConversationId {
  const [lo, hi] = compareIds(userA, userB) <= 0 ? [userA, userB] : [userB, userA]
  return `${lo}+${hi}`
}

/** The other participant of a chat, seen from `meId`. */
export function otherParticipant(chat: ConversationId, meId: string): string {
  const [lo = '', hi = ''] = chat.split('+')
  return lo === meId ? hi : lo
}

/** Orders decimal id strings by their numeric value; they can exceed 2^53, so never as numbers. */
export function compareIds(a: string, b: string): number {
  const x = a.replace(/^0+(?=\d)/, '')
  const y = b.replace(/^0+(?=\d)/, '')
  if (x.length !== y.length) return x.length - y.length
  return x < y ? -1 : x > y ? 1 : 0
}
