import { z } from 'zod'
import type { Core } from '../core.js'
import { Accounts } from '../domain/accounts.js'
import { Blocks } from '../domain/blocks.js'
import { badRequest, forbidden, notFound } from '../http/errors.js'
import { created, ok, type Reply } from '../http/replies.js'
import type { AuthedContext, Routes } from '../http/router.js'
import { parseQuery, queryId } from '../http/validation.js'

/**
 * B1–B5 (§5). Every parameter is in the query string and required. Order: syntax (400), `user` is
 * not the caller (403, before existence, §18.9), unknown `otherUser` (404), then the operation's
 * own checks.
 */

const userQuery = z.object({ user: queryId })
const pairQuery = z.object({ user: queryId, otherUser: queryId })

function requireSelf(ctx: AuthedContext, user: string): void {
  if (user !== String(ctx.caller.userId)) throw forbidden('user must be your own user id')
}

/** The caller and the existing other user of a B2–B5 call. */
function pair(core: Core, ctx: AuthedContext): { caller: number; other: number } {
  const query = parseQuery(pairQuery, ctx.query)
  requireSelf(ctx, query.user)
  const other = core.use(Accounts).byId(Number(query.otherUser))
  if (!/^[1-9][0-9]{0,14}$/.test(query.otherUser) || other === undefined) throw notFound('No such user')
  return { caller: ctx.caller.userId, other: other.id }
}

export function registerBlockRoutes(routes: Routes, core: Core): void {
  const blocks = core.use(Blocks)

  routes.v3.get('/blocks', (ctx) => {
    const query = parseQuery(userQuery, ctx.query)
    requireSelf(ctx, query.user)
    return ok({ blocks: blocks.list(ctx.caller.userId) })
  })

  routes.v3.get('/blocks/between', (ctx) => {
    const { caller, other } = pair(core, ctx)
    return ok({ between: blocks.eitherBlocks(caller, other) })
  })

  routes.v3.post('/blocks', (ctx) => {
    const { caller, other } = pair(core, ctx)
    if (caller === other) throw badRequest('otherUser: you cannot block yourself')
    return created({ block: blocks.block(caller, other) })
  })

  const unblock = (ctx: AuthedContext): Reply => {
    const { caller, other } = pair(core, ctx)
    if (!blocks.unblock(caller, other)) throw notFound('No such block')
    return ok({})
  }
  routes.v3.delete('/blocks', unblock)
  routes.v3.post('/blocks/delete', unblock)
}
