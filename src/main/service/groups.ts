// Groups and members as core asks for them (core/ports.ts GroupService), in the app's shapes. The
// few answers that are not plain refusals are read here: MB3's 503 (not ready yet) and G10's
// per-item statuses.
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { GroupChanges, GroupDetails } from '@shared/groups'
import { canManage } from '@shared/group-rules'
import { ApiError } from '../api/api-error'
import type { WireGroup } from '../api/decoders'
import { wireGroupDetails } from '../api/group-decoders'
import { toFormerGroup, toFormerMember, toGroupDetails, toJoinRequest, toMember } from '../api/group-to-domain'
import {
  changeOwner,
  createGroup,
  destroyGroup,
  getGroupDetails,
  joinGroup,
  listFormerGroups,
  rejoinGroup,
  updateGroup,
  type GroupUpdate
} from '../api/groups'
import {
  addMembers,
  addResultsOf,
  banMembership,
  decideMembership,
  listMemberships,
  listPendingMemberships,
  removeMembership,
  renameSelf,
  setRole,
  type AddItem
} from '../api/members'
import type { ServiceClient } from '../api/service-client'
import { groupToConversation } from '../api/to-domain'
import { AppError } from '../core/app-error'
import { userMessageFor } from '../core/failures'
import type { GroupService } from '../core/ports'
import type { ErrorCode } from '@shared/window-api'

export interface GroupGatewayOptions {
  client: ServiceClient
  meId: () => string
}

/** G10's item statuses (§7 "G10 statuses") as the refusals they are; `"200"` is done. */
const OWNER_CHANGE_REFUSALS: Record<string, ErrorCode> = { '400': 'CONFLICT', '403': 'FORBIDDEN', '404': 'NOT_FOUND', '405': 'VALIDATION' }

export function groupGateway({ client, meId }: GroupGatewayOptions): GroupService {
  async function details(groupId: ConversationId): Promise<GroupDetails> {
    const shown = toGroupDetails(await getGroupDetails(client, groupId), meId())
    // G4 answers members only (§2.5), so the user is always among them; a group without them is one they have left.
    if (shown === null) throw new AppError('NOT_FOUND', userMessageFor('NOT_FOUND'))
    return shown
  }

  return {
    createGroup: async (group) => groupToConversation(await createGroup(client, group), meId()),
    groupDetails: details,
    async updateGroup(groupId, changes) {
      const shown = toGroupDetails(await updateGroup(client, groupId, toUpdate(changes)), meId())
      return shown ?? details(groupId)
    },
    destroyGroup: (groupId) => destroyGroup(client, groupId),
    async transferOwnership(groupId, userId) {
      const status = await changeOwner(client, groupId, userId)
      const refusal = status === '200' ? undefined : (OWNER_CHANGE_REFUSALS[status] ?? 'INTERNAL')
      if (refusal !== undefined) throw new AppError(refusal, userMessageFor(refusal), { cause: new Error(`G10 answered status ${status}`) })
    },
    formerGroups: async () => (await listFormerGroups(client)).map(toFormerGroup),
    rejoinGroup: async (groupId) => groupToConversation(await rejoinGroup(client, groupId), meId()),
    async joinGroup(groupId, shareToken, answer) {
      const joined = await joinGroup(client, groupId, shareToken, answer)
      if (joined.kind === 'joined') return { status: 'joined', conversation: groupToConversation(joined.group, meId()) }
      const request = toJoinRequest(joined.request)
      return { status: 'pending', question: request.question, answer: request.answer, requestedAt: request.requestedAt }
    },
    async formerMembers(groupId) {
      const memberships = await roleRefusal(listMemberships(client, groupId, 'inactive'))
      return memberships.map(toFormerMember).filter((member) => member !== null)
    },
    addMembers: (groupId, candidates) => addMembers(client, groupId, candidates.map(toAddItem)),
    async addedMembers(groupId, resultsId) {
      try {
        const added = await addResultsOf(client, groupId, resultsId)
        return added.map((wire) => ({ guid: wire.guid, member: toMember(wire) }))
      } catch (error) {
        // §9: 503 says the service is still adding; the caller asks again a little later.
        if (error instanceof ApiError && error.status === 503) return null
        throw error
      }
    },
    removeMember: (groupId, membershipId) => removeMembership(client, groupId, membershipId),
    banMember: (groupId, membershipId) => banMembership(client, groupId, membershipId),
    async setMemberRole(groupId, membershipId, role) {
      await setRole(client, groupId, membershipId, role)
    },
    async setNickname(groupId, nickname) {
      await renameSelf(client, groupId, nickname)
    },
    joinRequests: async (groupId) => (await listPendingMemberships(client, groupId)).map(toJoinRequest),
    decideJoinRequest: (groupId, membershipId, approve) => roleRefusal(decideMembership(client, groupId, membershipId, approve))
  }
}

/**
 * G1's groups as the list shows them to `meId`, each the user manages with approval required
 * carrying how many requests wait (MB5). A count that cannot be read is left out, not the group.
 */
export async function groupConversations(client: ServiceClient, groups: readonly WireGroup[], meId: string): Promise<Conversation[]> {
  return Promise.all(
    groups.map(async (group) => {
      const conversation = groupToConversation(group, meId)
      if (!asksForApproval(group) || conversation.myRole === undefined) return conversation
      if (!canManage(conversation.groupType ?? 'private', conversation.myRole)) return conversation
      try {
        const requests = await listPendingMemberships(client, group.id)
        return { ...conversation, joinRequestCount: requests.length }
      } catch {
        return conversation
      }
    })
  )
}

function asksForApproval(group: WireGroup): boolean {
  const read = wireGroupDetails.pick({ requires_approval: true }).safeParse(group)
  return read.success && read.data.requires_approval === true
}

/** MB1 and MB6 refuse a non-manager with 401 (§16 "Roles"): that is a refusal of the role, not of the session. */
async function roleRefusal<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) throw new AppError('FORBIDDEN', userMessageFor('FORBIDDEN'), { cause: error })
    throw error
  }
}

/**
 * G6's fields for the app's changes. A join question is asked only while approval is required
 * (§7): a question turns `show_join_question` on, null turns it off.
 */
function toUpdate(changes: GroupChanges): GroupUpdate {
  const update: GroupUpdate = {}
  if (changes.name !== undefined) update.name = changes.name
  if (changes.description !== undefined) update.description = changes.description
  if (changes.imageUrl !== undefined) update.imageUrl = changes.imageUrl
  if (changes.type !== undefined) update.groupType = changes.type
  if (changes.requiresApproval !== undefined) update.requiresApproval = changes.requiresApproval
  if (changes.joinQuestion !== undefined) {
    update.showJoinQuestion = changes.joinQuestion !== null
    if (changes.joinQuestion !== null) update.joinQuestion = changes.joinQuestion
  }
  if (changes.share !== undefined) update.share = changes.share
  if (changes.deletionMode !== undefined) update.deletionMode = changes.deletionMode
  return update
}

function toAddItem(candidate: Parameters<GroupService['addMembers']>[1][number]): AddItem {
  const { nickname, guid } = candidate
  if ('userId' in candidate) return { nickname, guid, userId: candidate.userId }
  if ('phone' in candidate) return { nickname, guid, phoneNumber: candidate.phone }
  return { nickname, guid, email: candidate.email }
}
