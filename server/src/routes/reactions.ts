import { z } from 'zod'
import type { Core } from '../core.js'
import { Conversations } from '../domain/conversations.js'
import { Groups } from '../domain/groups.js'
import { reactionSchema } from '../domain/message-reactions.js'
import { Reactions } from '../domain/reactions.js'
import { ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseBody, parseQuery } from '../http/validation.js'

/** RX1–RX5 (§12): reactions in groups and chats, and the group likes lists. */

const likeBody = z.object({ like_icon: reactionSchema.nullish() })

const periodQuery = z.object({ period: z.enum(['day', 'week', 'month']) })

export function registerReactionRoutes(routes: Routes, core: Core): void {
  const groups = core.use(Groups)
  const conversations = core.use(Conversations)
  const reactions = core.use(Reactions)

  // RX1: a bare like uses the conversation's default reaction.
  routes.v3.post('/messages/:conversation_id/:message_id/like', (ctx) => {
    const body = parseBody(likeBody, ctx.body)
    const scope = conversations.requireConversation(ctx.params['conversation_id'], ctx.caller.userId)
    const row = conversations.requireMessage(scope, ctx.params['message_id'])
    return ok({ reactions: reactions.like(scope, row, ctx.caller.userId, body.like_icon ?? null) })
  })

  // RX2
  routes.v3.post('/messages/:conversation_id/:message_id/unlike', (ctx) => {
    const scope = conversations.requireConversation(ctx.params['conversation_id'], ctx.caller.userId)
    const row = conversations.requireMessage(scope, ctx.params['message_id'])
    return ok({ reactions: reactions.unlike(scope, row, ctx.caller.userId) })
  })

  // RX3
  routes.v3.get('/groups/:group_id/likes', (ctx) => {
    const query = parseQuery(periodQuery, ctx.query)
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    return ok({ messages: reactions.popular(group.id, query.period) })
  })

  // RX4
  routes.v3.get('/groups/:group_id/likes/mine', (ctx) => {
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    return ok({ messages: reactions.mine(group.id, ctx.caller.userId) })
  })

  // RX5
  routes.v3.get('/groups/:group_id/likes/for_me', (ctx) => {
    const { group } = groups.requireVisible(ctx.params['group_id'], ctx.caller.userId)
    return ok({ messages: reactions.forMe(group.id, ctx.caller.userId) })
  })
}
