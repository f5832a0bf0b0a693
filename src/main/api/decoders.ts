// Zod schemas for the service's payloads, as the real service sends them rather than as the
// contract promises (docs/protocol.md §15 and the recordings in tests/fixtures/recorded): old
// recordings carry numeric ids, timestamps as numeric or ISO strings, nulls where strings are
// documented, and keys that come and go. Every object is loose, so unknown keys pass. A field the
// app relies on (a message's id, a group's id, a token) is checked; anything merely displayed
// falls back to a neutral value instead of failing the whole payload.
import { z } from 'zod'

/** Ids are decimal strings by contract; 2015-era payloads sometimes carry them as numbers. */
export const wireId = z
  .union([z.string().min(1), z.number().int().nonnegative()])
  .transform((value) => String(value))

/** Unix seconds as an integer, a numeric string, or (in a few recordings) an ISO 8601 string. */
export const unixSeconds = z.union([z.number(), z.string()]).transform((value, ctx) => {
  if (typeof value === 'number') {
    if (Number.isFinite(value)) return Math.floor(value)
  } else if (/^\d+(\.\d+)?$/.test(value.trim())) {
    return Math.floor(Number(value))
  } else {
    const ms = Date.parse(value)
    if (!Number.isNaN(ms)) return Math.floor(ms / 1000)
  }
  ctx.addIssue({ code: 'custom', message: `not a timestamp: ${String(value)}` })
  return z.NEVER
})

/** A display string that may be missing or null; anything else odd becomes null rather than an error. */
export const optionalText = z.string().nullish().catch(null).transform((value) => value ?? null)

/** A name to show: an absent or odd one reads as empty rather than failing its whole payload. */
export const displayName = z
  .string()
  .nullish()
  .catch(null)
  .transform((value) => value ?? '')

/** A URL field (§2.1: may be null when unset). The real service also sends "" for "none". */
export const optionalUrl = z
  .string()
  .nullish()
  .catch(null)
  .transform((value) => (value === undefined || value === null || value === '' ? null : value))

export const optionalId = wireId.nullish().catch(null).transform((value) => value ?? null)
export const optionalSeconds = unixSeconds.nullish().catch(null).transform((value) => value ?? null)

// ---------------------------------------------------------------------------------------------
// Attachments. Only the kinds the app shows are typed; anything else (video, file, reply,
// mentions, …) still passes the message schema and is dropped when mapping to the domain.

export const wireAttachment = z.looseObject({ type: z.string() })

export const imageAttachment = z.looseObject({ type: z.literal('image'), url: z.string().min(1) })

const coordinate = z.union([z.string(), z.number()]).transform((value) => String(value))

export const locationAttachment = z.looseObject({
  type: z.literal('location'),
  lat: coordinate,
  lng: coordinate,
  name: optionalText
})

export const emojiAttachment = z.looseObject({
  type: z.literal('emoji'),
  placeholder: z.string(),
  charmap: z.array(z.tuple([z.number().int(), z.number().int()]))
})

export const pollAttachment = z.looseObject({ type: z.literal('poll'), poll_id: wireId })

// ---------------------------------------------------------------------------------------------
// Messages (§15.1). Group messages carry `group_id`; DMs carry `chat_id`/`conversation_id` and
// `recipient_id`. One schema covers both so a caller never has to guess which one arrived.

export const wireEvent = z.looseObject({ type: z.string(), data: z.unknown().optional() })

export const wireMessage = z.looseObject({
  id: wireId,
  /** Attachment-only messages have `null` text on the real service. */
  text: z
    .string()
    .nullish()
    .transform((value) => value ?? ''),
  created_at: unixSeconds,
  source_guid: optionalText,
  user_id: optionalId,
  sender_id: optionalId,
  sender_type: optionalText,
  name: optionalText,
  avatar_url: optionalUrl,
  system: z.boolean().nullish().catch(null),
  attachments: z.array(z.unknown()).nullish().catch(null),
  favorited_by: z.array(z.unknown()).nullish().catch(null),
  reactions: z.array(z.unknown()).nullish().catch(null),
  pinned_at: optionalSeconds,
  group_id: optionalId,
  chat_id: optionalText,
  conversation_id: optionalText,
  recipient_id: optionalId,
  deleted_at: z.unknown().optional(),
  deletion_actor: optionalText,
  updated_at: optionalSeconds,
  event: wireEvent.nullish().catch(null)
})
export type WireMessage = z.infer<typeof wireMessage>

/** One entry of a message's `reactions` (§12): a unicode one carries `code`, an emoji pack's picture `pack_id`/`pack_index`. */
export const wireReactionEntry = z.looseObject({
  type: z.string(),
  code: optionalText,
  user_ids: z.array(wireId).nullish().catch(null)
})

/** MS1 (§10) and C2 (§11) pages. `count` is the whole conversation's total, when sent. */
export const groupMessagePage = z.looseObject({
  count: z.number().int().nullish().catch(null),
  messages: z.array(wireMessage)
})

