// How `members:add` waits for MB3: asked again with growing pauses while the service is still
// adding, and a clear error once it has kept the user waiting 30 s. The service's own answers are
// pinned against the real one in tests/integration/groups.test.ts; here a stand-in that is never
// ready lets the clock run out without a test that waits half a minute.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { featureContext } from '../../../tests/support/feature-context'
import { MemoryPreferences } from '../../../tests/support/memory-platform'
import type { GroupDetails, Member } from '@shared/groups'
import { AppError } from './app-error'
import type { Conversations } from './conversations'
import { groupHandlers, WORDS } from './groups'
import type { AddedMember, GroupService, ServiceGateway } from './ports'

const ME = { id: '1', name: 'Ada', avatarUrl: null }

const alan: Member = { membershipId: '20', userId: '7', nickname: 'Alan', name: 'Alan', avatarUrl: null, role: 'user', muted: false }

/** MB2 and MB3 only: MB3 answers "not ready" `notReadyFor` times, then adds whoever has user id 7. */
class SlowRoster implements Pick<GroupService, 'addMembers' | 'addedMembers'> {
  readonly asked: number[] = []
  #sent: { guid: string; userId?: string }[] = []

  constructor(private readonly notReadyFor: number) {}

  async addMembers(_groupId: string, candidates: Parameters<GroupService['addMembers']>[1]): Promise<string> {
    this.#sent = candidates.map((candidate) => ({ guid: candidate.guid, ...('userId' in candidate ? { userId: candidate.userId } : {}) }))
    return 'results-1'
  }

  async addedMembers(): Promise<AddedMember[] | null> {
    this.asked.push(Date.now())
    if (this.asked.length <= this.notReadyFor) return null
    return this.#sent.filter((item) => item.userId === '7').map((item) => ({ guid: item.guid, member: alan }))
  }
}

function handlersOver(roster: SlowRoster | ChangedThenUnreadable): ReturnType<typeof groupHandlers> {
  return groupHandlers(
    featureContext({
      // Only the calls each stand-in answers are reached, on a group the list does not know.
      gateway: roster as unknown as ServiceGateway,
      conversations: { get: () => undefined } as unknown as Conversations,
      me: () => ME
    })
  )
}

/**
 * G10 and MB4 succeed, but G4 answers only the read before the change: the follow-up read fails,
 * as a dropped connection would make it.
 */
class ChangedThenUnreadable implements Pick<GroupService, 'groupDetails' | 'transferOwnership' | 'removeMember'> {
  readonly changes: string[] = []
  #reads = 0

  async groupDetails(): Promise<GroupDetails> {
    this.#reads += 1
    if (this.#reads > 1) throw new AppError('NETWORK', 'The service cannot be reached.')
    return {
      id: '42',
      name: 'Lunch club',
      description: '',
      imageUrl: null,
      type: 'private',
      requiresApproval: false,
      joinQuestion: null,
      shareUrl: null,
      deletionMode: ['admin'],
      ownerId: ME.id,
      myRole: 'owner',
      myMembershipId: '10',
      members: [{ ...alan, membershipId: '10', userId: ME.id, nickname: 'Ada', name: 'Ada', role: 'owner' }, alan]
    }
  }

  async transferOwnership(_groupId: string, userId: string): Promise<void> {
    this.changes.push(`G10 to ${userId}`)
  }

  async removeMember(_groupId: string, membershipId: string): Promise<void> {
    this.changes.push(`MB4 ${membershipId}`)
  }
}

describe('a change the service made, whose follow-up read fails', () => {
  it('hands the group over and says so, with the roles G10 leaves, rather than reporting a failure', async () => {
    const service = new ChangedThenUnreadable()
    const after = await handlersOver(service)['groups:transferOwnership']({ groupId: '42', userId: alan.userId })
    expect(service.changes).toEqual(['G10 to 7'])
    expect(after).toMatchObject({ ownerId: '7', myRole: 'admin' })
    expect(after.members.map((member) => [member.nickname, member.role])).toEqual([
      ['Ada', 'admin'],
      ['Alan', 'owner']
    ])
  })

  it('removes the member and answers the members without them', async () => {
    const service = new ChangedThenUnreadable()
    const after = await handlersOver(service)['members:remove']({ groupId: '42', membershipId: alan.membershipId })
    expect(service.changes).toEqual(['MB4 20'])
    expect(after.members.map((member) => member.nickname)).toEqual(['Ada'])
  })
})

describe('the requests to join this device waits on', () => {
  it('shows one an earlier version kept under the stranger’s address it was pasted with at the service’s own origin', async () => {
    const preferences = new MemoryPreferences()
    const kept = { question: null, answer: null, requestedAt: 1_700_000_000 }
    preferences.set('pendingJoins', {
      [ME.id]: [
        { groupId: '42', link: 'https://evil.example/join_group/42/Ab3dEf9H', ...kept },
        { groupId: '43', link: 'https://chat.example.test/join_group/43/Zz9yXw8V', ...kept }
      ]
    })
    const service = { contactLink: async () => 'https://chat.example.test/contact/1/Ab3dE6gH' }
    const handlers = groupHandlers(
      featureContext({
        gateway: service as unknown as ServiceGateway,
        conversations: { get: () => undefined } as unknown as Conversations,
        me: () => ME,
        preferences
      })
    )
    expect((await handlers['groups:pendingJoins']({})).map((request) => request.link)).toEqual([
      'https://chat.example.test/join_group/42/Ab3dEf9H',
      'https://chat.example.test/join_group/43/Zz9yXw8V'
    ])
  })
})

beforeEach(() => {
  vi.useFakeTimers({ now: 0 })
})

afterEach(() => {
  vi.useRealTimers()
})

describe('members:add', () => {
  it('asks MB3 again with gently growing pauses until the service has finished, and names who was left out', async () => {
    const roster = new SlowRoster(4)
    const adding = handlersOver(roster)['members:add']({
      groupId: '42',
      candidates: [
        { nickname: 'Alan', userId: '7' },
        { nickname: 'Ghost', email: 'nobody@example.test' }
      ]
    })
    await vi.runAllTimersAsync()
    expect(await adding).toEqual({ added: [alan], notAdded: ['Ghost'] })
    const pauses = roster.asked.slice(1).map((at, index) => at - (roster.asked[index] ?? 0))
    expect(pauses).toEqual([250, 375, 563, 845])
  })

  it('gives up with a clear error once the service has kept the user waiting 30 s', async () => {
    const roster = new SlowRoster(Number.POSITIVE_INFINITY)
    const adding = handlersOver(roster)['members:add']({ groupId: '42', candidates: [{ nickname: 'Alan', userId: '7' }] })
    const outcome = adding.then(
      () => null,
      (error: unknown) => error
    )
    await vi.advanceTimersByTimeAsync(29_000)
    expect(roster.asked.length).toBeGreaterThan(10)
    await vi.advanceTimersByTimeAsync(5_000)
    expect(await outcome).toMatchObject({ code: 'NETWORK', message: WORDS.addTooSlow })
    // No pause was longer than two seconds, and the last question came after 30 s of waiting.
    const pauses = roster.asked.slice(1).map((at, index) => at - (roster.asked[index] ?? 0))
    expect(Math.max(...pauses)).toBe(2_000)
    expect(roster.asked.at(-1)).toBeGreaterThanOrEqual(30_000)
  })
})
