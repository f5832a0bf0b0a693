// Groups the user creates, manages, joins and leaves, and their members (docs/protocol.md §7, §9).
// What the user asks for is checked here first and worded for them; the service still decides, and
// each of its refusals is reworded for the action that met it. The list follows every change the
// service announces to nobody (§14.5: settings, destroy, bans): created, joined and rejoined groups
// come in, groups left or destroyed go, and settings show at once.
import { randomUUID } from 'node:crypto'
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation, GroupRole } from '@shared/conversations'
import { canManage, canSeeRoster, isOwner } from '@shared/group-rules'
import type { AddMembersResult, GroupDetails, JoinRequest, Member, MemberCandidate, PendingJoin } from '@shared/groups'
import type { ErrorCode, InvokeHandlers } from '@shared/window-api'
import { AppError } from './app-error'
import type { FeatureContext } from './feature-context'
import { errorCodeOf } from './failures'
import {
  checkedCandidates,
  checkedChanges,
  checkedJoinAnswer,
  checkedNewGroup,
  checkedNickname,
  OwnRefusal,
  parseShareLink,
  shareLinkText,
  type ShareLink
} from './group-input'
import { PendingJoins } from './pending-joins'
import type { AddedMember, GroupService } from './ports'

type GroupChannel = Extract<keyof InvokeHandlers, `groups:${string}` | `members:${string}`>
export type GroupHandlers = Pick<InvokeHandlers, GroupChannel>

/** The user's words for a refusal, by the code the service's answer became. */
type Refusals = Partial<Record<ErrorCode, string>>

const GROUP_GONE = 'This group no longer exists, or you are no longer in it.'
const NOT_A_MANAGER = 'Only the group’s managers can change its settings.'

export const WORDS = {
  notAShareLink: 'That is not a group share link. A share link ends in /join_group/ followed by the group and its code.',
  unknownLink: 'This link does not lead to a group you can join. It may be mistyped, or the group stopped sharing it.',
  removedFromGroup: 'You cannot join this group: you were removed from it.',
  ownerLeaving: 'Transfer ownership to another member before you leave.',
  notAManager: NOT_A_MANAGER,
  banRemovedMember: 'They were removed from this group, which already keeps them out: only a manager adding them again brings them back.',
  addTooSlow: 'The service is taking too long to add these people. Check the member list in a moment.'
} as const

/** MB3 is asked again after these pauses while it is not ready, growing gently (ms). */
const FIRST_RESULTS_PAUSE_MS = 250
const LONGEST_RESULTS_PAUSE_MS = 2_000
/** How long MB3 may stay not ready before the user is told (ms). */
const RESULTS_PATIENCE_MS = 30_000

