// An edit or a deletion also reaches every member as a push-only system message ("A message was
// edited.", docs/protocol.md §14.5). The change itself arrives as `message.update` or
// `message.deleted` and is shown in place; the notice is not a message of its own, so it neither
// joins the history nor counts as unread nor notifies, and it never shows in a listing either.
import type { WireMessage } from '../api/decoders'

const CHANGE_EVENTS = new Set(['message.update', 'message.deleted'])

export function isChangeNotice(wire: WireMessage): boolean {
  return wire.event !== null && wire.event !== undefined && CHANGE_EVENTS.has(wire.event.type)
}