export const directMessagePage = z.looseObject({
  count: z.number().int().nullish().catch(null),
  direct_messages: z.array(wireMessage)
})

export const groupMessageEnvelope = z.looseObject({ message: wireMessage })

/** C3 answers `{direct_message, message}` with the same object under both keys. */
export const directMessageEnvelope = z
  .looseObject({ direct_message: wireMessage.optional(), message: wireMessage.optional() })
  .transform((value, ctx) => {
    const message = value.direct_message ?? value.message
    if (message === undefined) {
      ctx.addIssue({ code: 'custom', message: 'neither direct_message nor message present' })
      return z.NEVER
    }
    return message
  })

// ---------------------------------------------------------------------------------------------
// Groups (§15.2) and chats (§15.5).

const wirePreview = z.looseObject({
  nickname: optionalText,
  text: optionalText,
  image_url: optionalUrl,
  attachments: z.array(z.unknown()).nullish().catch(null)
})

export const wireGroup = z.looseObject({
  id: wireId,
  name: displayName,
  type: optionalText,
  description: optionalText,
  image_url: optionalUrl,
  creator_user_id: optionalId,
  created_at: optionalSeconds,
  updated_at: optionalSeconds,
  members: z.array(z.unknown()).nullish().catch(null),
  message_deletion_mode: z.array(z.string()).nullish().catch(null),
  messages: z
    .looseObject({
      count: z.number().int().nullish().catch(null),
      last_message_id: optionalId,
      last_message_created_at: optionalSeconds,
      preview: wirePreview.nullish().catch(null)
    })
    .nullish()
    .catch(null)
})
export type WireGroup = z.infer<typeof wireGroup>

export const wireGroupList = z.array(wireGroup)

/** A group's member (§15.4), as far as the app reads one: who it is, what they are called there, whether they muted it. */
export const wireMember = z.looseObject({
  user_id: wireId,
  nickname: optionalText,
  muted: z.boolean().nullish().catch(null),
  roles: z.array(z.string()).nullish().catch(null)
})
export type WireMember = z.infer<typeof wireMember>

const wireOtherUser = z.looseObject({
  id: wireId,
  name: displayName,
  avatar_url: optionalUrl
})

export const wireChat = z.looseObject({
  other_user: wireOtherUser,
  created_at: optionalSeconds,
  updated_at: optionalSeconds,
  messages_count: z.number().int().nullish().catch(null),
  /** Recorded as `{}` for a thread whose last message the service would not show: treat as none. */
  last_message: wireMessage
    .nullish()
    .catch(null)
    .transform((value) => value ?? null)
})
export type WireChat = z.infer<typeof wireChat>

export const wireChatList = z.array(wireChat)

// ---------------------------------------------------------------------------------------------
// Users, tokens and verifications (§15.8, §15.9).

export const wireSelfUser = z.looseObject({
  id: wireId,
  name: z.string(),
  email: optionalText,
  phone_number: optionalText,
  image_url: optionalUrl,
  avatar_url: optionalUrl,
  /** The user's contact link (§6), `<origin>/contact/<user_id>/<token>`. */
  share_url: optionalUrl
})
export type WireSelfUser = z.infer<typeof wireSelfUser>

export const wireTokenResult = z.looseObject({
  access_token: z.string().min(1),
  user_id: optionalId,
  user_name: optionalText,
  expires_at: optionalSeconds,
  user: z
    .looseObject({ id: optionalId, name: optionalText, email: optionalText, avatar_url: optionalUrl })
    .nullish()
    .catch(null)
})
export type WireTokenResult = z.infer<typeof wireTokenResult>

export const wireVerification = z.looseObject({
  /** The MFA interaction id, needed for every later step. */
  code: z.string().min(1),
  methods: z.record(z.string(), z.unknown()).nullish().catch(null),
  status: optionalText,
  type: optionalText,
  long_pin: optionalText,
  system_number: optionalText
})
export type WireVerification = z.infer<typeof wireVerification>

export const verificationEnvelope = z.looseObject({ verification: wireVerification })

// ---------------------------------------------------------------------------------------------
// The failure body (§2.4), read leniently: the errors are kept for the log, nothing more.

export const failureBody = z.looseObject({
  meta: z
    .looseObject({
      code: z.number().nullish().catch(null),
      errors: z
        .array(z.unknown())
        .nullish()
        .catch(null)
        .transform((errors) => (errors ?? []).map((error) => (typeof error === 'string' ? error : JSON.stringify(error))))
    })
    .nullish()
    .catch(null)
})

/** MU1/MU2's answer (§8, §15.4): the caller's membership as a mute. `muted_until` is Unix seconds. */
export const muteEnvelope = z.looseObject({
  membership: z.looseObject({
    muted: z.boolean(),
    muted_until: z.number().int().nullish().transform((value) => value ?? null)
  })
})
export type WireMute = z.infer<typeof muteEnvelope>['membership']