export function groupHandlers(context: FeatureContext): GroupHandlers {
  const { gateway, conversations } = context
  const pendingJoins = new PendingJoins(context.preferences, () => context.me().id)

  /**
   * `work`, with the service's refusals in the user's words. A group the service no longer shows
   * the user (NOT_FOUND) has gone, or they were put out of it: the list is fetched again so it
   * does not linger there.
   */
  async function asked<T>(work: () => Promise<T>, refusals: Refusals = {}): Promise<T> {
    context.me()
    try {
      return await work()
    } catch (error) {
      if (error instanceof OwnRefusal) throw error
      const code = errorCodeOf(error)
      if (code === 'NOT_FOUND') void context.refreshConversations().catch(() => undefined)
      const words = refusals[code] ?? (code === 'NOT_FOUND' ? GROUP_GONE : undefined)
      if (words === undefined) throw error
      throw new AppError(code, words, { cause: error })
    }
  }

  /** The group as the list knows it, to keep off the service what it would refuse anyway. */
  function listed(groupId: ConversationId): Conversation | undefined {
    const conversation = conversations.get(groupId)
    return conversation?.kind === 'group' ? conversation : undefined
  }

  /** Refuses before asking when the list already says the user does not manage the group. */
  function requireManager(groupId: ConversationId, words: string): void {
    const entry = listed(groupId)
    if (entry?.myRole !== undefined && !canManage(entry.groupType ?? 'private', entry.myRole)) throw new OwnRefusal('FORBIDDEN', words)
  }

  function requireOwner(groupId: ConversationId, words: string): void {
    const role = listed(groupId)?.myRole
    if (role !== undefined && !isOwner(role)) throw new OwnRefusal('FORBIDDEN', words)
  }

  /** Fetches the list so a group the user just entered is in it, and answers its entry there. */
  async function enteredGroup(conversation: Conversation): Promise<Conversation> {
    pendingJoins.forget(conversation.id)
    await context.refreshConversations().catch(() => undefined)
    return conversations.get(conversation.id) ?? conversation
  }

  /** Fetches the list again, so a group the user is out of leaves it; a failure leaves it as it was. */
  async function refetchList(): Promise<void> {
    await context.refreshConversations().catch(() => undefined)
  }

  /** The list's entry after a change of settings, role or roster the service tells nobody of (§14.5). */
  async function showInList(details: GroupDetails): Promise<void> {
    if (listed(details.id) === undefined) return
    const manages = canManage(details.type, details.myRole)
    const joinRequestCount = details.requiresApproval && manages ? await countJoinRequests(details.id) : undefined
    conversations.updateGroup(details.id, {
      name: details.name,
      avatarUrl: details.imageUrl,
      groupType: details.type,
      deletionMode: details.deletionMode,
      myRole: details.myRole,
      myNickname: details.members.find((member) => member.membershipId === details.myMembershipId)?.nickname,
      joinRequestCount
    })
  }

  /**
   * G4 after a change the service has made: a failed read must not report the change as failed,
   * so the details are then what the change is known to have done, and the list is fetched again.
   */
  async function reread(groupId: ConversationId, changed: () => GroupDetails): Promise<GroupDetails> {
    try {
      return await gateway.groupDetails(groupId)
    } catch (error) {
      context.log.warn(`could not read ${groupId} again after changing it`, error)
      await refetchList()
      return changed()
    }
  }

  /**
   * The share link a pasted text names, when it is one of the service's own (share-origins.ts);
   * refused in the user's words, before anything is sent, when it is not.
   */
  async function serviceShareLink(text: string): Promise<ShareLink> {
    const link = parseShareLink(text)
    if (link === null) throw new OwnRefusal('VALIDATION', WORDS.notAShareLink)
    const problem = await context.shareOrigins.problemWith(link, 'join_group')
    if (problem !== null) throw new OwnRefusal('VALIDATION', problem)
    return link
  }

  /**
   * The waiting requests with their links at the service's share origin. One kept by an earlier
   * version of the app may name the stranger's address it was pasted with: the request itself
   * went to this service, so it is shown under the service's own origin, or by its path while
   * that is not known.
   */
  async function atServiceOrigin(requests: PendingJoin[]): Promise<PendingJoin[]> {
    const foreign = requests.filter((request) => !context.shareOrigins.isTheService(parseShareLink(request.link)?.origin))
    if (foreign.length === 0) return requests
    const home = await context.shareOrigins.home()
    return requests.map((request) => {
      if (!foreign.includes(request)) return request
      const link = parseShareLink(request.link)
      return { ...request, link: link === null ? '' : shareLinkText({ ...link, origin: home ?? '' }) }
    })
  }

  /** MB5's count for the badge; what the list showed stays when it cannot be read. */
  async function countJoinRequests(groupId: ConversationId): Promise<number | undefined> {
    try {
      return (await gateway.joinRequests(groupId)).length
    } catch (error) {
      context.log.warn(`could not count the requests to join ${groupId}`, error)
      return listed(groupId)?.joinRequestCount
    }
  }

  return {
    'groups:create': ({ group }) =>
      asked(
        async () => enteredGroup(await gateway.createGroup(checkedNewGroup(group))),
        {
          VALIDATION: 'The service did not accept this group. Check its name, description and picture.',
          FORBIDDEN: 'This copy of the app could not verify itself to the service, which creates groups only for verified apps.'
        }
      ),

    'groups:get': ({ groupId }) =>
      asked(async () => {
        const details = await gateway.groupDetails(groupId)
        context.shareOrigins.learn(details.shareUrl)
        // Roles and types change unannounced (§14.5): reading the group is a chance to catch up.
        await showInList(details)
        return details
      }),

    'groups:update': ({ groupId, changes }) =>
      asked(
        async () => {
          const checked = checkedChanges(changes)
          requireManager(groupId, NOT_A_MANAGER)
          const details = await gateway.updateGroup(groupId, checked)
          context.shareOrigins.learn(details.shareUrl)
          await showInList(details)
          return details
        },
        { FORBIDDEN: NOT_A_MANAGER, VALIDATION: 'The service did not accept these settings, so nothing was changed.' }
      ),

    'groups:destroy': ({ groupId }) =>
      asked(
        async () => {
          requireOwner(groupId, 'Only the group’s owner can delete it.')
          await gateway.destroyGroup(groupId)
          await refetchList()
          return null
        },
        { FORBIDDEN: 'Only the group’s owner can delete it.' }
      ),

    'groups:transferOwnership': ({ groupId, userId }) =>
      asked(
        async () => {
          requireOwner(groupId, 'Only the group’s owner can hand it to someone else.')
          const before = await gateway.groupDetails(groupId)
          if (!before.members.some((member) => member.userId === userId)) {
            throw new OwnRefusal('VALIDATION', 'Choose a member of the group to hand it to.')
          }
          if (before.ownerId === userId) throw new OwnRefusal('CONFLICT', 'They already own this group.')
          await gateway.transferOwnership(groupId, userId)
          const after = await reread(groupId, () => handedOver(before, userId))
          await showInList(after)
          return after
        },
        { FORBIDDEN: 'Only the group’s owner can hand it to someone else.', CONFLICT: 'They already own this group.' }
      ),

    'groups:leave': ({ groupId }) =>
      asked(async () => {
        const details = await gateway.groupDetails(groupId)
        if (isOwner(details.myRole)) throw new OwnRefusal('FORBIDDEN', WORDS.ownerLeaving)
        await gateway.removeMember(groupId, details.myMembershipId)
        await refetchList()
        return null
      }),

    'groups:former': () => asked(() => gateway.formerGroups()),

    'groups:rejoin': ({ groupId }) =>
      asked(
        async () => {
          try {
            return await enteredGroup(await gateway.rejoinGroup(groupId))
          } catch (error) {
            // 400: already back in (from another device, say), which is what the user wanted.
            if (errorCodeOf(error) !== 'VALIDATION') throw error
            await refetchList()
            const listedNow = listed(groupId)
            if (listedNow === undefined) throw error
            return listedNow
          }
        },
        {
          NOT_FOUND: 'You can rejoin only a group you left, and this one no longer exists or never had you.',
          FORBIDDEN: 'You cannot rejoin this group: you were removed from it.'
        }
      ),

    'groups:checkLink': ({ link }) => asked(async () => ({ link: shareLinkText(await serviceShareLink(link)) })),

    'groups:join': ({ link, answer }) =>
      asked(
        async () => {
          const checkedAnswer = checkedJoinAnswer(answer)
          const shareLink = await serviceShareLink(link)
          const outcome = await gateway.joinGroup(shareLink.groupId, shareLink.token, checkedAnswer)
          if (outcome.status === 'joined') return { status: 'joined' as const, conversation: await enteredGroup(outcome.conversation) }
          const request = {
            groupId: shareLink.groupId,
            link: shareLinkText(shareLink),
            question: outcome.question,
            answer: outcome.answer,
            requestedAt: outcome.requestedAt
          }
          pendingJoins.remember(request)
          return { status: 'pending' as const, request }
        },
        { NOT_FOUND: WORDS.unknownLink, FORBIDDEN: WORDS.removedFromGroup }
      ),

    'groups:pendingJoins': async () => {
      context.me()
      return atServiceOrigin(pendingJoins.list((groupId) => listed(groupId) !== undefined))
    },

    'groups:forgetPendingJoin': async ({ groupId }) => {
      context.me()
      pendingJoins.forget(groupId)
      return atServiceOrigin(pendingJoins.list((id) => listed(id) !== undefined))
    },

    'members:former': ({ groupId }) =>
      asked(
        async () => {
          const role = listed(groupId)?.myRole
          if (role !== undefined && !canSeeRoster(role)) throw new OwnRefusal('FORBIDDEN', 'Only the group’s admins and owner can see who left.')
          return gateway.formerMembers(groupId)
        },
        { FORBIDDEN: 'Only the group’s admins and owner can see who left.' }
      ),

    'members:add': ({ groupId, candidates }) =>
      asked(
        async () => {
          const checked = checkedCandidates(candidates)
          requireManager(groupId, 'Only the group’s managers can add people to it.')
          return addMembers(gateway, groupId, checked)
        },
        { FORBIDDEN: 'Only the group’s managers can add people to it.', VALIDATION: 'The service did not accept this list of people.' }
      ),

    'members:remove': ({ groupId, membershipId }) =>
      asked(
        async () => {
          requireManager(groupId, 'Only the group’s managers can remove members.')
          const before = await gateway.groupDetails(groupId)
          if (membershipId === before.myMembershipId) throw new OwnRefusal('VALIDATION', 'To remove yourself, leave the group.')
          const target = before.members.find((member) => member.membershipId === membershipId)
          if (target?.role === 'owner') throw new OwnRefusal('FORBIDDEN', 'The group’s owner cannot be removed.')
          await gateway.removeMember(groupId, membershipId)
          return reread(groupId, () => without(before, membershipId))
        },
        { FORBIDDEN: 'Only the group’s managers can remove members.', NOT_FOUND: 'They are no longer a member of this group.' }
      ),

    'members:ban': ({ groupId, membershipId }) =>
      asked(
        async () => {
          requireManager(groupId, 'Only the group’s managers can ban.')
          const before = await gateway.groupDetails(groupId)
          const current = before.members.find((member) => member.membershipId === membershipId)
          if (current === undefined) {
            await gateway.banMember(groupId, membershipId)
          } else {
            // MB7 bans only those who left; a current member is removed instead, which keeps them
            // out just as well: G8 and G9 refuse someone removed, and only a manager adds them back.
            if (membershipId === before.myMembershipId) throw new OwnRefusal('VALIDATION', 'To remove yourself, leave the group.')
            if (current.role === 'owner') throw new OwnRefusal('FORBIDDEN', 'The group’s owner cannot be banned.')
            await gateway.removeMember(groupId, membershipId)
          }
          // Who left and who is banned is MB1's to say, which answers admins and the owner only.
          const role = listed(groupId)?.myRole
          return role === undefined || canSeeRoster(role) ? gateway.formerMembers(groupId) : []
        },
        { FORBIDDEN: 'Only the group’s managers can ban.', VALIDATION: WORDS.banRemovedMember, NOT_FOUND: 'They are no longer in this group.' }
      ),

    'members:setRole': ({ groupId, membershipId, role }) =>
      asked(
        async () => {
          requireOwner(groupId, 'Only the group’s owner can make or remove admins.')
          await gateway.setMemberRole(groupId, membershipId, role)
          return gateway.groupDetails(groupId)
        },
        {
          FORBIDDEN: 'Only the group’s owner can make or remove admins.',
          VALIDATION: 'The owner’s role cannot be changed.',
          NOT_FOUND: 'They are no longer a member of this group.'
        }
      ),

    'members:setNickname': ({ groupId, nickname }) =>
      asked(async () => {
        await gateway.setNickname(groupId, checkedNickname(nickname))
        const details = await gateway.groupDetails(groupId)
        await showInList(details)
        return details
      }),

    'members:joinRequests': ({ groupId }) => asked(() => gateway.joinRequests(groupId)),

    'members:decide': ({ groupId, membershipId, approve }) =>
      asked(
        async () => {
          requireManager(groupId, 'Only the group’s managers can answer requests to join.')
          try {
            await gateway.decideJoinRequest(groupId, membershipId, approve)
          } catch (error) {
            // Not pending any more: another manager answered it first. The list below shows what is left.
            if (errorCodeOf(error) !== 'NOT_FOUND') throw error
          }
          const waiting: JoinRequest[] = await gateway.joinRequests(groupId)
          if (listed(groupId) !== undefined) conversations.updateGroup(groupId, { joinRequestCount: waiting.length })
          return waiting
        },
        { FORBIDDEN: 'Only the group’s managers can answer requests to join.' }
      )
  }
}

