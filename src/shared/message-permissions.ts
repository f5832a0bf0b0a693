// Which actions the service would accept on a message (docs/protocol.md §10, §12), so the view
// offers only those. The service still decides: these only keep refused buttons off the screen.
import type { Conversation, DeletionActor } from './conversations'
import type { Message } from './messages'

/** MS4 and C4 accept an edit up to 15 minutes after the message was sent. */
export const EDIT_WINDOW_SECONDS = 15 * 60

/** The service's default `message_deletion_mode` (§15.2), for a group whose settings were not read. */
const DEFAULT_DELETION_MODE: readonly DeletionActor[] = ['admin', 'sender']

/** The user's own ordinary message, not deleted, not a poll, inside the edit window. */
export function canEdit(message: Message, meId: string, nowSeconds: number): boolean {
  return (
    !message.system &&
    !message.deleted &&
    message.senderId === meId &&
    !message.attachments.some((attachment) => attachment.type === 'poll') &&
    nowSeconds - message.createdAt <= EDIT_WINDOW_SECONDS
  )
}

/** MS5's rules: chats let the sender delete; a group as its deletion mode says; never a system message. */
export function canDelete(message: Message, meId: string, conversation: Conversation): boolean {
  if (message.system || message.deleted) return false
  const mode = conversation.kind === 'dm' ? ['sender'] : (conversation.deletionMode ?? DEFAULT_DELETION_MODE)
  if (mode.includes('sender') && message.senderId === meId) return true
  return mode.includes('admin') && (conversation.myRole === 'admin' || conversation.myRole === 'owner')
}

/** Anyone in the conversation may react to or pin a message; a tombstone has neither. */
export function canReactOrPin(message: Message): boolean {
  return !message.deleted
}
