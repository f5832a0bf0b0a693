// Which group actions the service would accept from the user (docs/protocol.md §2.6), so the view
// offers only those. The service still decides: these only keep refused controls off the screen.
import type { GroupRole, GroupType } from './conversations'

const isAdmin = (role: GroupRole): boolean => role === 'admin' || role === 'owner'

/** Managers change settings and the roster: anyone in a private group, admins elsewhere. */
export function canManage(type: GroupType, role: GroupRole): boolean {
  return type === 'private' || isAdmin(role)
}

/** Posters send messages and create polls: anyone, except in announcement groups. */
export function canPost(type: GroupType, role: GroupRole): boolean {
  return type !== 'announcement' || isAdmin(role)
}

/** MB1 (active and inactive members, with their states) answers admins and the owner only, whatever the type (§18 #10). */
export function canSeeRoster(role: GroupRole): boolean {
  return isAdmin(role)
}

/** G7, G10 and MB9 (roles) are the owner's alone. */
export function isOwner(role: GroupRole): boolean {
  return role === 'owner'
}
