// Other users as the caller meets them: profiles (docs/protocol.md §4 U3), blocks (§5) and
// relationships, the service's word for contacts (§6).
import {
  blockEnvelope,
  blockList,
  importAccepted,
  nothing,
  wireProfile,
  wireRelationshipList,
  type WireBlock,
  type WireProfile,
  type WireRelationship
} from './people-decoders'
import { path, type ServiceClient } from './service-client'

/** U3. With `includeSharedGroups`, the groups both are in; without, `shared_groups` is null. */
export function getProfile(client: ServiceClient, userId: string, options: { includeSharedGroups: boolean }): Promise<WireProfile> {
  return client.call({
    operation: 'U3 show user',
    method: 'GET',
    host: 'v2',
    path: path`/users/${userId}`,
    query: { include_shared_groups: options.includeSharedGroups },
    schema: wireProfile
  })
}

/** B1: the caller's blocks, oldest first. `meId` must be the caller (403 otherwise). */
export function listBlocks(client: ServiceClient, meId: string): Promise<WireBlock[]> {
  return client.call({ operation: 'B1 list blocks', method: 'GET', host: 'base', path: '/blocks', query: { user: meId }, schema: blockList })
}

/** B3: blocking again answers the existing block. 400 for oneself, 404 for an unknown user. */
export function block(client: ServiceClient, meId: string, otherUserId: string): Promise<WireBlock> {
  return client.call({
    operation: 'B3 block',
    method: 'POST',
    host: 'base',
    path: '/blocks',
    query: { user: meId, otherUser: otherUserId },
    schema: blockEnvelope
  })
}

/** B4: 404 when there is no such block (or no such user). */
export async function unblock(client: ServiceClient, meId: string, otherUserId: string): Promise<void> {
  await client.call({
    operation: 'B4 unblock',
    method: 'DELETE',
    host: 'base',
    path: '/blocks',
    query: { user: meId, otherUser: otherUserId },
    schema: nothing
  })
}

/**
 * R1: at most 50 relationships created after `since` (a `created_at_iso8601` from the page
 * before; exclusive), oldest first, each saying whether the caller blocks them. `[]` ends the list.
 */
export function listRelationships(client: ServiceClient, since: string | null): Promise<WireRelationship[]> {
  return client.call({
    operation: 'R1 list relationships',
    method: 'GET',
    host: 'v4',
    path: '/relationships',
    query: { include_blocked: true, since },
    schema: wireRelationshipList
  })
}

/** R2: adds the user whose contact share token this is. 400 a wrong token or oneself, 404 an unknown user. */
export async function createRelationship(client: ServiceClient, userId: string, token: string): Promise<void> {
  await client.call({
    operation: 'R2 create relationship',
    method: 'POST',
    host: 'v4',
    path: '/relationships/create',
    body: { user_id: userId, token },
    schema: nothing
  })
}

/** One address-book entry as R3 takes it; `guid` comes back with its match in R4. */
export interface ImportEntry {
  name: string
  guid: string
  phoneNumber: string
}

/** R3 (ATT): 1–1000 entries, all valid or none taken (400). Answers the batch id for R4. */
export function importContacts(client: ServiceClient, entries: readonly ImportEntry[]): Promise<string> {
  return client.call({
    operation: 'R3 import contacts',
    method: 'POST',
    host: 'base',
    path: '/relationships/import_contacts',
    attested: true,
    body: entries.map(({ name, guid, phoneNumber }) => ({ name, guid, phone_number: phoneNumber })),
    schema: importAccepted
  })
}

/** R4: each matched entry's relationship with its `guid`, in request order. 404 once the batch is an hour old. */
export function importResults(client: ServiceClient, batchId: string): Promise<WireRelationship[]> {
  return client.call({
    operation: 'R4 import results',
    method: 'GET',
    host: 'v4',
    path: path`/relationships/batch/${batchId}`,
    schema: wireRelationshipList
  })
}

/** R5: 404 when they are not a contact. */
export async function removeRelationship(client: ServiceClient, userId: string): Promise<void> {
  await client.call({ operation: 'R5 remove relationship', method: 'DELETE', host: 'v4', path: path`/relationships/${userId}`, schema: nothing })
}
