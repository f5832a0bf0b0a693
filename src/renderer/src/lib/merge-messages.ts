import type { Message } from '@shared/messages'
import { compareIds } from '@shared/conversation-id'

/**
 * Joins two runs of messages into one, oldest first, each id once. The later copy of a message
 * wins, so an edit or a deletion that arrives live replaces what was loaded.
 */
export function mergeMessages(older: Message[], newer: Message[]): Message[] {
  const byId = new Map<string, Message>()
  for (const message of older) byId.set(message.id, message)
  for (const message of newer) byId.set(message.id, message)
  // Timestamps are whole seconds, so many messages share one: the service's ids grow with time and
  // settle the order within a second, whichever run each message came in.
  return [...byId.values()].toSorted(inHistoryOrder)
}

/**
 * One message arriving live: `mergeMessages(shown, [message])`, without sorting the whole history
 * again for the usual case of a message newer than every one shown, which simply goes last.
 */
export function withArrival(shown: Message[], message: Message): Message[] {
  const last = shown.at(-1)
  if (last === undefined || inHistoryOrder(last, message) < 0) return [...shown, message]
  return mergeMessages(shown, [message])
}

function inHistoryOrder(a: Message, b: Message): number {
  return a.createdAt - b.createdAt || compareIds(a.id, b.id)
}
