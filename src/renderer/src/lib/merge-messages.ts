import type { Message } from '../../../shared/domain'

/**
 * Joins two runs of messages into one, oldest first, each id once. The later copy of a message
 * wins, so an edit or a deletion that arrives live replaces what was loaded.
 */
export function mergeMessages(older: Message[], newer: Message[]): Message[] {
  const byId = new Map<string, Message>()
  for (const message of older) byId.set(message.id, message)
  for (const message of newer) byId.set(message.id, message)
  // Stable sort: messages from the same second keep the order the service gave them.
  return [...byId.values()].toSorted((a, b) => a.createdAt - b.createdAt)
}
