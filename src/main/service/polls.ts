// Polls as core asks for them (core/ports.ts PollService), answered as the user sees them: who
// voted by nickname and whether the user may end the poll, both read from the group's members.
import type { Poll } from '@shared/polls'
import { wireMember, type WireGroup } from '../api/decoders'
import { toPoll, type PollViewer } from '../api/poll-to-domain'
import { createPoll, endPoll, getPoll, listPolls, votePoll, type WirePoll } from '../api/polls'
import type { ServiceClient } from '../api/service-client'
import { nicknameIn, toMessage } from '../api/to-domain'
import type { PollService } from '../core/ports'

export interface PollGatewayOptions {
  client: ServiceClient
  meId: () => string
  /** G4: the group's members, for voters' nicknames and the user's role. */
  group: (groupId: string) => Promise<WireGroup>
  /** Unix milliseconds. */
  now: () => number
}

/**
 * How long one reading of a group's members serves its polls. An open poll on screen is fetched
 * every few seconds, and G4 carries up to 5000 members: roles and nicknames change far less often.
 */
export const MEMBERS_FRESH_MS = 30_000

export function pollGateway({ client, meId, group, now }: PollGatewayOptions): PollService {
  const viewers = new Map<string, { readAt: number; viewer: Promise<PollViewer> }>()

  async function asSeen(groupId: string, wire: Promise<WirePoll>): Promise<Poll> {
    const [poll, viewer] = await Promise.all([wire, viewerIn(groupId)])
    return toPoll(poll, viewer, Math.floor(now() / 1000))
  }

  function viewerIn(groupId: string): Promise<PollViewer> {
    const key = `${meId()} ${groupId}`
    const kept = viewers.get(key)
    if (kept !== undefined && now() - kept.readAt < MEMBERS_FRESH_MS) return kept.viewer
    const viewer = readViewer(groupId)
    viewers.set(key, { readAt: now(), viewer })
    // A failed reading is not kept: the next call tries again.
    viewer.catch(() => viewers.delete(key))
    return viewer
  }

  async function readViewer(groupId: string): Promise<PollViewer> {
    const id = meId()
    const members = await group(groupId)
    const roles = rolesIn(members, id)
    return { id, administers: roles.includes('admin') || roles.includes('owner'), nicknameOf: (userId) => nicknameIn(members, userId) }
  }

  return {
    async createPoll(groupId, poll) {
      const created = createPoll(client, groupId, {
        subject: poll.subject,
        options: poll.options,
        expiration: poll.expiresAt,
        type: poll.multiple ? 'multi' : 'single',
        visibility: poll.anonymous ? 'anonymous' : 'public'
      })
      const [shown, { message }] = await Promise.all([asSeen(groupId, created.then((answer) => answer.poll)), created])
      return { poll: shown, message: toMessage(message, groupId) }
    },
    poll: (groupId, pollId) => asSeen(groupId, getPoll(client, groupId, pollId)),
    vote: (groupId, pollId, optionIds) => asSeen(groupId, votePoll(client, groupId, pollId, optionIds)),
    endPoll: (groupId, pollId) => asSeen(groupId, endPoll(client, groupId, pollId)),
    async polls(groupId, next) {
      const [page, viewer] = await Promise.all([listPolls(client, groupId, next), viewerIn(groupId)])
      const nowSeconds = Math.floor(now() / 1000)
      return { polls: page.polls.map((poll) => toPoll(poll, viewer, nowSeconds)), next: page.next }
    }
  }
}

/** §2.6: an admin's roles include `admin`, the owner's `owner`; nobody listed has none. */
function rolesIn(group: WireGroup, userId: string): readonly string[] {
  for (const entry of group.members ?? []) {
    const member = wireMember.safeParse(entry)
    if (member.success && member.data.user_id === userId) {
      const roles: unknown = member.data.roles
      return Array.isArray(roles) ? roles.filter((role): role is string => typeof role === 'string') : []
    }
  }
  return []
}
