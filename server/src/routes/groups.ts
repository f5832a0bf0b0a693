import { z } from 'zod'
import type { Core } from '../core.js'
import { Accounts } from '../domain/accounts.js'
import { Groups } from '../domain/groups.js'
import { Images } from '../domain/images.js'
import { badRequest, unauthorized } from '../http/errors.js'
import { created, ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody, parseQuery, queryInt, text } from '../http/validation.js'

/** G1, G4, G5 (§7). */

const listQuery = z.object({
  page: queryInt(1, Number.MAX_SAFE_INTEGER).optional(),
  per_page: queryInt(1, 100).optional(),
  omit: z.string().optional()
})

const createBody = z.object({
  name: text(1, 140),
  description: text(0, 255).nullish(),
  image_url: z.string().nullish(),
  share: z.boolean().nullish()
})

export function registerGroupRoutes(routes: Routes, core: Core): void {
  const groups = core.use(Groups)

  routes.v3.get('/groups', (ctx) => {
    const query = parseQuery(listQuery, ctx.query)
    const omitMembers = (query.omit ?? '').split(',').includes('memberships')
    const rows = groups.listFor(ctx.caller.userId, query.page ?? 1, query.per_page ?? 10)
    return ok(rows.map((group) => groups.shape(group, { omitMembers })))
  })

  routes.v3.get('/groups/:group_id', (ctx) => {
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    return ok(groups.shape(group))
  })

  routes.v3.post('/groups', { attestation: true }, (ctx) => {
    const body = parseBody(createBody, ctx.body)
    if (body.image_url != null && !core.use(Images).isImageServiceUrl(body.image_url)) {
      throw badRequest('image_url: must be an image-service URL')
    }
    const creator = core.use(Accounts).byId(ctx.caller.userId)
    if (creator === undefined) throw unauthorized()
    const group = groups.create(creator, {
      name: body.name,
      description: body.description ?? '',
      imageUrl: body.image_url ?? null,
      share: body.share ?? false
    })
    return created(groups.shape(group))
  })
}
