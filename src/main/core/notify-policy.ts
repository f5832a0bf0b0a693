// When a new message earns a desktop notification. Kept pure so the rule reads in one place.
import { conversationKind } from '../../shared/conversation-id'
import type { Message } from '../../shared/domain'

export interface NotifyContext {
  meId: string
  /** The user is looking at the app. */
  windowFocused: boolean
}

export function shouldNotify(message: Message, context: NotifyContext): boolean {
  if (message.senderId === context.meId) return false
  // Joins, renames and the like are history, not something to interrupt anyone for.
  if (message.system || message.deleted) return false
  // Someone looking at the app sees the message arrive; a banner on top would only repeat it.
  return !context.windowFocused
}

export function notificationFor(message: Message, conversationName: string): { title: string; body: string } {
  const body = message.text.trim() !== '' ? message.text : describeAttachments(message)
  if (conversationKind(message.conversationId) === 'dm') return { title: message.senderName, body }
  return { title: conversationName, body: `${message.senderName}: ${body}` }
}

function describeAttachments(message: Message): string {
  const first = message.attachments[0]
  switch (first?.type) {
    case 'image':
      return 'sent a picture'
    case 'location':
      return 'shared a location'
    case 'poll':
      return 'started a poll'
    case 'emoji':
    case undefined:
      return 'sent a message'
  }
}
