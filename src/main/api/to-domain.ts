// Pure mappings from decoded wire payloads to the app's own model (src/shared/conversations.ts,
// messages.ts and the rest), so nothing outside api/ and push/ depends on the service's field names.
import { type ConversationId, chatId } from '@shared/conversation-id'
import { previewOf, type Conversation, type DeletionActor, type GroupRole, type GroupType, type MessagePreview } from '@shared/conversations'
import type { Attachment, Message, Reaction } from '@shared/messages'
import type { Me } from '@shared/session'
import {
  emojiAttachment,
  imageAttachment,
  locationAttachment,
  pollAttachment,
  wireMember,
  wireReactionEntry,
  type WireChat,
  type WireGroup,
  type WireMember,
  type WireMessage,
  type WireSelfUser,
  type WireTokenResult
} from './decoders'
import { toMessageEvent } from './message-events'

/** Maps the attachment kinds the app can show; anything else (video, file, reply, …) is dropped. */
export function toAttachment(wire: unknown): Attachment | null {
  const image = imageAttachment.safeParse(wire)
  if (image.success) return { type: 'image', url: image.data.url }
  const location = locationAttachment.safeParse(wire)
  if (location.success) {
    const { lat, lng, name } = location.data
    return { type: 'location', lat, lng, name: name ?? '' }
  }
  const emoji = emojiAttachment.safeParse(wire)
  if (emoji.success) return { type: 'emoji', placeholder: emoji.data.placeholder, charmap: emoji.data.charmap }
  const poll = pollAttachment.safeParse(wire)
  if (poll.success) return { type: 'poll', pollId: poll.data.poll_id }
  return null
}

export function toAttachments(wire: readonly unknown[] | null | undefined): Attachment[] {
  return (wire ?? []).map(toAttachment).filter((attachment) => attachment !== null)
}

/**
 * The conversation a message belongs to as far as the message itself says: its group, or its
 * chat. Old DM recordings have neither `chat_id` nor `conversation_id`; callers then know it.
 */
export function conversationIdOf(wire: WireMessage): ConversationId | null {
  return wire.group_id ?? wire.chat_id ?? wire.conversation_id ?? null
}

/** The system events that are about people, and the keys of their `data` that name them (§14.5). */
const PEOPLE_IN_EVENTS: Record<string, readonly string[]> = {
  'membership.announce.added': ['added_users'],
  'membership.announce.joined': ['user'],
  'membership.announce.rejoined': ['user'],
  'membership.notifications.exited': ['removed_user'],
  'membership.notifications.removed': ['removed_user']
}

function usersAbout(event: WireMessage['event']): string[] {
  const keys = event === null || event === undefined ? undefined : PEOPLE_IN_EVENTS[event.type]
  const data = event?.data
  if (keys === undefined || typeof data !== 'object' || data === null) return []
  return keys.flatMap((key) => [(data as Record<string, unknown>)[key]].flat()).flatMap((person) => {
    const id = typeof person === 'object' && person !== null ? (person as { id?: unknown }).id : undefined
    return typeof id === 'string' || typeof id === 'number' ? [String(id)] : []
  })
}

/**
 * A message's reactions as the app shows them: unicode ones only, since the app cannot draw an
 * emoji pack's pictures; an entry that nobody holds any more is left out.
 */
export function toReactions(wire: readonly unknown[] | null | undefined): Reaction[] {
  return (wire ?? []).flatMap((entry) => {
    const parsed = wireReactionEntry.safeParse(entry)
    if (!parsed.success || parsed.data.type !== 'unicode' || !parsed.data.code) return []
    const userIds = parsed.data.user_ids ?? []
    return userIds.length === 0 ? [] : [{ emoji: parsed.data.code, userIds }]
  })
}

export function toMessage(wire: WireMessage, conversationId: ConversationId): Message {
  const system = wire.system === true || wire.sender_type === 'system'
  const event = toMessageEvent(wire.event)
  const reactions = toReactions(wire.reactions)
  return {
    id: wire.id,
    conversationId,
    sourceGuid: wire.source_guid ?? '',
    senderId: wire.sender_id ?? wire.user_id ?? (system ? 'system' : ''),
    senderName: wire.name ?? '',
    senderAvatarUrl: wire.avatar_url,
    text: wire.text,
    attachments: toAttachments(wire.attachments),
    createdAt: wire.created_at,
    system,
    aboutUserIds: system ? usersAbout(wire.event) : [],
    // A tombstone (§10) has `deleted_at` set; `deletion_actor` alone also counts, for payloads
    // that dropped the time.
    deleted: (wire.deleted_at !== undefined && wire.deleted_at !== null) || wire.deletion_actor !== null,
    ...(reactions.length === 0 ? {} : { reactions }),
    ...(wire.updated_at === null ? {} : { editedAt: wire.updated_at }),
    ...(wire.pinned_at === null ? {} : { pinnedAt: wire.pinned_at }),
    ...(event === null ? {} : { event })
  }
}

