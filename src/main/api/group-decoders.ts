// Zod schemas for what the group and member operations answer (docs/protocol.md §7, §9, §15.2,
// §15.4): a group's settings and members, memberships, join requests, add results and owner
// changes. Loose like decoders.ts: the ids the app acts on are checked; what it only shows falls
// back to a neutral value.
import { z } from 'zod'
import { displayName, optionalSeconds, optionalText, optionalUrl, wireGroup, wireId } from './decoders'

/** §15.4 member: `id` is the membership id, which MB4, MB7 and MB9 take. */
export const wireGroupMember = z.looseObject({
  id: wireId,
  user_id: wireId,
  nickname: displayName,
  name: displayName,
  image_url: optionalUrl,
  muted: z.boolean().nullish().catch(null),
  roles: z.array(z.string()).nullish().catch(null)
})
export type WireGroupMember = z.infer<typeof wireGroupMember>

/** G6's join question (§7): its text counts only while `requires_approval` and `show_join_question` are both true. */
const wireJoinQuestion = z.looseObject({ text: optionalText }).nullish().catch(null)

/** §15.2 with what the settings dialog and members panel read: every setting, and members that are all readable. */
export const wireGroupDetails = wireGroup.extend({
  creator_user_id: wireId,
  share_url: optionalUrl,
  requires_approval: z.boolean().nullish().catch(null),
  show_join_question: z.boolean().nullish().catch(null),
  join_question: wireJoinQuestion,
  /** A member entry the app cannot read is left out rather than failing the whole group. */
  members: z
    .array(z.unknown())
    .nullish()
    .catch(null)
    .transform((entries) => (entries ?? []).flatMap((entry) => {
      const member = wireGroupMember.safeParse(entry)
      return member.success ? [member.data] : []
    }))
})
export type WireGroupDetails = z.infer<typeof wireGroupDetails>

export const wireGroupDetailsList = z.array(wireGroupDetails)

/** G2: groups the caller left, as full groups (§15.2). */
export const wireFormerGroupList = z.array(wireGroup)

/** §15.4 membership (MB1): a member's entry with its state. */
export const wireMembership = z.looseObject({
  id: wireId,
  user_id: wireId,
  name: displayName,
  nickname: displayName,
  image_url: optionalUrl,
  state: z.string(),
  roles: z.array(z.string()).nullish().catch(null)
})
export type WireMembership = z.infer<typeof wireMembership>

export const membershipList = z.looseObject({ memberships: z.array(wireMembership) }).transform((answer) => answer.memberships)

/** §15.4 pending membership (MB5, G8's 202): who asks, when, and what they were asked and answered. */
export const wirePendingMembership = z.looseObject({
  id: wireId,
  user_id: wireId,
  /** The account name: a request has no nickname of its own yet. */
  nickname: displayName,
  image_url: optionalUrl,
  timestamp: optionalSeconds,
  reason: z
    .looseObject({
      question: z.looseObject({ text: optionalText }).nullish().catch(null),
      answer: z.looseObject({ response: optionalText }).nullish().catch(null)
    })
    .nullish()
    .catch(null)
})
export type WirePendingMembership = z.infer<typeof wirePendingMembership>

export const pendingMembershipList = z.array(wirePendingMembership)

/** G8: 200 `{group}` when the caller is in, 202 `{membership}` when a manager must approve first. */
export const joinAnswer = z.union([
  z.looseObject({ group: wireGroupDetails }).transform((answer) => ({ kind: 'joined' as const, group: answer.group })),
  z.looseObject({ membership: wirePendingMembership }).transform((answer) => ({ kind: 'pending' as const, request: answer.membership }))
])
export type JoinAnswer = z.infer<typeof joinAnswer>

/** MB2's 202: the id MB3 answers under. */
export const addAccepted = z.looseObject({ results_id: z.string().min(1) }).transform((answer) => answer.results_id)

/** MB3: each member added, with the `guid` of the request item that added them, in request order (§18.16). */
export const addResults = z
  .looseObject({ members: z.array(wireGroupMember.extend({ guid: optionalText })) })
  .transform((answer) => answer.members)
export type WireAddedMember = z.infer<typeof addResults>[number]

/** MB8's answer: the caller's own member entry. */
export const memberAnswer = wireGroupMember

/** MB9's answer. */
export const memberEnvelope = z.looseObject({ member: wireGroupMember }).transform((answer) => answer.member)

/** MB6's answer: the request's new state. */
export const approvalAnswer = z.looseObject({ membership_id: wireId, state: z.string() })

/** G10's answer: one status string per request item, in request order (§7 "G10 statuses"). */
export const ownerChangeResults = z
  .looseObject({ results: z.array(z.looseObject({ group_id: optionalText, status: z.string() })) })
  .transform((answer) => answer.results)
