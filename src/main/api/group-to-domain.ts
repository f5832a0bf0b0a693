// Pure mappings from the group and member payloads to the app's own shapes (src/shared/groups.ts).
import type { WireGroup } from './decoders'
import type { WireGroupDetails, WireGroupMember, WireMembership, WirePendingMembership } from './group-decoders'
import { deletionModeOf, groupTypeOf, roleOf } from './to-domain'
import type { FormerGroup, FormerMember, GroupDetails, JoinRequest, Member } from '@shared/groups'

/** The group as its settings dialog and members panel show it to `meId`; null when `meId` is not among its members. */
export function toGroupDetails(wire: WireGroupDetails, meId: string): GroupDetails | null {
  // §2.6: the owner is whoever `creator_user_id` names, whatever roles an older payload lists.
  const members = wire.members.map((entry) => {
    const member = toMember(entry)
    return member.userId === wire.creator_user_id ? { ...member, role: 'owner' as const } : member
  })
  const me = members.find((member) => member.userId === meId)
  if (me === undefined) return null
  const requiresApproval = wire.requires_approval === true
  // The question is asked only while both flags are on (§7 "Settings G6 accepts").
  const asked = requiresApproval && wire.show_join_question === true
  return {
    id: wire.id,
    name: wire.name,
    description: wire.description ?? '',
    imageUrl: wire.image_url,
    type: groupTypeOf(wire.type),
    requiresApproval,
    joinQuestion: asked ? (wire.join_question?.text ?? null) : null,
    shareUrl: wire.share_url,
    // §15.2's default, where an older payload leaves it out.
    deletionMode: deletionModeOf(wire.message_deletion_mode ?? ['admin', 'sender']),
    ownerId: wire.creator_user_id,
    myRole: me.role,
    myMembershipId: me.membershipId,
    members
  }
}

export function toMember(wire: WireGroupMember): Member {
  return {
    membershipId: wire.id,
    userId: wire.user_id,
    nickname: wire.nickname,
    name: wire.name,
    avatarUrl: wire.image_url,
    role: roleOf(wire.roles),
    muted: wire.muted === true
  }
}

/** §7 "Membership states", in the app's words; null for a state that is not a former member's. */
const FORMER_STATES: Record<string, FormerMember['state']> = { exited: 'left', removed: 'removed', exited_removed: 'banned' }

export function toFormerMember(wire: WireMembership): FormerMember | null {
  const state = FORMER_STATES[wire.state]
  if (state === undefined) return null
  return { membershipId: wire.id, userId: wire.user_id, nickname: wire.nickname, name: wire.name, avatarUrl: wire.image_url, state }
}

export function toJoinRequest(wire: WirePendingMembership): JoinRequest {
  return {
    membershipId: wire.id,
    userId: wire.user_id,
    name: wire.nickname,
    avatarUrl: wire.image_url,
    requestedAt: wire.timestamp ?? 0,
    question: wire.reason?.question?.text ?? null,
    answer: wire.reason?.answer?.response ?? null
  }
}

export function toFormerGroup(wire: WireGroup): FormerGroup {
  return { id: wire.id, name: wire.name, avatarUrl: wire.image_url }
}
