// Limits the renderer shows the user and main enforces, declared once so the two cannot drift.

/** The longest message text the service accepts (docs/protocol.md §10, "Message rules"). */
export const MAX_MESSAGE_LENGTH = 1000

/** The most attachments one message may carry (docs/protocol.md §10, "Message rules"). */
export const MAX_ATTACHMENTS = 10

// Groups and people (docs/protocol.md §7, §9).

/** G5/G6: a group's name is 1–140 characters, its description at most 255. */
export const MAX_GROUP_NAME = 140
export const MAX_GROUP_DESCRIPTION = 255

/** G6: the join question is 1–200 characters; G8: an answer at most 500. */
export const MAX_JOIN_QUESTION = 200
export const MAX_JOIN_ANSWER = 500

/** MB2/MB8: a nickname is 1–50 characters. */
export const MAX_NICKNAME = 50

/** MB2 adds at most 100 people a request. */
export const MAX_MEMBERS_PER_ADD = 100

/** R3 takes at most 1000 cards a request; the app sends a larger book in turns, up to this many. */
export const MAX_IMPORTED_CARDS = 20_000

// The account (docs/protocol.md §3, §4).

/** U2: a name is 1–64 characters, a bio at most 500. */
export const MAX_ACCOUNT_NAME = 64
export const MAX_BIO = 500

/** P1: a new password has at least 8 characters. */
export const MIN_PASSWORD_LENGTH = 8
