// Decoding of the `data` of push deliveries (docs/protocol.md §14.3, §14.4). The service adds event
// types without notice (the recordings show `like.create` and `read_receipt.create`), so an
// unknown type is an ordinary outcome; a known type whose payload lacks what the app needs is an
// error the caller logs and skips.
import { z } from 'zod'
import { displayName, optionalSeconds, optionalText, optionalUrl, wireId, wireMessage, type WireMessage } from '../api/decoders'

export const wireReaction = z.looseObject({
  type: z.string(),
  code: z.string().nullish().catch(null),
  pack_id: z.number().nullish().catch(null),
  pack_index: z.number().nullish().catch(null),
  user_ids: z.array(wireId).nullish().catch(null)
})
export type WireReaction = z.infer<typeof wireReaction>

/** The cut-down group of `membership.create` (§15.3). */
export const wireMembershipGroup = z.looseObject({
  id: wireId,
  name: displayName,
  avatar_url: optionalUrl,
  type: optionalText,
  created_at: optionalSeconds,
  updated_at: optionalSeconds
})
export type WireMembershipGroup = z.infer<typeof wireMembershipGroup>

const envelopeFields = {
  alert: z.string().nullish().catch(null),
  /** Unix milliseconds. */
  received_at: z.number().nullish().catch(null)
}

const messageEvent = z.looseObject({ ...envelopeFields, subject: wireMessage })

const favoriteEvent = z.looseObject({
  ...envelopeFields,
  subject: z.looseObject({
    line: wireMessage.optional(),
    direct_message: wireMessage.optional(),
    reactions: z.array(wireReaction).nullish().catch(null),
    user_id: wireId.nullish().catch(null)
  })
})

const membershipEvent = z.looseObject({ ...envelopeFields, subject: wireMembershipGroup })

const typingEvent = z.looseObject({ user_id: wireId, started: z.number() })

export type PushEvent =
  | { type: 'line.create'; message: WireMessage; alert: string | null }
  | { type: 'direct_message.create'; message: WireMessage; alert: string | null }
  | { type: 'membership.create'; group: WireMembershipGroup; alert: string | null }
  | {
      type: 'favorite'
      message: WireMessage
      conversationKind: 'group' | 'dm'
      reactions: WireReaction[]
      /** Who reacted or took their reaction back. */
      actorId: string | null
    }
  | { type: 'message.deleted'; message: WireMessage }
  | { type: 'message.update'; message: WireMessage }
  /** `startedAt` is Unix milliseconds. */
  | { type: 'typing'; userId: string; startedAt: number }
  /** Keep-alives: `{type: "ping"}`, and long polling's idle `{ping: true}` (§14.1). */
  | { type: 'ping' }
  | { type: 'unknown'; rawType: string | null }

export type PushDecodeResult = { ok: true; event: PushEvent } | { ok: false; error: z.ZodError | Error }

const envelope = z.looseObject({ type: z.string().optional(), ping: z.unknown().optional() })

export function decodePushData(data: unknown): PushDecodeResult {
  const head = envelope.safeParse(data)
  if (!head.success) return { ok: false, error: head.error }
  const type = head.data.type
  if (type === undefined) {
    return head.data.ping === true ? { ok: true, event: { type: 'ping' } } : { ok: true, event: { type: 'unknown', rawType: null } }
  }
  switch (type) {
    case 'line.create':
    case 'direct_message.create': {
      const parsed = messageEvent.safeParse(data)
      if (!parsed.success) return { ok: false, error: parsed.error }
      return { ok: true, event: { type, message: parsed.data.subject, alert: parsed.data.alert ?? null } }
    }
    case 'message.deleted':
    case 'message.update': {
      const parsed = messageEvent.safeParse(data)
      if (!parsed.success) return { ok: false, error: parsed.error }
      return { ok: true, event: { type, message: parsed.data.subject } }
    }
    case 'membership.create': {
      const parsed = membershipEvent.safeParse(data)
      if (!parsed.success) return { ok: false, error: parsed.error }
      return { ok: true, event: { type, group: parsed.data.subject, alert: parsed.data.alert ?? null } }
    }
    case 'favorite': {
      const parsed = favoriteEvent.safeParse(data)
      if (!parsed.success) return { ok: false, error: parsed.error }
      const { line, direct_message: directMessage, reactions, user_id: actorId } = parsed.data.subject
      const message = line ?? directMessage
      if (message === undefined) return { ok: false, error: new Error('favorite without line or direct_message') }
      return {
        ok: true,
        event: { type, message, conversationKind: line === undefined ? 'dm' : 'group', reactions: reactions ?? [], actorId: actorId ?? null }
      }
    }
    case 'typing': {
      const parsed = typingEvent.safeParse(data)
      if (!parsed.success) return { ok: false, error: parsed.error }
      return { ok: true, event: { type, userId: parsed.data.user_id, startedAt: parsed.data.started } }
    }
    case 'ping':
      return { ok: true, event: { type } }
    default:
      return { ok: true, event: { type: 'unknown', rawType: type } }
  }
}
