// Pure mappings from the people payloads to the app's own shapes (src/shared/people.ts).
import type { Contact, Person, Profile } from '@shared/people'
import type { WireGroupPerson, WireProfile, WireRelationship } from './people-decoders'

/** §6: relationships made through a share link have reason 1, imported ones reason 2. */
const REASON_IMPORT = 2

/** U3 as the app shows a profile, short of whether the user blocks them, which U3 does not say. */
export function toProfile(wire: WireProfile): Omit<Profile, 'blockedByMe'> {
  const { user } = wire
  return {
    ...toPerson(wire),
    bio: user.bio ?? '',
    canMessage: user.direct_message_capable ?? false,
    isContact: wire.relationship !== null && wire.relationship !== undefined,
    sharedGroups: (wire.shared_groups ?? []).map((group) => ({ id: group.group_id, name: group.group_name, avatarUrl: group.group_avatar }))
  }
}

export function toPerson(wire: WireProfile): Person {
  return { id: wire.user.id, name: wire.user.name, avatarUrl: wire.user.avatar_url }
}

export function toContact(wire: WireRelationship): Contact {
  return {
    id: wire.user_id,
    name: wire.name,
    avatarUrl: wire.avatar_url,
    blocked: wire.blocked ?? false,
    source: wire.reason === REASON_IMPORT ? 'import' : 'link'
  }
}

/** A group member as someone to pick: by their account name, or their nickname where the service gave none. */
export function groupMemberToPerson(wire: WireGroupPerson): Person {
  return { id: wire.user_id, name: wire.name ?? wire.nickname ?? '', avatarUrl: wire.image_url }
}
