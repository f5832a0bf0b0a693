// The tray offers Sign out only while someone is signed in. It learns so from the session events
// core sends the window, read on their way past rather than asked of core a second way.
import type { SessionState } from '@shared/session'
import type { EventContract, EventName } from '@shared/window-api'
import type { EventSink } from '../core/ports'

/** `sink`, telling `signedIn` whether someone is signed in each time the session changes. */
export function watchSession(sink: EventSink, signedIn: (signedIn: boolean) => void): EventSink {
  return {
    emit<E extends EventName>(event: E, payload: EventContract[E]): void {
      sink.emit(event, payload)
      if (isSessionChange(event, payload)) signedIn(payload.status === 'signedIn')
    }
  }
}

function isSessionChange(event: EventName, _payload: unknown): _payload is SessionState {
  return event === 'session:changed'
}
