import { z } from 'zod'
import type { Core } from '../core.js'
import { Accounts } from '../domain/accounts.js'
import { Conversations } from '../domain/conversations.js'
import { Groups } from '../domain/groups.js'
import { Memberships } from '../domain/memberships.js'
import { contentFields, MessageContent, type ContentEdit } from '../domain/message-content.js'
import { MessageShapes } from '../domain/message-shapes.js'
import { MessageStore, type Anchor } from '../domain/message-store.js'
import { Messages } from '../domain/messages.js'
import { badRequest, forbidden, unauthorized } from '../http/errors.js'
import { created, noContent, notModified, ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody, parseQuery } from '../http/validation.js'
import { pagingQuery, toAnchor } from './paging.js'

/** MS1–MS8 (§10): group messages, show and edit (v4), delete and pins (groups and chats). */

const sendBody = z.object({
  message: z.object({ source_guid: z.string().min(1), ...contentFields })
})

/** MS4 / C4: the top-level body, not wrapped; at least one field present and non-null. */
const editBody = z.object(contentFields)

/** Syntax of an edit (§2.5 step 4): the body's types, one field given, image-service URLs. */
export function parseEdit(core: Core, body: unknown): ContentEdit {
  const edit = parseBody(editBody, body)
  if ((edit.text ?? null) === null && (edit.attachments ?? null) === null) throw badRequest('Give text or attachments')
  core.use(MessageContent).assertImageUrls(edit.attachments ?? [])
  return edit
}

export function registerMessageRoutes(routes: Routes, core: Core): void {
  const groups = core.use(Groups)
  const conversations = core.use(Conversations)
  const store = core.use(MessageStore)
  const shapes = core.use(MessageShapes)
  const messages = core.use(Messages)

  routes.v3.get('/groups/:group_id/messages', (ctx) => {
    const query = parseQuery(pagingQuery, ctx.query)
    const anchor: Anchor = toAnchor(query)
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    const conversation = { groupId: group.id }
    const rows = store.page(conversation, anchor, query.limit ?? 20)
    if (rows.length === 0) return notModified()
    return ok({ count: store.count(conversation), messages: rows.map((row) => shapes.shape(row)) })
  })

  routes.v3.post('/groups/:group_id/messages', (ctx) => {
    const body = parseBody(sendBody, ctx.body)
    const content = core.use(MessageContent).normalize(body.message)
    const visible = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    if (!core.use(Memberships).canPost(visible.group, visible.membership)) {
      throw forbidden('Only admins may post in an announcement group')
    }
    store.assertGuidFree({ groupId: visible.group.id }, ctx.caller.userId, body.message.source_guid)
    const sender = core.use(Accounts).byId(ctx.caller.userId)
    if (sender === undefined) throw unauthorized()
    return created({ message: messages.sendToGroup(visible, sender, body.message.source_guid, content) })
  })

  // MS3: a deleted message comes back as its tombstone.
  routes.v4.get('/groups/:group_id/messages/:message_id', (ctx) => {
    const scope = conversations.groupScope(groups.requireVisible(ctx.params['group_id'], ctx.caller.userId))
    const row = conversations.requireMessage(scope, ctx.params['message_id'], { allowDeleted: true })
    return ok({ message: shapes.shape(row) })
  })

  // MS4
  routes.v4.put('/groups/:group_id/messages/:message_id', (ctx) => {
    const edit = parseEdit(core, ctx.body)
    const scope = conversations.groupScope(groups.requireVisible(ctx.params['group_id'], ctx.caller.userId))
    const row = conversations.requireMessage(scope, ctx.params['message_id'])
    return ok({ message: messages.edit(scope, row, ctx.caller.userId, edit) })
  })

  // MS5
  routes.v3.delete('/conversations/:conversation_id/messages/:message_id', (ctx) => {
    const scope = conversations.requireConversation(ctx.params['conversation_id'], ctx.caller.userId)
    const row = conversations.requireMessage(scope, ctx.params['message_id'])
    messages.delete(scope, row, ctx.caller.userId)
    return noContent()
  })

  // MS6, MS7: any member or DM participant.
  for (const [action, pinned] of [['pin', true], ['unpin', false]] as const) {
    routes.v3.post(`/conversations/:conversation_id/messages/:message_id/${action}`, (ctx) => {
      const scope = conversations.requireConversation(ctx.params['conversation_id'], ctx.caller.userId)
      const row = conversations.requireMessage(scope, ctx.params['message_id'])
      messages.setPinned(scope, row, ctx.caller.userId, pinned)
      return ok({})
    })
  }

  // MS8
  routes.v3.get('/pinned/groups/:group_id/messages', (ctx) => {
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    const rows = store.pinned({ groupId: group.id })
    return ok({ count: rows.length, messages: rows.map((row) => shapes.shape(row)) })
  })
}
