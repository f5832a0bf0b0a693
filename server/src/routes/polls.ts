import { z } from 'zod'
import type { Core } from '../core.js'
import { Accounts } from '../domain/accounts.js'
import { Groups } from '../domain/groups.js'
import { Memberships } from '../domain/memberships.js'
import { MAX_POLL_SECONDS, Polls } from '../domain/polls.js'
import { badRequest, forbidden, unauthorized } from '../http/errors.js'
import { created, ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody, parseQuery, text } from '../http/validation.js'

/** PL1–PL6 (§13): polls in groups. Option ids are digits, so `/end` is always PL5. */

const createBody = z.object({
  subject: text(1, 160),
  options: z.array(z.object({ title: text(1, 160) })).min(2).max(10),
  expiration: z.int(),
  type: z.enum(['single', 'multi']),
  visibility: z.enum(['anonymous', 'public'])
})

const votesBody = z.object({ votes: z.array(z.string()).min(1) })

const listQuery = z.object({ continuation_token: z.string().optional() })

export function registerPollRoutes(routes: Routes, core: Core): void {
  const groups = core.use(Groups)
  const polls = core.use(Polls)

  // PL1
  routes.v3.post('/poll/:group_id', (ctx) => {
    const body = parseBody(createBody, ctx.body)
    const now = core.clock.now()
    if (body.expiration <= now || body.expiration > now + MAX_POLL_SECONDS) {
      throw badRequest('expiration: must be Unix seconds after now and at most one year ahead')
    }
    const visible = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    if (!core.use(Memberships).canPost(visible.group, visible.membership)) {
      throw forbidden('Only admins may create polls in an announcement group')
    }
    const creator = core.use(Accounts).byId(ctx.caller.userId)
    if (creator === undefined) throw unauthorized()
    return created(polls.create(visible, creator, body))
  })

  // PL6
  routes.v3.get('/poll/:group_id', (ctx) => {
    const query = parseQuery(listQuery, ctx.query)
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    return ok(polls.list(group.id, ctx.caller.userId, query.continuation_token))
  })

  // PL2
  routes.v3.get('/poll/:group_id/:poll_id', (ctx) => {
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    const poll = polls.require(group.id, ctx.params['poll_id'])
    return ok({ poll: polls.view(poll, ctx.caller.userId) })
  })

  // PL4
  routes.v3.post('/poll/:group_id/:poll_id', (ctx) => {
    const body = parseBody(votesBody, ctx.body)
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    const poll = polls.require(group.id, ctx.params['poll_id'])
    return ok({ poll: polls.vote(poll, ctx.caller.userId, body.votes) })
  })

  // PL5
  routes.v3.post('/poll/:group_id/:poll_id/end', (ctx) => {
    const visible = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    const poll = polls.require(visible.group.id, ctx.params['poll_id'])
    return ok({ poll: polls.end(visible, poll, ctx.caller.userId) })
  })

  // PL3: a vote for exactly this option, whatever the poll type.
  routes.v3.post('/poll/:group_id/:poll_id/:option_id', (ctx) => {
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    const poll = polls.require(group.id, ctx.params['poll_id'])
    return ok({ poll: polls.vote(poll, ctx.caller.userId, [ctx.params['option_id'] ?? '']) })
  })
}
