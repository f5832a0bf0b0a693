import { z } from 'zod'
import { badRequest, notFound } from './errors.js'
import { RawBody, UnusableBody } from './body.js'

/**
 * Syntax checks (§2.5 step 4 → 400) for bodies, query strings and path ids, plus the small zod
 * building blocks the contract's rules keep asking for (code-point lengths, ASCII digits, exact
 * booleans).
 */

function describe(error: z.ZodError): string[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.')
    return path === '' ? issue.message : `${path}: ${issue.message}`
  })
}

/** The body as JSON, or `undefined` when absent (empty or top-level `null`, §18.2). */
function jsonBody(body: unknown): unknown {
  if (body instanceof UnusableBody) throw badRequest(body.reason)
  if (body instanceof RawBody) {
    if (body.bytes.length === 0) return undefined
    throw badRequest('Content-Type must be application/json')
  }
  return body === null ? undefined : body
}

/**
 * Validates an object body. An absent body is validated as `{}`, so operations whose fields are all
 * optional accept it, and the others report the missing fields. A top-level array, string, number
 * or boolean → 400 (§18.2).
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const value = jsonBody(body) ?? {}
  if (typeof value !== 'object' || Array.isArray(value)) throw badRequest('Request body must be a JSON object')
  const result = schema.safeParse(value)
  if (!result.success) throw badRequest(describe(result.error))
  return result.data
}

/** Validates a body that is a bare JSON array (R3). */
export function parseArrayBody<S extends z.ZodType>(schema: S, body: unknown): z.output<S> {
  const value = jsonBody(body)
  if (!Array.isArray(value)) throw badRequest('Request body must be a JSON array')
  const result = schema.safeParse(value)
  if (!result.success) throw badRequest(describe(result.error))
  return result.data
}

export type RawQuery = Record<string, string | string[] | undefined>

/** Validates query parameters; a parameter given twice is a syntax error. */
export function parseQuery<S extends z.ZodType>(schema: S, query: RawQuery): z.output<S> {
  const single: Record<string, string> = {}
  for (const [key, value] of Object.entries(query)) {
    if (Array.isArray(value)) throw badRequest(`${key}: given more than once`)
    if (value !== undefined) single[key] = value
  }
  const result = schema.safeParse(single)
  if (!result.success) throw badRequest(describe(result.error))
  return result.data
}

/** Length in Unicode code points (§2.1), not UTF-16 units. */
export const codePoints = (value: string): number => {
  let n = 0
  for (const _ of value) n++
  return n
}

/** A string whose length in code points lies in [min, max]. */
export function text(min: number, max: number): z.ZodString {
  return z.string().refine((s) => {
    const n = codePoints(s)
    return n >= min && n <= max
  }, min === 0 ? `must be at most ${max} characters` : `must be ${min} to ${max} characters`)
}

/** Query integer: ASCII digits only (§18.3), within [min, max]. */
export function queryInt(min: number, max: number): z.ZodType<number, string> {
  return z
    .string()
    .regex(/^[0-9]+$/, 'must be an integer')
    .transform(Number)
    .refine((n) => n >= min && n <= max, `must be between ${min} and ${max}`)
}

/** Query boolean: exactly `true` or `false` (§2.1). */
export const queryBool = z.enum(['true', 'false']).transform((v) => v === 'true')

/** Query id: ASCII digits. Existence is checked later (404), not here. */
export const queryId = z.string().regex(/^[0-9]+$/, 'must be an id')

const ID = /^[1-9][0-9]{0,14}$/

/**
 * A decimal id from a path or body. A malformed id names nothing, so it is "not found" (404),
 * which §2.5 checks after syntax; callers decide where that sits in their order.
 */
export function toId(value: string): number | null {
  return ID.test(value) ? Number(value) : null
}

export function requireId(value: string | undefined, what = 'Not found'): number {
  const id = value === undefined ? null : toId(value)
  if (id === null) throw notFound(what)
  return id
}
