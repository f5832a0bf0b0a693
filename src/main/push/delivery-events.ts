// Turning a delivery into an event: the `data` a channel delivered, decoded (push-events.ts), becomes
// the typed event the connection emits, with its messages in the app's shape and in the
// conversation they belong to. What is not an event (a keep-alive, a type the app does not know, a
// payload it cannot read) comes back as a note for the log, or as nothing at all.
import type { ConversationId } from '@shared/conversation-id'
import type { Message } from '@shared/messages'
import { chatId } from '@shared/conversation-id'
import type { WireMessage } from '../api/decoders'
import { conversationIdOf, toMessage } from '../api/to-domain'
import { conversationOfChannel } from './channels'
import { decodePushData, type PushEvent, type WireMembershipGroup, type WireReaction } from './push-events'

export interface MessageEvent {
  channel: string
  message: Message
  /** The decoded wire message, for what the domain model leaves out (reactions, events, …). */
  wire: WireMessage
}

/** The events a delivery can be. */
export interface DeliveryEvents {
  lineCreated: MessageEvent & { alert: string | null }
  directMessageCreated: MessageEvent & { alert: string | null }
  membershipCreated: { channel: string; group: WireMembershipGroup; alert: string | null }
  favorite: MessageEvent & { reactions: WireReaction[]; actorId: string | null }
  messageDeleted: MessageEvent
  messageUpdated: MessageEvent
  /** `startedAt` is Unix milliseconds. */
  typing: { channel: string; conversationId: ConversationId | null; userId: string; startedAt: number }
}

/** One of the events, with its payload. */
export type DeliveryEvent = { [E in keyof DeliveryEvents]: { event: E; payload: DeliveryEvents[E] } }[keyof DeliveryEvents]

/** A delivery that is no event: what the log should say of it, or null for nothing (a keep-alive). */
export interface SkippedDelivery {
  event: null
  note: { level: 'info' | 'warn'; text: string; details?: unknown } | null
}

export function deliveryEvent(channel: string, data: unknown): DeliveryEvent | SkippedDelivery {
  const decoded = decodePushData(data)
  if (!decoded.ok) return skipped('warn', `push: skipped an unreadable delivery on ${channel}`, decoded.error)
  const event = decoded.event
  switch (event.type) {
    case 'line.create':
    case 'direct_message.create':
    case 'message.deleted':
    case 'message.update':
    case 'favorite':
      return messageEvent(channel, event)
    case 'membership.create':
      return { event: 'membershipCreated', payload: { channel, group: event.group, alert: event.alert } }
    case 'typing':
      return { event: 'typing', payload: { channel, conversationId: conversationOfChannel(channel), userId: event.userId, startedAt: event.startedAt } }
    case 'ping':
      return { event: null, note: null }
    case 'unknown':
      return skipped('info', `push: ignored a ${event.rawType ?? 'typeless'} delivery on ${channel}`)
  }
}

function messageEvent(channel: string, event: Extract<PushEvent, { message: WireMessage }>): DeliveryEvent | SkippedDelivery {
  const conversationId = conversationOfMessage(channel, event.message)
  if (conversationId === null) return skipped('warn', `push: skipped a ${event.type} on ${channel} that names no conversation`)
  const base: MessageEvent = { channel, message: toMessage(event.message, conversationId), wire: event.message }
  switch (event.type) {
    case 'line.create':
      return { event: 'lineCreated', payload: { ...base, alert: event.alert } }
    case 'direct_message.create':
      return { event: 'directMessageCreated', payload: { ...base, alert: event.alert } }
    case 'message.deleted':
      return { event: 'messageDeleted', payload: base }
    case 'message.update':
      return { event: 'messageUpdated', payload: base }
    case 'favorite':
      return { event: 'favorite', payload: { ...base, reactions: event.reactions, actorId: event.actorId } }
  }
}

function skipped(level: 'info' | 'warn', text: string, details?: unknown): SkippedDelivery {
  return { event: null, note: details === undefined ? { level, text } : { level, text, details } }
}

/** The conversation a pushed message belongs to: as it says, else as its channel says, else its two parties. */
function conversationOfMessage(channel: string, wire: WireMessage): ConversationId | null {
  const own = conversationIdOf(wire)
  if (own !== null) return own
  const fromChannel = conversationOfChannel(channel)
  if (fromChannel !== null) return fromChannel
  const sender = wire.sender_id ?? wire.user_id
  if (wire.recipient_id !== null && sender !== null && sender !== 'system') return chatId(sender, wire.recipient_id)
  return null
}
