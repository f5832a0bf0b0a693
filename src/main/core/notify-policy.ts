// When something earns a desktop notification, and what it says. Pure, so the whole rule reads
// in one place and a table of cases pins it (notify-policy.test.ts).
import { conversationKind, type ConversationId } from '@shared/conversation-id'
import type { Message } from '@shared/messages'
import type { PresenceStatus } from '@shared/attention'
import { visibleText } from '@shared/visible-text'

/** Something that happened in a conversation: a message arrived, or someone reacted to one of yours. */
export type Happening =
  | { kind: 'message'; message: Message }
  | {
      kind: 'reaction'
      conversationId: ConversationId
      reactorId: string
      /** Their nickname in the group; null in a chat (whose name is theirs) or when the service could not say. */
      reactorName: string | null
      /** The reaction's character, or null for a picture from an emoji pack (which a notification cannot show). */
      emoji: string | null
      message: Message
    }

export interface NotifyContext {
  meId: string
  /** How others write your name in this conversation: your name, and your nickname in a group. */
  myNames: readonly string[]
  /** The conversation on screen while the window has focus; null when the user is elsewhere. */
  lookingAt: ConversationId | null
  status: PresenceStatus
  /** Notifications are muted globally (the timed mute in the tray or the header). */
  globallyMuted: boolean
  conversationMuted: boolean
  /** The "Desktop notifications" setting. */
  enabled: boolean
}

/**
 * Whether to notify. Never for your own doing, nor while the user reads that conversation. Do not
 * disturb and a global mute silence everything; a conversation's mute lets through only what is
 * addressed to you: a mention of your name, and a reaction to your message.
 */
export function shouldNotify(happening: Happening, context: NotifyContext): boolean {
  if (!context.enabled || context.status === 'dnd' || context.globallyMuted) return false
  const conversationId = happening.kind === 'message' ? happening.message.conversationId : happening.conversationId
  if (context.lookingAt === conversationId) return false
  if (happening.kind === 'reaction') {
    return happening.reactorId !== context.meId && happening.message.senderId === context.meId
  }
  const { message } = happening
  if (message.senderId === context.meId || message.deleted) return false
  // Joins, renames and the like are history, unless they are about you (you were added, removed).
  if (message.system) return message.aboutUserIds.includes(context.meId)
  return !context.conversationMuted || mentions(message.text, context.myNames)
}

/**
 * Whether `text` mentions one of `names` as `@name`, case-insensitively, where the name ends at a
 * word boundary ("@Ada" in "@Ada, lunch?" but not in "@Adam").
 */
export function mentions(text: string, names: readonly string[]): boolean {
  // As seen on both sides: a nickname pasted with invisible direction marks is typed without them.
  const lower = visibleText(text).toLocaleLowerCase()
  return names.some((name) => {
    const wanted = `@${visibleText(name).toLocaleLowerCase()}`
    if (wanted === '@') return false
    for (let at = lower.indexOf(wanted); at !== -1; at = lower.indexOf(wanted, at + 1)) {
      const before = lower[at - 1]
      const after = lower[at + wanted.length]
      if ((before === undefined || !isWordCharacter(before)) && (after === undefined || !isWordCharacter(after))) return true
    }
    return false
  })
}

function isWordCharacter(character: string): boolean {
  return /[\p{L}\p{N}_]/u.test(character)
}

export interface NotificationText {
  title: string
  body: string
}

export interface NotificationOptions {
  conversationName: string
  /** Messages in this conversation not yet seen, this one included (for a message). */
  unseen: number
  /** Off: say who wrote, not what. */
  showMessageText: boolean
}

/** What the notification says. Several unseen messages in one conversation share one notification. */
export function notificationFor(happening: Happening, options: NotificationOptions): NotificationText {
  const { conversationName, unseen, showMessageText } = options
  if (happening.kind === 'reaction') {
    const title = conversationName
    const quoted = showMessageText && happening.message.text.trim() !== '' ? `: "${happening.message.text}"` : ''
    const reacted = happening.emoji === null ? 'reacted' : `reacted ${happening.emoji}`
    // In a chat only the other participant can have reacted, and the chat bears their name.
    const reactor = happening.reactorName ?? (conversationKind(happening.conversationId) === 'dm' ? conversationName : 'Someone')
    return { title, body: `${reactor} ${reacted} to your message${quoted}` }
  }
  const { message } = happening
  const isChat = conversationKind(message.conversationId) === 'dm'
  const title = isChat ? message.senderName : conversationName
  if (unseen > 1) return { title, body: isChat ? `${unseen} new messages` : `${unseen} new messages in ${conversationName}` }
  if (!showMessageText) return { title, body: `New message from ${message.senderName}` }
  const text = message.system || message.text.trim() !== '' ? message.text : describeAttachments(message)
  return { title, body: isChat || message.system ? text : `${message.senderName}: ${text}` }
}

function describeAttachments(message: Message): string {
  const first = message.attachments[0]
  switch (first?.type) {
    case 'image':
    case 'imageLink':
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
