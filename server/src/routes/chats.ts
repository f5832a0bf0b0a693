import { z } from 'zod'
import type { Core } from '../core.js'
import { Accounts } from '../domain/accounts.js'
import { Chats, chatIdOf } from '../domain/chats.js'
import { Conversations } from '../domain/conversations.js'
import { contentFields, MessageContent } from '../domain/message-content.js'
import { MessageShapes } from '../domain/message-shapes.js'
import { MessageStore } from '../domain/message-store.js'
import { Messages } from '../domain/messages.js'
import { unauthorized } from '../http/errors.js'
import { created, notModified, ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody, parseQuery, queryId, queryInt } from '../http/validation.js'
import { parseEdit } from './messages.js'
import { pagingQuery, toAnchor } from './paging.js'

/** C1–C5 (§11): chats and direct messages. Delete, pin and react are in MS5–MS7 and RX1–RX2. */

const listQuery = z.object({
  page: queryInt(1, Number.MAX_SAFE_INTEGER).optional(),
  per_page: queryInt(1, 100).optional()
})

const historyQuery = pagingQuery.extend({ other_user_id: queryId })

const pinnedQuery = z.object({ other_user_id: queryId })

const sendBody = z.object({
  direct_message: z.object({
    source_guid: z.string().min(1),
    recipient_id: z.string().regex(/^[0-9]+$/, 'must be a user id'),
    ...contentFields
  })
})

export function registerChatRoutes(routes: Routes, core: Core): void {
  const chats = core.use(Chats)
  const conversations = core.use(Conversations)
  const store = core.use(MessageStore)
  const shapes = core.use(MessageShapes)
  const messages = core.use(Messages)

  routes.v3.get('/chats', (ctx) => {
    const query = parseQuery(listQuery, ctx.query)
    return ok(chats.list(ctx.caller.userId, query.page ?? 1, query.per_page ?? 20))
  })

  routes.v3.get('/direct_messages', (ctx) => {
    const query = parseQuery(historyQuery, ctx.query)
    const anchor = toAnchor(query)
    const other = chats.requireOtherUser(ctx.caller.userId, query.other_user_id)
    const conversation = { chatId: chatIdOf(ctx.caller.userId, other.id) }
    const rows = store.page(conversation, anchor, query.limit ?? 20)
    if (rows.length === 0) return notModified()
    return ok({ count: store.count(conversation), direct_messages: rows.map((row) => shapes.shape(row)) })
  })

  routes.v3.post('/direct_messages', (ctx) => {
    const body = parseBody(sendBody, ctx.body).direct_message
    const content = core.use(MessageContent).normalize(body)
    const sender = core.use(Accounts).byId(ctx.caller.userId)
    if (sender === undefined) throw unauthorized()
    const message = chats.send(sender, body.recipient_id, body.source_guid, content)
    return created({ direct_message: message, message })
  })

  // C4: the chat id as written, lower id first (§18.23).
  routes.v4.put('/direct_messages/:chat_id/messages/:message_id', (ctx) => {
    const edit = parseEdit(core, ctx.body)
    const scope = conversations.requireChat(ctx.params['chat_id'], ctx.caller.userId)
    const row = conversations.requireMessage(scope, ctx.params['message_id'])
    return ok({ message: messages.edit(scope, row, ctx.caller.userId, edit) })
  })

  // C5
  routes.v3.get('/pinned/direct_messages', (ctx) => {
    const query = parseQuery(pinnedQuery, ctx.query)
    const other = chats.requireOtherUser(ctx.caller.userId, query.other_user_id)
    const rows = store.pinned(conversations.chatScope(ctx.caller.userId, other.id).key)
    return ok({ count: rows.length, messages: rows.map((row) => shapes.shape(row)) })
  })
}
