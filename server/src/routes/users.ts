import type { Core } from '../core.js'
import { Accounts } from '../domain/accounts.js'
import { unauthorized } from '../http/errors.js'
import { ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'

/** U1 (§4). */
export function registerUserRoutes(routes: Routes, core: Core): void {
  routes.v3.get('/users/me', (ctx) => {
    const account = core.use(Accounts).byId(ctx.caller.userId)
    if (account === undefined) throw unauthorized()
    return ok(core.use(Accounts).selfUser(account))
  })
}
