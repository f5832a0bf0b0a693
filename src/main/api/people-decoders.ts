// Zod schemas for the people payloads (docs/protocol.md §15.7, §15.9): profiles, relationships,
// blocks and contact imports. Loose like decoders.ts: what the app relies on (an id, a paging
// time, a batch id) is checked; what it merely shows falls back to a neutral value.
import { z } from 'zod'
import { displayName, optionalSeconds, optionalText, optionalUrl, wireId } from './decoders'

/** One of the groups both users are in (U3 with `include_shared_groups`); `group_id` is a number there. */
const wireSharedGroup = z.looseObject({
  group_id: wireId,
  group_name: displayName,
  group_avatar: optionalUrl
})

/** §15.7. `created_at_iso8601` is R1's paging key; `blocked` comes only from R1, `guid` only from R4. */
export const wireRelationship = z.looseObject({
  user_id: wireId,
  name: displayName,
  avatar_url: optionalUrl,
  created_at_iso8601: z.string().min(1),
  reason: z.number().int().nullish().catch(null),
  blocked: z.boolean().nullish().catch(null),
  guid: optionalText
})
export type WireRelationship = z.infer<typeof wireRelationship>

/** R1 and R4 answer a bare array. */
export const wireRelationshipList = z.array(wireRelationship)

/** U3 (§15.9): how the caller sees another user. */
export const wireProfile = z.looseObject({
  user: z.looseObject({
    id: wireId,
    name: displayName,
    avatar_url: optionalUrl,
    bio: optionalText,
    direct_message_capable: z.boolean().nullish().catch(null)
  }),
  relationship: z.looseObject({ user_id: wireId }).nullish().catch(null),
  shared_groups: z.array(wireSharedGroup).nullish().catch(null)
})
export type WireProfile = z.infer<typeof wireProfile>

/** §15.7 block: the caller blocks `blocked_user_id` since `created_at` (Unix seconds). */
export const wireBlock = z.looseObject({
  user_id: wireId,
  blocked_user_id: wireId,
  created_at: optionalSeconds
})
export type WireBlock = z.infer<typeof wireBlock>

export const blockList = z.looseObject({ blocks: z.array(wireBlock) }).transform((answer) => answer.blocks)

export const blockEnvelope = z.looseObject({ block: wireBlock }).transform((answer) => answer.block)

/** R3's 202: the batch whose results R4 reads. */
export const importAccepted = z.looseObject({ batch_id: z.string().min(1) }).transform((answer) => answer.batch_id)

/** A group member as someone to pick (§15.4): their account name and avatar, with the nickname as a fallback name. */
export const wireGroupPerson = z.looseObject({
  user_id: wireId,
  name: optionalText,
  nickname: optionalText,
  image_url: optionalUrl
})
export type WireGroupPerson = z.infer<typeof wireGroupPerson>

/** What an answer with nothing to say (`{}`) is read as. */
export const nothing = z.unknown().transform(() => undefined)
