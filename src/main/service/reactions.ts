// Which `favorite` pushes are news to the user: someone else's reaction, just made, to one of the
// user's own messages. The push comes on every reaction and every reaction taken back, with the
// message's whole list of reactions afterwards and who acted, so a reaction made is told from one
// taken back by whether the actor is still in that list.
import { conversationKind } from '@shared/conversation-id'
import type { WireGroup } from '../api/decoders'
import { nicknameIn } from '../api/to-domain'
import type { ReactionToYourMessage } from '../core/ports'
import type { Log } from '../log/log'
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

export interface ReactionContext {
  meId: string
  /** The user's own push channel. */
  ownChannel: string
  /** The group as the service shows it now (G4): the push names who reacted only by id. */
  group(groupId: string): Promise<WireGroup>
  log: Log
}

/**
 * What core is told of `event`: null when it is no news (see reactionNews). In a group the
 * reactor is named by their nickname there, or not at all (null) when the service cannot say:
 * a failed look-up is no reason to keep the reaction quiet.
 */
export async function reactionToYourMessage(event: PushEvents['favorite'], context: ReactionContext): Promise<ReactionToYourMessage | null> {
  const news = reactionNews(event, context.meId, context.ownChannel)
  if (news === null) return null
  const { conversationId } = event.message
  let reactorName: string | null = null
  if (conversationKind(conversationId) === 'group') {
    try {
      reactorName = nicknameIn(await context.group(conversationId), news.reactorId)
    } catch (error) {
      context.log.warn(`could not look up who reacted in group ${conversationId}`, error)
    }
  }
  return { conversationId, ...news, reactorName, message: event.message }
}
