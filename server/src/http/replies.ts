/**
 * Success results returned by route handlers and the bodies the contract prescribes (§2.4).
 * A handler returns a `Reply`; the router decides whether the payload is enveloped (v3) or bare.
 */
export interface Reply {
  status: number
  /** Absent for the no-body statuses 204 and 304. */
  payload?: unknown
  /** Bytes sent as they are, never enveloped (I2). */
  raw?: { contentType: string; bytes: Buffer }
}

export const ok = (payload: unknown): Reply => ({ status: 200, payload })
export const created = (payload: unknown): Reply => ({ status: 201, payload })
export const accepted = (payload: unknown): Reply => ({ status: 202, payload })
export const noContent = (): Reply => ({ status: 204 })
/** An empty message page (§10, §18.22). */
export const notModified = (): Reply => ({ status: 304 })

export interface FailureBody {
  response: null
  meta: { code: number; errors: string[] }
}

export function failureBody(status: number, errors: readonly string[]): FailureBody {
  return { response: null, meta: { code: status, errors: errors.length > 0 ? [...errors] : ['Error'] } }
}

export function envelope(status: number, payload: unknown): { response: unknown; meta: { code: number; errors: null } } {
  return { response: payload, meta: { code: status, errors: null } }
}

export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8'
