import type { IconName } from '$lib/components/Icon.svelte'

/** The panels of a conversation that list messages: its pins, and a group's most liked. */
export type MessagePanel = 'pinned' | 'mostLiked'

export const PANEL_NAMES: Record<MessagePanel, string> = {
  pinned: 'Pinned messages',
  mostLiked: 'Most liked'
}

/** What their buttons show where the conversation's header is short of room. */
export const PANEL_ICONS: Record<MessagePanel, IconName> = {
  pinned: 'pin',
  mostLiked: 'heart'
}
