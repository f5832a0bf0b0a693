import { describe, expect, it } from 'vitest'
import type { GroupDetails } from '@shared/groups'
import type { Person } from '@shared/people'
import { AppError } from './app-error'
import { keepingReads } from './kept-reads'
import type { ServiceGateway } from './ports'

const BEA: Person = { id: '2', name: 'Bea', avatarUrl: null }
const GROUP = { id: '7', name: 'Quarry', members: [] } as unknown as GroupDetails

function rig(answer: () => Promise<unknown>) {
  const kept = { groups: new Map<string, GroupDetails>(), people: new Map<string, Person>() }
  const gateway = { groupDetails: answer, person: answer, me: answer } as unknown as ServiceGateway
  const reads = keepingReads(gateway, {
    store: () => ({ group: async (id) => kept.groups.get(id) ?? null, person: async (id) => kept.people.get(id) ?? null }),
    keepGroup: (details) => kept.groups.set(details.id, details),
    keepPerson: (person) => kept.people.set(person.id, person)
  })
  return { reads, kept }
}

describe('reads kept on this device', () => {
  it('keeps what the service answered', async () => {
    const { reads, kept } = rig(async () => BEA)
    expect(await reads.person('2')).toEqual(BEA)
    expect(kept.people.get('2')).toEqual(BEA)
  })

  it('answer from the store while the service is out of reach', async () => {
    const { reads, kept } = rig(async () => {
      throw new AppError('NETWORK', 'out of reach')
    })
    kept.groups.set('7', GROUP)
    kept.people.set('2', BEA)
    expect(await reads.groupDetails('7')).toEqual(GROUP)
    expect(await reads.person('2')).toEqual(BEA)
  })

  it('say the service is out of reach when nothing is kept, and pass every other refusal on as it came', async () => {
    const out = rig(async () => {
      throw new AppError('NETWORK', 'out of reach')
    })
    await expect(out.reads.person('9')).rejects.toMatchObject({ code: 'NETWORK' })
    const gone = rig(async () => {
      throw new AppError('NOT_FOUND', 'no such group')
    })
    gone.kept.groups.set('7', GROUP)
    await expect(gone.reads.groupDetails('7')).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('leave every other call as it was', async () => {
    const { reads } = rig(async () => 'the same')
    expect(await reads.me()).toBe('the same')
  })
})
