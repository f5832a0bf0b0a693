// People as core asks for them (core/ports.ts PeopleService): profiles, blocks, contacts and the
// members of the user's groups, in the app's shapes.
import type { WireGroup } from '../api/decoders'
import { wireGroupPerson } from '../api/people-decoders'
import { block, createRelationship, getProfile, importContacts, importResults, listBlocks, listRelationships, removeRelationship, unblock } from '../api/people'
import { groupMemberToPerson, toContact, toPerson, toProfile } from '../api/people-to-domain'
import type { ServiceClient } from '../api/service-client'
import { getMe } from '../api/users'
import type { PeopleService } from '../core/ports'
import type { Person } from '@shared/people'

export interface PeopleGatewayOptions {
  client: ServiceClient
  meId: () => string
  /** G1, every page, with members. */
  groups: () => Promise<WireGroup[]>
}

export function peopleGateway({ client, meId, groups }: PeopleGatewayOptions): PeopleService {
  return {
    profile: async (userId) => toProfile(await getProfile(client, userId, { includeSharedGroups: true })),
    person: async (userId) => toPerson(await getProfile(client, userId, { includeSharedGroups: false })),
    async blocks() {
      const blocks = await listBlocks(client, meId())
      return blocks.map((entry) => ({ userId: entry.blocked_user_id, blockedAt: entry.created_at ?? 0 }))
    },
    async block(userId) {
      await block(client, meId(), userId)
    },
    unblock: (userId) => unblock(client, meId(), userId),
    async contactsAfter(after) {
      const page = await listRelationships(client, after)
      return { contacts: page.map(toContact), next: page.at(-1)?.created_at_iso8601 ?? null }
    },
    addContact: (userId, token) => createRelationship(client, userId, token),
    importContacts: (cards) => importContacts(client, cards.map(({ name, phone, guid }) => ({ name, guid, phoneNumber: phone }))),
    importedContacts: async (batchId) => (await importResults(client, batchId)).map(toContact),
    removeContact: (userId) => removeRelationship(client, userId),
    contactLink: async () => (await getMe(client)).share_url,
    async groupMembers() {
      const people: Person[] = []
      for (const group of await groups()) {
        for (const entry of group.members ?? []) {
          // A member entry the app cannot read is left out rather than failing the whole list.
          const member = wireGroupPerson.safeParse(entry)
          if (member.success) people.push(groupMemberToPerson(member.data))
        }
      }
      return people
    }
  }
}
