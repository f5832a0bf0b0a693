import { z } from 'zod'
import type { Anchor } from '../domain/message-store.js'
import { badRequest } from '../http/errors.js'
import { queryId, queryInt } from '../http/validation.js'

/** The paging parameters MS1 and C2 share (§10): at most one anchor, `limit` 1–100. */
export const pagingQuery = z.object({
  before_id: queryId.optional(),
  since_id: queryId.optional(),
  after_id: queryId.optional(),
  limit: queryInt(1, 100).optional()
})

export function toAnchor(query: z.output<typeof pagingQuery>): Anchor {
  const given = [query.before_id, query.since_id, query.after_id].filter((value) => value !== undefined)
  if (given.length > 1) throw badRequest('Use at most one of before_id, since_id and after_id')
  if (query.before_id !== undefined) return { before: query.before_id }
  if (query.since_id !== undefined) return { since: query.since_id }
  if (query.after_id !== undefined) return { after: query.after_id }
  return null
}
