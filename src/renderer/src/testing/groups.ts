// Groups as main would answer them, for the component tests of features/groups.
import type { GroupRole, GroupType } from '@shared/conversations'
import type { GroupDetails, Member } from '@shared/groups'
import { conversation, FakeApi, me } from './fake-api'

export function member(overrides: Partial<Member> & Pick<Member, 'membershipId' | 'userId' | 'nickname'>): Member {
  return { name: overrides.nickname, avatarUrl: null, role: 'user', muted: false, ...overrides }
}

/** Ada (the user, `me`), Grace the owner unless Ada is, Alan an admin, Linus a member. */
export function groupDetails(type: GroupType, myRole: GroupRole, overrides: Partial<GroupDetails> = {}): GroupDetails {
  const ada = member({ membershipId: 'ms1', userId: me.id, nickname: 'Ada', name: me.name, role: myRole })
  const others = [
    member({ membershipId: 'ms2', userId: 'u2', nickname: 'Grace', name: 'Grace Hopper', role: myRole === 'owner' ? 'user' : 'owner' }),
    member({ membershipId: 'ms3', userId: 'u3', nickname: 'Alan', name: 'Alan Turing', role: 'admin', muted: true }),
    member({ membershipId: 'ms4', userId: 'u4', nickname: 'Linus', name: 'Linus', role: 'user' })
  ]
  return {
    id: 'g1',
    name: 'Book club',
    description: 'One book a month',
    imageUrl: null,
    type,
    requiresApproval: false,
    joinQuestion: null,
    shareUrl: null,
    deletionMode: ['sender', 'admin'],
    ownerId: myRole === 'owner' ? me.id : 'u2',
    myRole,
    myMembershipId: 'ms1',
    members: [ada, ...others],
    ...overrides
  }
}

/** Signed in as Ada with the group open; main answers G4 with `details`. */
export function withGroup(details: GroupDetails): FakeApi {
  const group = conversation({ id: details.id, name: details.name, groupType: details.type, myRole: details.myRole })
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [group])
    .returns('conversations:open', { conversation: group, messages: [], hasOlder: false, pending: [] })
    .returns('groups:get', details)
    .returns('members:joinRequests', [])
    .returns('members:former', [])
}
