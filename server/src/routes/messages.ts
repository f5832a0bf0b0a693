import { z } from 'zod'
import type { Core } from '../core.js'
import { Accounts } from '../domain/accounts.js'
import { Groups } from '../domain/groups.js'
import { Memberships } from '../domain/memberships.js'
import { contentFields, Messages, type Anchor } from '../domain/messages.js'
import { forbidden, unauthorized } from '../http/errors.js'
import { created, notModified, ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody, parseQuery } from '../http/validation.js'
import { pagingQuery, toAnchor } from './paging.js'

/** MS1, MS2 (§10): group messages. */

const sendBody = z.object({
  message: z.object({ source_guid: z.string().min(1), ...contentFields })
})

export function registerMessageRoutes(routes: Routes, core: Core): void {
  const groups = core.use(Groups)
  const messages = core.use(Messages)

  routes.v3.get('/groups/:group_id/messages', (ctx) => {
    const query = parseQuery(pagingQuery, ctx.query)
    const anchor: Anchor = toAnchor(query)
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    const conversation = { groupId: group.id }
    const rows = messages.page(conversation, anchor, query.limit ?? 20)
    if (rows.length === 0) return notModified()
    return ok({ count: messages.count(conversation), messages: rows.map((row) => messages.shape(row)) })
  })

  routes.v3.post('/groups/:group_id/messages', (ctx) => {
    const body = parseBody(sendBody, ctx.body)
    const content = messages.normalizeContent(body.message)
    const visible = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    if (!core.use(Memberships).canPost(visible.group, visible.membership)) {
      throw forbidden('Only admins may post in an announcement group')
    }
    messages.assertGuidFree({ groupId: visible.group.id }, ctx.caller.userId, body.message.source_guid)
    const sender = core.use(Accounts).byId(ctx.caller.userId)
    if (sender === undefined) throw unauthorized()
    return created({ message: messages.sendToGroup(visible, sender, body.message.source_guid, content) })
  })
}
