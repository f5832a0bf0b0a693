// A poll as the app shows it (src/shared/polls.ts): who voted named by their nickname in the group.
import type { Poll } from '@shared/polls'
import type { WirePoll } from './polls'

export interface PollViewer {
  id: string
  /** Owner or admin of the group: may end anyone's poll (PL5). */
  administers: boolean
  /** A member's nickname, or null when the group does not list them. */
  nicknameOf(userId: string): string | null
}

export function toPoll(wire: WirePoll, viewer: PollViewer, nowSeconds: number): Poll {
  const { data } = wire
  const ended = data.status === 'past' || data.expiration <= nowSeconds
  return {
    id: data.id,
    conversationId: data.conversation_id,
    subject: data.subject,
    ownerId: data.owner_id,
    expiresAt: data.expiration,
    ended,
    multiple: data.type === 'multi',
    anonymous: data.visibility !== 'public',
    options: data.options.map((option) => ({
      id: option.id,
      title: option.title,
      votes: option.votes ?? 0,
      voters: (option.voter_ids ?? []).map((id) => ({ id, name: viewer.nicknameOf(id) ?? '' }))
    })),
    myVotes: wire.user_votes ?? [],
    canEnd: !ended && (data.owner_id === viewer.id || viewer.administers)
  }
}
