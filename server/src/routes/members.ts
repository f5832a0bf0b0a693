import { z } from 'zod'
import type { Core } from '../core.js'
import { Groups } from '../domain/groups.js'
import { Memberships } from '../domain/memberships.js'
import { Roster } from '../domain/roster.js'
import { unauthorized } from '../http/errors.js'
import { accepted, ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody, parseQuery, text, toId } from '../http/validation.js'

/** MB1–MB9 (§9). */

const listQuery = z.object({ filter: z.enum(['active', 'inactive']) })

/** One MB2 item: `nickname` and exactly one identifier (a `null` one counts as absent). */
const addItem = z
  .object({
    nickname: text(1, 50),
    user_id: z.string().nullish(),
    phone_number: z.string().nullish(),
    email: z.string().nullish(),
    guid: z.string().nullish()
  })
  .refine(
    (item) => [item.user_id, item.phone_number, item.email].filter((value) => value != null).length === 1,
    'exactly one of user_id, phone_number and email is required'
  )

const addBody = z.object({ members: z.array(addItem).min(1).max(100) })

const approvalBody = z.object({ approval: z.boolean() })

const nicknameBody = z.object({ membership: z.object({ nickname: text(1, 50) }) })

const roleBody = z.object({ role: z.enum(['admin', 'user']) })

/** A path membership id; a malformed one names nothing (404 at the existence step). */
const membershipId = (value: string | undefined): number | null => (value === undefined ? null : toId(value))

export function registerMemberRoutes(routes: Routes, core: Core): void {
  const groups = core.use(Groups)
  const memberships = core.use(Memberships)
  const roster = core.use(Roster)

  // MB1: admins and the owner only, whatever the type (§18.10).
  routes.v3.get('/groups/:group_id/members', (ctx) => {
    const query = parseQuery(listQuery, ctx.query)
    const { group, membership } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    if (!memberships.isAdminOrOwner(group, membership)) throw unauthorized('Only admins and the owner may list members')
    return ok({ memberships: memberships.list(group, query.filter) })
  })

  routes.v3.post('/groups/:group_id/members/add', { attestation: true }, (ctx) => {
    const body = parseBody(addBody, ctx.body)
    const visible = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    const items = body.members.map((item) => ({
      nickname: item.nickname,
      user_id: item.user_id ?? undefined,
      phone_number: item.phone_number ?? undefined,
      email: item.email ?? undefined,
      guid: item.guid ?? undefined
    }))
    return accepted({ results_id: roster.add(visible, items) })
  })

  routes.v3.get('/groups/:group_id/members/results/:results_id', (ctx) => {
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    return ok({ members: roster.results(group, ctx.caller.userId, ctx.params['results_id'] ?? '') })
  })

  routes.v3.post('/groups/:group_id/members/:membership_id/remove', (ctx) => {
    const visible = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    roster.remove(visible, membershipId(ctx.params['membership_id']))
    return ok({})
  })

  routes.v3.get('/groups/:group_id/pending_memberships', (ctx) => {
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    return ok(memberships.pending(group.id))
  })

  routes.v3.post('/groups/:group_id/members/:membership_id/approval', (ctx) => {
    const body = parseBody(approvalBody, ctx.body)
    const visible = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    return ok(roster.decide(visible, membershipId(ctx.params['membership_id']), body.approval))
  })

  // MB7 (ban) is on v2, bare.
  routes.v2.post('/groups/:group_id/memberships/:membership_id/destroy', (ctx) => {
    const visible = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    roster.ban(visible, membershipId(ctx.params['membership_id']))
    return ok({})
  })

  routes.v3.post('/groups/:group_id/memberships/update', (ctx) => {
    const body = parseBody(nicknameBody, ctx.body)
    const visible = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    return ok(roster.rename(visible, body.membership.nickname))
  })

  routes.v3.post('/groups/:group_id/members/:membership_id/update', (ctx) => {
    const body = parseBody(roleBody, ctx.body)
    const visible = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    return ok({ member: roster.setRole(visible, membershipId(ctx.params['membership_id']), body.role) })
  })
}
