import { z } from 'zod'
import type { Core } from '../core.js'
import { Relationships } from '../domain/relationships.js'
import { accepted, created, ok } from '../http/replies.js'
import type { Routes } from '../http/router.js'
import { parseArrayBody, parseBody, parseQuery, queryBool, toId } from '../http/validation.js'

/** R1, R2, R4, R5 on {v4_url} (bare) and R3 on {base_url} with ATT (§6). */

const ISO = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})(?:\.(\d{1,9}))?(Z|[+-]\d{2}:\d{2})$/

/**
 * Unix microseconds of an ISO 8601 date-time with a zone (`Z` or `±hh:mm`), fractions to the
 * microsecond (finer digits are cut off, which keeps `since` exclusive), or null if invalid.
 */
export function microsFromIso(value: string): number | null {
  const match = ISO.exec(value)
  if (match === null) return null
  const [, y, mo, d, h, mi, s, fraction = '', zone = 'Z'] = match
  const [year, month, day, hour, minute, second] = [y, mo, d, h, mi, s].map(Number) as [number, number, number, number, number, number]
  const ms = Date.UTC(year, month - 1, day, hour, minute, second)
  const check = new Date(ms)
  if (
    check.getUTCFullYear() !== year || check.getUTCMonth() !== month - 1 || check.getUTCDate() !== day ||
    check.getUTCHours() !== hour || check.getUTCMinutes() !== minute || check.getUTCSeconds() !== second
  ) {
    return null
  }
  let offsetMinutes = 0
  if (zone !== 'Z') {
    const sign = zone.startsWith('-') ? -1 : 1
    const [zh, zm] = zone.slice(1).split(':').map(Number) as [number, number]
    if (zh > 23 || zm > 59) return null
    offsetMinutes = sign * (zh * 60 + zm)
  }
  const micros = Number(fraction.padEnd(6, '0').slice(0, 6))
  return (ms - offsetMinutes * 60_000) * 1000 + micros
}

const listQuery = z.object({
  include_blocked: queryBool.optional(),
  since: z
    .string()
    .transform((value, ctx) => {
      const micros = microsFromIso(value)
      if (micros === null) {
        ctx.addIssue({ code: 'custom', message: 'must be an ISO 8601 date-time, e.g. 2024-10-01T20:38:31.690372Z' })
        return z.NEVER
      }
      return micros
    })
    .optional()
})

const createBody = z.object({ user_id: z.string(), token: z.string() })

const importBody = z
  .array(
    z.object({
      name: z.string(),
      guid: z.string(),
      phone_number: z.string().regex(/^\+?[0-9]{7,15}$/, 'must be 7 to 15 digits, optionally after +')
    })
  )
  .min(1, 'must have at least 1 entry')
  .max(1000, 'must have at most 1000 entries')

export function registerRelationshipRoutes(routes: Routes, core: Core): void {
  const relationships = core.use(Relationships)

  routes.v4.get('/relationships', (ctx) => {
    const query = parseQuery(listQuery, ctx.query)
    return ok(relationships.list(ctx.caller.userId, query.since ?? Number.MIN_SAFE_INTEGER, query.include_blocked ?? true))
  })

  routes.v4.post('/relationships/create', (ctx) => {
    const body = parseBody(createBody, ctx.body)
    relationships.createByShareToken(ctx.caller.userId, toId(body.user_id), body.token)
    return created({})
  })

  routes.v3.post('/relationships/import_contacts', { attestation: true }, (ctx) => {
    const entries = parseArrayBody(importBody, ctx.body)
    return accepted({ batch_id: relationships.importContacts(ctx.caller.userId, entries) })
  })

  routes.v4.get('/relationships/batch/:batch_id', (ctx) => {
    return ok(relationships.batchResults(ctx.caller.userId, ctx.params['batch_id'] ?? ''))
  })

  routes.v4.delete('/relationships/:user_id', (ctx) => {
    relationships.remove(ctx.caller.userId, toId(ctx.params['user_id'] ?? ''))
    return accepted({})
  })
}
