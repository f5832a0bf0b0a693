/**
 * A failure the client is told about. The router turns it into the failure body
 * `{"response": null, "meta": {"code", "errors"}}` (§2.4), or into `body` as given for the few
 * operations whose failure has its own shape (V3's `{"remaining_attempts": n}`).
 */
export class HttpError extends Error {
  readonly status: number
  readonly errors: string[]
  readonly body: object | undefined

  constructor(status: number, errors: string | string[], body?: object) {
    const list = Array.isArray(errors) ? errors : [errors]
    super(list.join('; '))
    this.status = status
    this.errors = list
    this.body = body
  }
}

export const badRequest = (error: string | string[]): HttpError => new HttpError(400, error)
export const unauthorized = (error = 'Unauthorized'): HttpError => new HttpError(401, error)
export const forbidden = (error = 'Forbidden'): HttpError => new HttpError(403, error)
export const notFound = (error = 'Not found'): HttpError => new HttpError(404, error)
export const conflict = (error: string): HttpError => new HttpError(409, error)
export const tooManyRequests = (error: string): HttpError => new HttpError(429, error)

/** §2.3: the one error text the contract fixes. */
export const ATTESTATION_ERROR = 'device verification required'
