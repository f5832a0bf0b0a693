// A pin or an unpin reaches the others only as a system message (`message.pinned`, docs/protocol.md
// §14.5) that names the message by id. The message is then read again (MS3), so that everyone's
// Pin or Unpin button shows it as it now is.
import type { WireMessage } from '../api/decoders'

/** The id of the message a `message.pinned` system message is about; null for any other message. */
export function pinnedMessageId(wire: WireMessage): string | null {
  if (wire.event?.type !== 'message.pinned') return null
  const data = wire.event.data
  const id = typeof data === 'object' && data !== null ? (data as { message_id?: unknown }).message_id : undefined
  return (typeof id === 'string' && id !== '') || typeof id === 'number' ? String(id) : null
}
