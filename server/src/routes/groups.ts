import { z } from 'zod'
import type { Core } from '../core.js'
import { Accounts } from '../domain/accounts.js'
import { Groups, type GroupChanges } from '../domain/groups.js'
import { Images } from '../domain/images.js'
import { Memberships } from '../domain/memberships.js'
import { Roster } from '../domain/roster.js'
import { badRequest, forbidden, unauthorized } from '../http/errors.js'
import { accepted, created, ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody, parseQuery, queryInt, text } from '../http/validation.js'

/** G1–G10 (§7). */

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

/**
 * G6. Every field is optional; `null` counts as absent except where it clears something
 * (`image_url`, `theme_name`, `like_icon`).
 */
const updateBody = z.object({
  name: text(1, 140).nullish(),
  description: text(0, 255).nullish(),
  image_url: z.string().nullish(),
  office_mode: z.boolean().nullish(),
  theme_name: text(1, 50).nullish(),
  share: z.boolean().nullish(),
  requires_approval: z.boolean().nullish(),
  show_join_question: z.boolean().nullish(),
  join_question: z.object({ type: z.literal('join_reason/questions/text'), text: text(1, 200) }).nullish(),
  like_icon: z.object({ type: z.literal('emoji'), pack_id: z.int().min(1), pack_index: z.int().min(0) }).nullish(),
  visibility: z.enum(['searchable', 'hidden']).nullish(),
  group_type: z.enum(['closed', 'private', 'announcement']).nullish(),
  message_deletion_mode: z.array(z.enum(['admin', 'sender'])).nullish()
})

const joinBody = z.object({
  answer: z.object({ response: text(0, 500) }).nullish()
})

const rejoinBody = z.object({ group_id: z.string() })

/** G10: only the list itself is checked here; each item gets its own status (§18.7). */
const changeOwnersBody = z.object({ requests: z.array(z.unknown()).min(1).max(100) })

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

  routes.v3.get('/groups/former', (ctx) => ok(groups.formerOf(ctx.caller.userId).map((group) => groups.shape(group))))

  routes.v3.get('/memberships/states', (ctx) =>
    ok(core.use(Memberships).statesOf(ctx.caller.userId).map((row) => ({ group_id: String(row.group_id), state: row.state })))
  )

  routes.v3.post('/groups/:group_id/update', (ctx) => {
    const body = parseBody(updateBody, ctx.body)
    if (body.image_url != null && !core.use(Images).isImageServiceUrl(body.image_url)) {
      throw badRequest('image_url: must be an image-service URL')
    }
    const { group, membership } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    if (!core.use(Memberships).canManage(group, membership)) throw forbidden('Only managers may update this group')
    const changes: GroupChanges = {}
    if (body.name != null) changes.name = body.name
    if (body.description != null) changes.description = body.description
    if (body.image_url !== undefined) changes.imageUrl = body.image_url
    if (body.office_mode != null) changes.officeMode = body.office_mode
    if (body.theme_name !== undefined) changes.themeName = body.theme_name
    if (body.share != null) changes.share = body.share
    if (body.requires_approval != null) changes.requiresApproval = body.requires_approval
    if (body.show_join_question != null) changes.showJoinQuestion = body.show_join_question
    if (body.join_question != null) changes.joinQuestionText = body.join_question.text
    if (body.like_icon !== undefined) changes.likeIcon = body.like_icon
    if (body.visibility != null) changes.visibility = body.visibility
    if (body.group_type != null) changes.type = body.group_type
    if (body.message_deletion_mode != null) changes.messageDeletionMode = [...new Set(body.message_deletion_mode)]
    return ok(groups.shape(groups.update(group, changes)))
  })

  routes.v3.post('/groups/:group_id/destroy', (ctx) => {
    core.use(Roster).destroy(groups.requireVisible(ctx.params['group_id'], ctx.caller.userId))
    return ok({})
  })

  routes.v3.post('/groups/:group_id/join/:share_token', (ctx) => {
    const body = parseBody(joinBody, ctx.body)
    const caller = core.use(Accounts).byId(ctx.caller.userId)
    if (caller === undefined) throw unauthorized()
    const outcome = core
      .use(Roster)
      .join(ctx.params['group_id'], ctx.params['share_token'], caller, body.answer?.response ?? undefined)
    return outcome.kind === 'member' ? ok({ group: groups.shape(outcome.group) }) : accepted({ membership: outcome.pending })
  })

  routes.v3.post('/groups/join', (ctx) => {
    const body = parseBody(rejoinBody, ctx.body)
    const caller = core.use(Accounts).byId(ctx.caller.userId)
    if (caller === undefined) throw unauthorized()
    return ok(groups.shape(core.use(Roster).rejoin(body.group_id, caller)))
  })

  routes.v3.post('/groups/change_owners', (ctx) => {
    const body = parseBody(changeOwnersBody, ctx.body)
    const roster = core.use(Roster)
    return ok({ results: body.requests.map((item) => roster.changeOwner(ctx.caller.userId, item)) })
  })
}
