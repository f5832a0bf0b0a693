// Who is typing, named: the push says only a user id (§14.3), so the name comes from the group's
// members (their nickname there). In a chat, or when the look-up fails, the name is left empty for
// core, which knows the chat by its other participant's name.
import type { Typist } from '@shared/conversations'
import { conversationKind } from '@shared/conversation-id'
import type { WireGroup } from '../api/decoders'
import { nicknameIn } from '../api/to-domain'
import type { Log } from '../log/log'
import type { PushEvents } from '../push/push-connection'

export interface TypistContext {
  meId: string
  /** G4, for the typist's nickname in a group. */
  group(groupId: string): Promise<WireGroup>
  log: Log
}

/** The typist `event` announces, or null for the user's own typing or a push that names no conversation. */
export async function typistOf(event: PushEvents['typing'], context: TypistContext): Promise<Typist | null> {
  const { conversationId, userId, startedAt } = event
  if (conversationId === null || userId === context.meId) return null
  let name: string | null = null
  if (conversationKind(conversationId) === 'group') {
    try {
      name = nicknameIn(await context.group(conversationId), userId)
    } catch (error) {
      context.log.warn(`could not look up who is typing in group ${conversationId}`, error)
    }
  }
  return { conversationId, userId, name: name ?? '', at: startedAt }
}
