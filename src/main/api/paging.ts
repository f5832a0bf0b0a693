// Message paging shared by group messages (MS1) and direct messages (C2), service-api.md §10.
import type { Attachment } from '../../shared/domain'
import type { QueryValue } from './service-client'

/** At most one anchor per request (§10). `before`/`since` pages are newest first, `after` oldest first. */
export type PageAnchor = { before: string } | { since: string } | { after: string }

export interface MessagePageRequest {
  anchor?: PageAnchor
  /** 1–100; the service's default is 20. */
  limit?: number
}

export function pageQuery(request: MessagePageRequest): Record<string, QueryValue> {
  const anchor = request.anchor
  return {
    before_id: anchor !== undefined && 'before' in anchor ? anchor.before : undefined,
    since_id: anchor !== undefined && 'since' in anchor ? anchor.since : undefined,
    after_id: anchor !== undefined && 'after' in anchor ? anchor.after : undefined,
    limit: request.limit
  }
}

/** Polls are created by the service only (§10): a client can send every other kind. */
export type OutgoingAttachment = Exclude<Attachment, { type: 'poll' }>

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
