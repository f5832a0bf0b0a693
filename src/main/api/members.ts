// A group's members, former members and requests to join (docs/protocol.md §9).
import { z } from 'zod'
import {
  addAccepted,
  addResults,
  approvalAnswer,
  memberAnswer,
  memberEnvelope,
  membershipList,
  pendingMembershipList,
  type WireAddedMember,
  type WireGroupMember,
  type WireMembership,
  type WirePendingMembership
} from './group-decoders'
import { path, type ServiceClient } from './service-client'

/** What an answer with nothing to say (`{}`) is read as. */
const nothing = z.unknown().transform(() => undefined)

/**
 * MB1 and MB6 refuse a caller who is not a manager with 401 (§16 "Roles"), which here says nothing
 * about the token: the session must not end over it.
 */
const ROLE_REFUSED_WITH_401 = { unauthorizedMeansRole: true } as const

/** MB1: admins and the owner only (401 otherwise, §18.10). `inactive` is who left, was removed or banned. */
export function listMemberships(client: ServiceClient, groupId: string, filter: 'active' | 'inactive'): Promise<WireMembership[]> {
  return client.call({
    operation: 'MB1 list members',
    method: 'GET',
    host: 'base',
    path: path`/groups/${groupId}/members`,
    query: { filter },
    schema: membershipList,
    ...ROLE_REFUSED_WITH_401
  })
}

/** One person to add (MB2): exactly one of account, phone or e-mail; `guid` comes back with them in MB3. */
export interface AddItem {
  nickname: string
  guid: string
  userId?: string
  phoneNumber?: string
  email?: string
}

/** MB2 (ATT): 1–100 people; answers the id MB3 reads the outcome under. 403 for someone who is not a manager. */
export function addMembers(client: ServiceClient, groupId: string, items: readonly AddItem[]): Promise<string> {
  return client.call({
    operation: 'MB2 add members',
    method: 'POST',
    host: 'base',
    path: path`/groups/${groupId}/members/add`,
    attested: true,
    body: {
      members: items.map(({ nickname, guid, userId, phoneNumber, email }) => ({
        nickname,
        guid,
        ...(userId === undefined ? {} : { user_id: userId }),
        ...(phoneNumber === undefined ? {} : { phone_number: phoneNumber }),
        ...(email === undefined ? {} : { email })
      }))
    },
    schema: addAccepted
  })
}

/** MB3: those MB2 added, in request order. 503 while the service is still adding; 404 after an hour. */
export function addResultsOf(client: ServiceClient, groupId: string, resultsId: string): Promise<WireAddedMember[]> {
  return client.call({
    operation: 'MB3 add results',
    method: 'GET',
    host: 'base',
    path: path`/groups/${groupId}/members/results/${resultsId}`,
    schema: addResults
  })
}

/**
 * MB4 by membership id (not user id): one's own membership leaves the group, anyone else's is
 * removed. 403 when the target is the owner, or a non-manager targets someone else.
 */
export async function removeMembership(client: ServiceClient, groupId: string, membershipId: string): Promise<void> {
  await client.call({
    operation: 'MB4 remove member',
    method: 'POST',
    host: 'base',
    path: path`/groups/${groupId}/members/${membershipId}/remove`,
    schema: nothing
  })
}

/** MB5: requests to join, oldest first; any member may ask. */
export function listPendingMemberships(client: ServiceClient, groupId: string): Promise<WirePendingMembership[]> {
  return client.call({
    operation: 'MB5 pending memberships',
    method: 'GET',
    host: 'base',
    path: path`/groups/${groupId}/pending_memberships`,
    schema: pendingMembershipList
  })
}

/** MB6: approves or denies a request. 404 when it is not pending here; 401 for someone who is not a manager. */
export async function decideMembership(client: ServiceClient, groupId: string, membershipId: string, approve: boolean): Promise<void> {
  await client.call({
    operation: 'MB6 approve or deny',
    method: 'POST',
    host: 'base',
    path: path`/groups/${groupId}/members/${membershipId}/approval`,
    body: { approval: approve },
    schema: approvalAnswer,
    ...ROLE_REFUSED_WITH_401
  })
}

/** MB7 (v2, bare): bans someone who left. 400 for a current member or one removed; 403 for someone who is not a manager. */
export async function banMembership(client: ServiceClient, groupId: string, membershipId: string): Promise<void> {
  await client.call({
    operation: 'MB7 ban',
    method: 'POST',
    host: 'v2',
    path: path`/groups/${groupId}/memberships/${membershipId}/destroy`,
    schema: nothing
  })
}

/** MB8: the caller's own nickname in the group (1–50). */
export function renameSelf(client: ServiceClient, groupId: string, nickname: string): Promise<WireGroupMember> {
  return client.call({
    operation: 'MB8 change nickname',
    method: 'POST',
    host: 'base',
    path: path`/groups/${groupId}/memberships/update`,
    body: { membership: { nickname } },
    schema: memberAnswer
  })
}

/** MB9: the owner only (403); 400 when the target is the owner, 404 when not a member. */
export function setRole(client: ServiceClient, groupId: string, membershipId: string, role: 'admin' | 'user'): Promise<WireGroupMember> {
  return client.call({
    operation: 'MB9 change role',
    method: 'POST',
    host: 'base',
    path: path`/groups/${groupId}/members/${membershipId}/update`,
    body: { role },
    schema: memberEnvelope
  })
}
