// What core's feature modules get from the app around them: the service, the conversation list,
// and the signed-in user. app-core builds one; each feature adds its handlers.
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Me } from '@shared/session'
import type { Log } from '../log/log'
import type { Blocks } from './blocks'
import type { Conversations } from './conversations'
import type { EventSink, Preferences, ServiceGateway } from './ports'
import type { IssuedToken } from '@shared/token-issuer'
import type { ShareOrigins } from './share-origins'

export interface FeatureContext {
  gateway: ServiceGateway
  conversations: Conversations
  preferences: Preferences
  events: EventSink
  /** Whom the user blocks, and who can write to whom, so a chat says what the profile says. */
  blocks: Blocks
  /** Where the service's own share links live: a pasted link elsewhere is refused. */
  shareOrigins: ShareOrigins
  log: Log
  /** The signed-in user; throws UNAUTHENTICATED when nobody is. */
  me(): Me
  /** One of the user's conversations; throws NOT_FOUND when it is not in their list (UNAUTHENTICATED when nobody is signed in). */
  conversation(conversationId: ConversationId): Conversation
  /** Fetches the list again (after a change the service announces to nobody, say). */
  refreshConversations(): Promise<Conversation[]>
  /** Unix milliseconds. */
  now(): number
  /**
   * Runs `issue`, which replaces every token of the account (M4), and carries on with the token it
   * answers: kept first, then carried by every request and by push.
   */
  switchToken(issue: () => Promise<IssuedToken>): Promise<void>
  /** The signed-in user's own name or avatar changed (their profile was saved). */
  meChanged(me: Me): void
  /** The service ended every session of the account (a password change): back to sign-in, saying why. */
  endSession(notice: string): Promise<void>
  /** Runs `run`; should the service refuse this app's token meanwhile, the sign-in screen says `notice`. */
  refusalMeans<T>(notice: string, run: () => Promise<T>): Promise<T>
}
