// The body of a message this client sends (MS2, C3; docs/protocol.md §10 "Message rules").
import type { SendableAttachment } from '@shared/messages'

/** Polls are created by the service only (§10): a client can send every other kind. */
export type OutgoingAttachment = SendableAttachment

export function toWireAttachment(attachment: OutgoingAttachment): Record<string, unknown> {
  switch (attachment.type) {
    case 'image':
      return { type: 'image', url: attachment.url }
    case 'location':
      return { type: 'location', lat: attachment.lat, lng: attachment.lng, name: attachment.name }
    case 'emoji':
      return { type: 'emoji', placeholder: attachment.placeholder, charmap: attachment.charmap }
  }
}

export interface OutgoingMessage {
  /** The client's id for this message; a retry with the same guid within 60 s is refused with 409, never posted twice. */
  sourceGuid: string
  text: string
  attachments?: OutgoingAttachment[]
}

export function messageBody(message: OutgoingMessage): Record<string, unknown> {
  return {
    source_guid: message.sourceGuid,
    text: message.text,
    attachments: (message.attachments ?? []).map(toWireAttachment)
  }
}
