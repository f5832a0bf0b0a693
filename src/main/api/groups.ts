// The caller's groups (docs/protocol.md §7).
import { z } from 'zod'
import { wireGroup, wireGroupList, type WireGroup } from './decoders'
import { joinAnswer, ownerChangeResults, wireFormerGroupList, wireGroupDetails, type JoinAnswer, type WireGroupDetails } from './group-decoders'
import { path, type ServiceClient } from './service-client'

/** What an answer with nothing to say (`{}`) is read as. */
const nothing = z.unknown().transform(() => undefined)

export interface GroupListRequest {
  /** From 1. */
  page?: number
  /** 1–100; the service's default is 10. */
  perPage?: number
  /** Leaves `members` out (null), which makes the list much lighter. */
  omitMembers?: boolean
}

/** G1: by last activity, newest first. A page past the end is `[]`. */
export function listGroups(client: ServiceClient, request: GroupListRequest = {}): Promise<WireGroup[]> {
  return client.call({
    operation: 'G1 list groups',
    method: 'GET',
    host: 'base',
    path: '/groups',
    query: { page: request.page, per_page: request.perPage, omit: request.omitMembers === true ? 'memberships' : undefined },
    schema: wireGroupList
  })
}

/** G4: one group, with its members. */
export function getGroup(client: ServiceClient, groupId: string): Promise<WireGroup> {
  return client.call({ operation: 'G4 show group', method: 'GET', host: 'base', path: path`/groups/${groupId}`, schema: wireGroup })
}

/** G4 read for the settings and members: every setting, and each member's membership id. */
export function getGroupDetails(client: ServiceClient, groupId: string): Promise<WireGroupDetails> {
  return client.call({ operation: 'G4 show group', method: 'GET', host: 'base', path: path`/groups/${groupId}`, schema: wireGroupDetails })
}

/** G2: the groups the caller left (`exited`), latest exit first. */
export function listFormerGroups(client: ServiceClient): Promise<WireGroup[]> {
  return client.call({ operation: 'G2 former groups', method: 'GET', host: 'base', path: '/groups/former', schema: wireFormerGroupList })
}

export interface NewGroupRequest {
  name: string
  description: string
  imageUrl: string | null
  share: boolean
}

/** G5 (ATT): the caller owns the new group. 400 for a name or description out of bounds, or an image not from I1. */
export function createGroup(client: ServiceClient, group: NewGroupRequest): Promise<WireGroupDetails> {
  return client.call({
    operation: 'G5 create group',
    method: 'POST',
    host: 'base',
    path: '/groups',
    attested: true,
    body: { name: group.name, description: group.description, share: group.share, ...(group.imageUrl === null ? {} : { image_url: group.imageUrl }) },
    schema: wireGroupDetails
  })
}

/** G6's fields as the app sends them (§7 "Settings G6 accepts"); absent ones stay as they are. */
export interface GroupUpdate {
  name?: string
  description?: string
  /** null removes the picture. */
  imageUrl?: string | null
  groupType?: 'private' | 'closed' | 'announcement'
  requiresApproval?: boolean
  showJoinQuestion?: boolean
  joinQuestion?: string
  share?: boolean
  deletionMode?: ('sender' | 'admin')[]
}

/** G6: all or nothing (400 changes nothing); 403 for someone who is not a manager. */
export function updateGroup(client: ServiceClient, groupId: string, update: GroupUpdate): Promise<WireGroupDetails> {
  const body: Record<string, unknown> = {}
  if (update.name !== undefined) body['name'] = update.name
  if (update.description !== undefined) body['description'] = update.description
  if (update.imageUrl !== undefined) body['image_url'] = update.imageUrl
  if (update.groupType !== undefined) body['group_type'] = update.groupType
  if (update.requiresApproval !== undefined) body['requires_approval'] = update.requiresApproval
  if (update.showJoinQuestion !== undefined) body['show_join_question'] = update.showJoinQuestion
  if (update.joinQuestion !== undefined) body['join_question'] = { type: 'join_reason/questions/text', text: update.joinQuestion }
  if (update.share !== undefined) body['share'] = update.share
  if (update.deletionMode !== undefined) body['message_deletion_mode'] = update.deletionMode
  return client.call({ operation: 'G6 update group', method: 'POST', host: 'base', path: path`/groups/${groupId}/update`, body, schema: wireGroupDetails })
}

/** G7: the owner only (403 otherwise); the group is gone for everyone. */
export async function destroyGroup(client: ServiceClient, groupId: string): Promise<void> {
  await client.call({ operation: 'G7 destroy group', method: 'POST', host: 'base', path: path`/groups/${groupId}/destroy`, schema: nothing })
}

/**
 * G8 with the token of the group's share link. 404 for an unknown group, sharing off or a wrong
 * token; 403 for someone removed or banned. A group that asks for approval answers a request.
 */
export function joinGroup(client: ServiceClient, groupId: string, shareToken: string, answer: string | null): Promise<JoinAnswer> {
  return client.call({
    operation: 'G8 join group',
    method: 'POST',
    host: 'base',
    path: path`/groups/${groupId}/join/${shareToken}`,
    body: answer === null ? {} : { answer: { response: answer } },
    schema: joinAnswer
  })
}

/** G9: back into a group the caller left. 400 already in; 403 removed or banned; 404 never a member. */
export function rejoinGroup(client: ServiceClient, groupId: string): Promise<WireGroupDetails> {
  return client.call({ operation: 'G9 rejoin group', method: 'POST', host: 'base', path: '/groups/join', body: { group_id: groupId }, schema: wireGroupDetails })
}

/** G10 for one group: the item's status string, `"200"` when done (§7 "G10 statuses"). */
export async function changeOwner(client: ServiceClient, groupId: string, ownerId: string): Promise<string> {
  const results = await client.call({
    operation: 'G10 change owner',
    method: 'POST',
    host: 'base',
    path: '/groups/change_owners',
    body: { requests: [{ group_id: groupId, owner_id: ownerId }] },
    schema: ownerChangeResults
  })
  return results[0]?.status ?? '405'
}
