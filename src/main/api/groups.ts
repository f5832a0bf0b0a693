// The caller's groups (docs/protocol.md §7).
import { wireGroup, wireGroupList, type WireGroup } from './decoders'
import { path, type ServiceClient } from './service-client'

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
