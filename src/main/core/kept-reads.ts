// What the app reads of groups and people is kept as it comes, and read back from this device when
// the service is out of reach: a group's members, and the name and picture of someone looked up,
// show offline as the messages do.
import type { GroupDetails } from '@shared/groups'
import type { Person } from '@shared/people'
import { errorCodeOf } from './failures'
import type { LocalStore, ServiceGateway } from './ports'

export interface KeptReads {
  /** The signed-in account's store, null while there is none. */
  store(): Pick<LocalStore, 'group' | 'person'> | null
  keepGroup(details: GroupDetails): void
  keepPerson(person: Person): void
}

/** The same gateway, its reads of a group's details and of a person kept, and answered from the store while the service is out of reach. */
export function keepingReads(gateway: ServiceGateway, kept: KeptReads): ServiceGateway {
  return {
    ...gateway,
    groupDetails: (groupId) =>
      readThrough(
        () => gateway.groupDetails(groupId),
        (details) => kept.keepGroup(details),
        () => kept.store()?.group(groupId)
      ),
    person: (userId) =>
      readThrough(
        () => gateway.person(userId),
        (person) => kept.keepPerson(person),
        () => kept.store()?.person(userId)
      )
  }
}

async function readThrough<T>(read: () => Promise<T>, keep: (value: T) => void, keptCopy: () => Promise<T | null> | undefined): Promise<T> {
  try {
    const value = await read()
    keep(value)
    return value
  } catch (error) {
    if (errorCodeOf(error) !== 'NETWORK') throw error
    const copy = await keptCopy()?.catch(() => null)
    if (copy === undefined || copy === null) throw error
    return copy
  }
}
