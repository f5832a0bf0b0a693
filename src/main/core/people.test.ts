// What core's people handlers do with answers the local service cannot give: an account that is
// gone. Everything else runs against the real service in tests/integration/people.test.ts.
import { describe, expect, it } from 'vitest'
import type { Person } from '@shared/people'
import { featureContext } from '../../../tests/support/feature-context'
import { MemoryPreferences } from '../../../tests/support/memory-platform'
import { AppError } from './app-error'
import { Conversations } from './conversations'
import { peopleHandlers } from './people'
import type { PeopleService, ServiceGateway } from './ports'
import { MemoryService } from './testing/memory-service'

const ME = { id: '1', name: 'Ada', avatarUrl: null }

/** The people side of the service, from memory: whom the user blocks, and who still has an account. */
class RememberedPeople implements Pick<PeopleService, 'blocks' | 'person'> {
  constructor(
    readonly blocked: { userId: string; blockedAt: number }[],
    readonly accounts: Person[],
    readonly outage = false
  ) {}

  async blocks(): Promise<{ userId: string; blockedAt: number }[]> {
    return this.blocked
  }

  async person(userId: string): Promise<Person> {
    if (this.outage) throw new AppError('NETWORK', 'Cannot reach the service.')
    const person = this.accounts.find((account) => account.id === userId)
    if (person === undefined) throw new AppError('NOT_FOUND', 'No such user.')
    return person
  }
}

function handlersOver(people: RememberedPeople): ReturnType<typeof peopleHandlers> {
  // Only the operations under test answer; any other call is a mistake of the test.
  const gateway = new Proxy(people, {
    get: (target, name) => (name in target ? Reflect.get(target, name, target) : () => Promise.reject(new Error(`${String(name)} is not part of this test`)))
  }) as unknown as ServiceGateway
  const preferences = new MemoryPreferences()
  return peopleHandlers(
    featureContext({
      gateway,
      conversations: new Conversations({ service: new MemoryService(ME), preferences, now: Date.now, changed: () => undefined }),
      preferences,
      me: () => ME
    })
  )
}

describe('people:blocked', () => {
  it('names each blocked person, and shows someone whose account is gone by their id', async () => {
    const handlers = handlersOver(
      new RememberedPeople(
        [
          { userId: '2', blockedAt: 1_700_000_000 },
          { userId: '3', blockedAt: 1_700_000_100 }
        ],
        [{ id: '2', name: 'Grace', avatarUrl: 'http://127.0.0.1/image/i/grace' }]
      )
    )
    expect(await handlers['people:blocked']({})).toEqual([
      { id: '2', name: 'Grace', avatarUrl: 'http://127.0.0.1/image/i/grace', blockedAt: 1_700_000_000 },
      { id: '3', name: '3', avatarUrl: null, blockedAt: 1_700_000_100 }
    ])
  })

  it('fails as a whole when the service is out of reach', async () => {
    const handlers = handlersOver(new RememberedPeople([{ userId: '2', blockedAt: 1_700_000_000 }], [], true))
    await expect(handlers['people:blocked']({})).rejects.toMatchObject({ code: 'NETWORK' })
  })
})
