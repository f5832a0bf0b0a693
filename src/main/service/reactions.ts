// Which `favorite` pushes are news to the user: someone else's reaction, just made, to one of the
// user's own messages. The push comes on every reaction and every reaction taken back, with the
// message's whole list of reactions afterwards and who acted, so a reaction made is told from one
// taken back by whether the actor is still in that list.
import type { PushEvents } from '../push/push-connection'

export interface ReactionNews {
  reactorId: string
  /** The reaction's character, or null for a picture from an emoji pack. */
  emoji: string | null
}

/**
 * The reaction `event` brings to `meId`, or null when it is none of theirs to hear of. It must have
 * come on the user's own channel: the service sends it there only when someone else reacted to
 * their message, and the same push on the conversation's channel (followed while it is open) is
 * then a copy.
 */
export function reactionNews(event: PushEvents['favorite'], meId: string, ownChannel: string): ReactionNews | null {
  const { actorId, message, reactions, channel } = event
  if (channel !== ownChannel || actorId === null || actorId === meId || message.senderId !== meId) return null
  const made = reactions.find((reaction) => reaction.user_ids?.includes(actorId) === true)
  if (made === undefined) return null
  return { reactorId: actorId, emoji: made.type === 'unicode' && typeof made.code === 'string' && made.code !== '' ? made.code : null }
}
