// Limits the renderer shows the user and main enforces, declared once so the two cannot drift.

/** The longest message text the service accepts (docs/protocol.md §10, "Message rules"). */
export const MAX_MESSAGE_LENGTH = 1000

/** The most attachments one message may carry (docs/protocol.md §10, "Message rules"). */
export const MAX_ATTACHMENTS = 10