/**
 * MB2, then MB3 until the service has finished adding: who was added, and the nickname of each
 * candidate it left out (unknown, already in, banned or blocking the user), told apart by `guid`.
 */
async function addMembers(service: GroupService, groupId: ConversationId, candidates: MemberCandidate[]): Promise<AddMembersResult> {
  const sent = candidates.map((candidate) => ({ ...candidate, guid: randomUUID().toUpperCase() }))
  const resultsId = await service.addMembers(groupId, sent)
  const added = await addedWhenReady(service, groupId, resultsId)
  const addedGuids = new Set(added.map((entry) => entry.guid))
  return {
    added: added.map((entry) => entry.member),
    notAdded: sent.filter((candidate) => !addedGuids.has(candidate.guid)).map((candidate) => candidate.nickname)
  }
}

async function addedWhenReady(service: GroupService, groupId: ConversationId, resultsId: string): Promise<AddedMember[]> {
  let waited = 0
  let pause = FIRST_RESULTS_PAUSE_MS
  for (;;) {
    const added = await service.addedMembers(groupId, resultsId)
    if (added !== null) return added
    if (waited >= RESULTS_PATIENCE_MS) throw new OwnRefusal('NETWORK', WORDS.addTooSlow)
    await new Promise((resolve) => setTimeout(resolve, pause))
    waited += pause
    pause = Math.min(Math.round(pause * 1.5), LONGEST_RESULTS_PAUSE_MS)
  }
}

/** The group as G10 leaves it: the new owner owns it, and the old owner stays an admin (§7 G10). */
function handedOver(before: GroupDetails, ownerId: string): GroupDetails {
  const roleOf = (member: Member): GroupRole => (member.userId === ownerId ? 'owner' : member.role === 'owner' ? 'admin' : member.role)
  return {
    ...before,
    ownerId,
    myRole: before.myRole === 'owner' ? 'admin' : before.myRole,
    members: before.members.map((member) => ({ ...member, role: roleOf(member) }))
  }
}

/** The group without one member, as MB4 leaves it. */
function without(before: GroupDetails, membershipId: string): GroupDetails {
  return { ...before, members: before.members.filter((member) => member.membershipId !== membershipId) }
}
