import { z } from 'zod'
import type { Core } from '../core.js'
import { Accounts } from '../domain/accounts.js'
import { Images } from '../domain/images.js'
import { Profiles } from '../domain/profiles.js'
import { badRequest, unauthorized } from '../http/errors.js'
import { created, ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { codePoints, parseBody, parseQuery, queryBool, text, toId } from '../http/validation.js'

/** U1–U3 (§4) and P1 (§3). */

const updateBody = z.object({
  name: text(1, 64).nullish(),
  email: z.string().includes('@', { message: 'must be an e-mail address' }).nullish(),
  // `null` clears the avatar, so it is not "absent" here (§2.1).
  avatar_url: z.string().nullable().optional(),
  bio: text(0, 500).nullish()
})

const passwordBody = z.object({
  password: z.string().refine((value) => codePoints(value) >= 8, 'must be at least 8 characters'),
  password_current: z.string()
})

const profileQuery = z.object({ include_shared_groups: queryBool.optional() })

export function registerUserRoutes(routes: Routes, core: Core): void {
  routes.v3.get('/users/me', (ctx) => {
    const account = core.use(Accounts).byId(ctx.caller.userId)
    if (account === undefined) throw unauthorized()
    return ok(core.use(Accounts).selfUser(account))
  })

  routes.v3.post('/users/update', (ctx) => {
    const body = parseBody(updateBody, ctx.body)
    if (typeof body.avatar_url === 'string' && !core.use(Images).isImageServiceUrl(body.avatar_url)) {
      throw badRequest('avatar_url: must be a URL of the image service')
    }
    const self = core.use(Profiles).update(ctx.caller.userId, {
      ...(body.name == null ? {} : { name: body.name }),
      ...(body.email == null ? {} : { email: body.email }),
      ...(body.avatar_url === undefined ? {} : { avatarUrl: body.avatar_url }),
      ...(body.bio == null ? {} : { bio: body.bio })
    })
    return ok(self)
  })

  routes.v3.post('/users/password', async (ctx) => {
    const body = parseBody(passwordBody, ctx.body)
    await core.use(Profiles).changePassword(ctx.caller.userId, body.password_current, body.password)
    return created({})
  })

  routes.v2.get('/users/:user_id', (ctx) => {
    const query = parseQuery(profileQuery, ctx.query)
    const userId = toId(ctx.params['user_id'] ?? '')
    return ok(core.use(Profiles).profile(ctx.caller.userId, userId, query.include_shared_groups ?? false))
  })
}
