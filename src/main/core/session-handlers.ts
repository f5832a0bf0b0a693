// Signing in and out, by every route, and what a page that (re)loads is told first.
import type { PushStatus } from '@shared/session'
import type { InvokeHandlers } from '@shared/window-api'
import type { FeatureContext } from './feature-context'
import type { Session } from './session'

type SessionChannel = Extract<keyof InvokeHandlers, `session:${string}` | 'app:ready'>
export type SessionHandlers = Pick<InvokeHandlers, SessionChannel>

/**
 * `unsent`: how many messages the user wrote wait unsent. Signing out discards them, so it asks
 * for their say-so: no caller (the window, the tray) drops them in silence.
 */
export function sessionHandlers(
  context: FeatureContext,
  session: Session,
  connection: () => { push: PushStatus; offline: boolean },
  unsent: () => number
): SessionHandlers {
  return {
    'app:ready': async () => {
      // A renderer that (re)loads learns the connection's state now; it only changes rarely.
      const { push, offline } = connection()
      context.events.emit('push:status', push)
      context.events.emit('connection:offline', { offline })
      // A reload is how a person asks for what is new. The list here was fetched at sign-in and
      // on reconnects, and the service announces to nobody a group deleted or a change of its
      // settings (§14.5): the page gets this list now and the service's own when it comes.
      if (session.me !== null) void context.refreshConversations().catch(() => undefined)
      return null
    },
    'session:get': async () => session.state,
    'session:signIn': ({ username, password }) => session.signIn(username, password),
    'session:sendCode': () => session.sendCode(),
    'session:confirmCode': ({ code }) => session.confirmCode(code),
    'session:cancelVerification': async () => {
      session.cancelVerification()
      return null
    },
    'session:textInstead': () => session.textInstead(),
    'session:cancelTextRoute': async () => {
      session.cancelTextRoute()
      return null
    },
    'session:startOver': () => session.startOver(),
    'session:signOut': async ({ discardUnsent }) => {
      const count = session.me === null ? 0 : unsent()
      if (count > 0 && discardUnsent !== true) return { status: 'unsentMessages', count }
      await session.signOut()
      return { status: 'signedOut' }
    }
  }
}
