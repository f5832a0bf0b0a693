// Polls as the renderer sees them: a poll with its options and votes, a new one to create, and a
// page of a group's polls.
import type { ConversationId } from './conversation-id'

export interface PollVoter {
  id: string
  /** Their nickname in the group, or empty when the group no longer lists them. */
  name: string
}

export interface PollOption {
  id: string
  title: string
  votes: number
  /** Who chose it: public polls only, empty on anonymous ones. */
  voters: PollVoter[]
}

export interface Poll {
  id: string
  conversationId: ConversationId
  subject: string
  ownerId: string
  /** Unix seconds; an ended poll's is when it ended. */
  expiresAt: number
  ended: boolean
  multiple: boolean
  anonymous: boolean
  options: PollOption[]
  /** The option ids the user chose, ascending; empty before they vote. */
  myVotes: string[]
  /** The user owns the poll, or administers the group (PL5). */
  canEnd: boolean
}

export interface NewPoll {
  subject: string
  /** 2–10 titles, in order. */
  options: string[]
  multiple: boolean
  anonymous: boolean
  /** Unix seconds, in the future. */
  expiresAt: number
}

export interface PollPage {
  /** Newest first. */
  polls: Poll[]
  /** Pass back for the next page; null on the last one. */
  next: string | null
}
