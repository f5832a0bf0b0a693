import { isoFromMicros } from '../clock.js'
import type { Core } from '../core.js'
import type { PushEvent } from '../push/publisher.js'
import type { Attachment } from './message-content.js'
import { MessageReactions, type ReactionEntry } from './message-reactions.js'
import type { MessageRow, SystemEvent } from './message-store.js'

/** How a message is shown: the §15.1 shape (with its reactions) and its `line.create` push (§14.4). */

export const DELETED_TEXT = 'This message was deleted'

/** §15.1 message M. */
export interface MessageJson {
  id: string
  source_guid: string
  created_at: number
  user_id: string
  sender_id: string
  sender_type: 'user' | 'system'
  name: string
  avatar_url: string | null
  text: string
  system: boolean
  favorited_by: string[]
  reactions: ReactionEntry[]
  attachments: Attachment[]
  updated_at: number | null
  deleted_at: string | null
  deletion_actor: string | null
  pinned_at: number | null
  pinned_by: string | null
  parent_id: null
  picture_url: string | null
  location: { lat: string; lng: string; name: string | null }
  group_id?: string
  chat_id?: string
  conversation_id?: string
  recipient_id?: string
  event?: { type: string; data: unknown }
}

export class MessageShapes {
  readonly #core: Core

  constructor(core: Core) {
    this.#core = core
  }

  /** §15.1. Deleted messages come back as their tombstone (§10). */
  shape(row: MessageRow): MessageJson {
    const deleted = row.deleted_at_us !== null
    const { reactions, favorited_by } = deleted ? { reactions: [], favorited_by: [] } : this.#core.use(MessageReactions).of(row.id)
    const attachments = deleted ? [] : (JSON.parse(row.attachments) as Attachment[])
    const image = attachments.find((a) => a.type === 'image')
    const location = attachments.find((a) => a.type === 'location')
    const json: MessageJson = {
      id: row.id,
      source_guid: row.source_guid,
      created_at: row.created_at,
      user_id: row.sender_id,
      sender_id: row.sender_id,
      sender_type: row.sender_type,
      name: row.name,
      avatar_url: row.avatar_url,
      text: deleted ? DELETED_TEXT : row.text,
      system: row.sender_type === 'system',
      favorited_by,
      reactions,
      attachments,
      updated_at: row.updated_at,
      deleted_at: row.deleted_at_us === null ? null : isoFromMicros(row.deleted_at_us),
      deletion_actor: row.deletion_actor,
      pinned_at: deleted ? null : row.pinned_at,
      pinned_by: deleted ? null : row.pinned_by,
      parent_id: null,
      picture_url: image?.type === 'image' ? image.url : null,
      location:
        location?.type === 'location'
          ? { lat: location.lat, lng: location.lng, name: location.name }
          : { lat: '', lng: '', name: null }
    }
    if (row.group_id !== null) json.group_id = String(row.group_id)
    if (row.chat_id !== null) {
      json.chat_id = row.chat_id
      json.conversation_id = row.chat_id
      json.recipient_id = String(row.recipient_id)
    }
    if (row.event !== null) json.event = JSON.parse(row.event) as SystemEvent
    return json
  }
}

/** `line.create` / `direct_message.create` data (§14.4). */
export function lineEvent(type: 'line.create' | 'direct_message.create', message: MessageJson): PushEvent {
  return { type, alert: alertOf(message), subject: message }
}

/** `<name>: <text>`; a system message's alert is its text (§14.4). */
export function alertOf(message: MessageJson): string {
  if (message.system) return message.text
  if (message.text !== '') return `${message.name}: ${message.text}`
  return message.picture_url === null ? `${message.name} sent an attachment` : `${message.name} posted a picture`
}