/** The list's preview of a last message: any attachment counts, even of a kind this app does not show. */
function previewFrom(senderName: string | null, text: string | null, wire: readonly unknown[] | null | undefined, imageUrl: string | null): MessagePreview | null {
  const count = wire?.length ?? 0
  if (senderName === null && text === null && count === 0 && imageUrl === null) return null
  const known = [...toAttachments(wire), ...(imageUrl === null ? [] : [{ type: 'image' as const, url: imageUrl }])]
  return { ...previewOf(senderName ?? '', text ?? '', known), hasAttachments: count > 0 || imageUrl !== null }
}

/**
 * The group as `meId` sees it. Their own member entry, when the list carries members, says whether
 * they muted it (the account's mute, made on any device) and their nickname there. The entry has
 * no end time: a mute read here is one with no end, unless the caller knows better.
 */
export function groupToConversation(group: WireGroup, meId: string): Conversation {
  const messages = group.messages
  const preview = messages?.preview ?? null
  // A recorded group reports `last_message_created_at: 0` beside a real last message id; zero
  // means "unknown" there, so creation time is the better guess.
  const lastMessageAt = messages?.last_message_created_at ?? null
  const self = memberEntry(group, meId)
  return {
    id: group.id,
    kind: 'group',
    name: group.name,
    avatarUrl: group.image_url,
    lastActivityAt: lastMessageAt !== null && lastMessageAt > 0 ? lastMessageAt : (group.created_at ?? group.updated_at ?? 0),
    lastMessageId: messages?.last_message_id ?? null,
    preview: preview === null ? null : previewFrom(preview.nickname, preview.text, preview.attachments, preview.image_url),
    unreadCount: 0,
    mute: self?.muted === true ? { until: null } : null,
    ...(self?.nickname ? { myNickname: self.nickname } : {}),
    ...(self === null ? {} : { myRole: roleOf(self.roles) }),
    ...(group.message_deletion_mode ? { deletionMode: deletionModeOf(group.message_deletion_mode) } : {}),
    ...(group.type === null || group.type === undefined ? {} : { groupType: groupTypeOf(group.type) }),
    ...(typeof messages?.count === 'number' ? { messageCount: messages.count } : {})
  }
}

/** §2.6: `private` is the default, and what a type the app does not know is read as. */
export function groupTypeOf(type: string | null | undefined): GroupType {
  return type === 'closed' || type === 'announcement' ? type : 'private'
}

/** §2.6: the owner's roles are `["admin","owner"]`, an admin's `["admin"]`. */
export function roleOf(roles: readonly string[] | null | undefined): GroupRole {
  if (roles?.includes('owner') === true) return 'owner'
  return roles?.includes('admin') === true ? 'admin' : 'user'
}

export function deletionModeOf(mode: readonly string[]): DeletionActor[] {
  return mode.filter((actor): actor is DeletionActor => actor === 'sender' || actor === 'admin')
}

/** What `userId` is called in the group; null when the group lists no such member. */
export function nicknameIn(group: WireGroup, userId: string): string | null {
  return memberEntry(group, userId)?.nickname ?? null
}

/** `meId`'s own entry among the group's members; null when the list left members out, or an entry is unreadable. */
function memberEntry(group: WireGroup, meId: string): WireMember | null {
  for (const entry of group.members ?? []) {
    const member = wireMember.safeParse(entry)
    if (member.success && member.data.user_id === meId) return member.data
  }
  return null
}

export function chatToConversation(chat: WireChat, meId: string): Conversation {
  const last = chat.last_message
  return {
    id: chatId(meId, chat.other_user.id),
    kind: 'dm',
    name: chat.other_user.name,
    avatarUrl: chat.other_user.avatar_url,
    lastActivityAt: chat.updated_at ?? last?.created_at ?? chat.created_at ?? 0,
    lastMessageId: last?.id ?? null,
    preview: last === null ? null : previewFrom(last.name, last.text, last.attachments, null),
    unreadCount: 0,
    mute: null,
    ...(typeof chat.messages_count === 'number' ? { messageCount: chat.messages_count } : {})
  }
}

export function selfUserToMe(user: WireSelfUser): Me {
  return { id: user.id, name: user.name, avatarUrl: user.image_url ?? user.avatar_url }
}

/** The token result names its user twice (§15.8); the nested object wins where both exist. */
export function tokenResultToMe(result: WireTokenResult): Me | null {
  const id = result.user?.id ?? result.user_id
  if (id === null) return null
  return { id, name: result.user?.name ?? result.user_name ?? '', avatarUrl: result.user?.avatar_url ?? null }
}
