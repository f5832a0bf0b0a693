import type { Core } from '../core.js'
import { AccessTokens } from '../domain/access-tokens.js'
import { notFound } from '../http/errors.js'
import { ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { toId } from '../http/validation.js'

/** T1–T3 (§3): the caller's tokens on {v2_url}. */
export function registerTokenRoutes(routes: Routes, core: Core): void {
  const tokens = core.use(AccessTokens)

  routes.v2.get('/access_tokens', (ctx) => ok({ access_tokens: tokens.list(ctx.caller.userId) }))

  // Registered before `:token_id` for clarity; the router prefers the static segment anyway.
  routes.v2.post('/access_tokens/current/destroy', (ctx) => {
    tokens.revoke(ctx.caller.tokenId)
    return ok({})
  })

  routes.v2.post('/access_tokens/:token_id/destroy', (ctx) => {
    const id = toId(ctx.params['token_id'] ?? '')
    if (id === null || !tokens.liveOf(ctx.caller.userId).some((token) => token.id === id)) {
      throw notFound('No such token')
    }
    tokens.revoke(id)
    return ok({})
  })
}
