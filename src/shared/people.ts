// People the user meets: profiles, contacts and blocks (docs/protocol.md §4–§6).
import type { ConversationId } from './conversation-id'

/** Someone to pick: in a contact list, a group's member list, or a search. */
export interface Person {
  id: string
  name: string
  avatarUrl: string | null
}

/** U3, with what the user has to do with them. */
export interface Profile extends Person {
  bio: string
  /** False when either side blocks the other: a direct message would be refused. */
  canMessage: boolean
  /** They are in the user's contacts. */
  isContact: boolean
  /** The user has blocked them. */
  blockedByMe: boolean
  /** The groups both are in. */
  sharedGroups: { id: ConversationId; name: string; avatarUrl: string | null }[]
}

/**
 * Whether the user and someone can write to each other, as a chat with them shows it: in the same
 * words as their profile, from the same facts.
 */
export type ChatStanding = Pick<Profile, 'canMessage' | 'blockedByMe'>

/** One of the user's contacts (R1). */
export interface Contact extends Person {
  blocked: boolean
  /** How they became a contact: through their link, or imported by phone number. */
  source: 'link' | 'import'
}

/** Someone the user blocked (B1), oldest first. */
export interface BlockedUser extends Person {
  /** Unix seconds. */
  blockedAt: number
}

/** One row of an imported address book (R3). */
export interface ContactCard {
  name: string
  phone: string
}

/** What an import found (R4): the cards that matched an account, as contacts. */
export interface ContactImportResult {
  /** How many cards were sent. */
  submitted: number
  matched: Contact[]
}

/** How far an import has gone: cards are sent 1000 at a time. */
export interface ContactImportProgress {
  importId: string
  done: number
  total: number
}
