// Limits the renderer shows the user and main enforces, declared once so the two cannot drift.

/** The longest message text the service accepts (service-api.md, "Message rules"). */
export const MAX_MESSAGE_LENGTH = 1000
