/** The panels of a conversation that list messages: its pins, and a group's most liked. */
export type MessagePanel = 'pinned' | 'mostLiked'

export const PANEL_NAMES: Record<MessagePanel, string> = {
  pinned: 'Pinned messages',
  mostLiked: 'Most liked'
}
