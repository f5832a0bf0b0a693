// Groups as the user manages them (docs/protocol.md §7, §9): their settings, their members, the
// requests to join them, and the groups the user has left.
import type { ConversationId } from './conversation-id'
import type { Conversation, DeletionActor, GroupRole, GroupType } from './conversations'

export type { GroupType } from './conversations'

export const GROUP_TYPES: readonly GroupType[] = ['private', 'closed', 'announcement']

/** What a group's manager may change (G6), and what everyone may read. */
export interface GroupSettings {
  name: string
  description: string
  imageUrl: string | null
  type: GroupType
  requiresApproval: boolean
  /** The question someone asking to join must answer; null when none is asked. */
  joinQuestion: string | null
  /** The link that lets anyone join; null while sharing is off. */
  shareUrl: string | null
  /** Who may delete messages; empty: nobody. */
  deletionMode: DeletionActor[]
}

/** One active member of a group. */
export interface Member {
  membershipId: string
  userId: string
  /** What they are called in this group. */
  nickname: string
  /** Their account name. */
  name: string
  avatarUrl: string | null
  role: GroupRole
  muted: boolean
}

/** Someone who was a member: left, removed, or banned after leaving (MB1 `inactive`, admins only). */
export interface FormerMember {
  membershipId: string
  userId: string
  nickname: string
  name: string
  avatarUrl: string | null
  state: 'left' | 'removed' | 'banned'
}

/** A group as its settings dialog and members panel show it. */
export interface GroupDetails extends GroupSettings {
  id: ConversationId
  ownerId: string
  /** The user's own role in it. */
  myRole: GroupRole
  /** The user's own membership, for leaving (MB4) and their nickname (MB8). */
  myMembershipId: string
  members: Member[]
}

export interface NewGroup {
  name: string
  description: string
  imageUrl: string | null
  /** Whether the group starts with a share link. */
  share: boolean
}

/** Settings to change (G6); the others stay as they are. `share` turns the link on or off. */
export interface GroupChanges {
  name?: string | undefined
  description?: string | undefined
  imageUrl?: string | null | undefined
  type?: GroupType | undefined
  requiresApproval?: boolean | undefined
  /** The question to ask, or null to ask none. Asked only while approval is required. */
  joinQuestion?: string | null | undefined
  share?: boolean | undefined
  deletionMode?: DeletionActor[] | undefined
}

/** A request to join one of the user's groups, waiting for a manager (MB5). */
export interface JoinRequest {
  membershipId: string
  userId: string
  name: string
  avatarUrl: string | null
  /** Unix seconds. */
  requestedAt: number
  question: string | null
  answer: string | null
}

/** A group the user left (G2), which they may rejoin (G9). */
export interface FormerGroup {
  id: ConversationId
  name: string
  avatarUrl: string | null
}

/** The user's own request to join a group through its link, kept on this device until it is settled. */
export interface PendingJoin {
  groupId: ConversationId
  /** The link it was made through, as the service writes it: always at the service's own share origin. */
  link: string
  question: string | null
  answer: string | null
  /** Unix seconds. */
  requestedAt: number
}

export type JoinOutcome = { status: 'joined'; conversation: Conversation } | { status: 'pending'; request: PendingJoin }

/** Someone to add to a group (MB2): by account, phone or e-mail, under the nickname given. */
export type MemberCandidate =
  | { nickname: string; userId: string }
  | { nickname: string; phone: string }
  | { nickname: string; email: string }

/** MB3's answer, once the service has finished adding. */
export interface AddMembersResult {
  added: Member[]
  /** The nicknames of those who could not be added (unknown, already in, or refusing). */
  notAdded: string[]
}
