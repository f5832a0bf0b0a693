import type { Conversation } from '@shared/conversations'
import type { IconName } from '$lib/components/Icon.svelte'

/** The panels of a conversation that list messages: its pins, and a group's most liked. */
export type MessagePanel = 'pinned' | 'mostLiked'

export const PANEL_NAMES = {
  pinned: 'Pinned messages',
  mostLiked: 'Most liked'
} as const satisfies Record<MessagePanel, string>

/** What their buttons show where the conversation's header is short of room. */
export const PANEL_ICONS: Record<MessagePanel, IconName> = {
  pinned: 'pin',
  mostLiked: 'heart'
}

/** The panels a conversation has: RX3–RX5 exist for groups only. */
export function panelsOf(conversation: Conversation): MessagePanel[] {
  return conversation.kind === 'group' ? ['pinned', 'mostLiked'] : ['pinned']
}
