/** The service answered with a failure status. `errors` is its `meta.errors` text, kept for the log. */
export class ApiError extends Error {
  readonly status: number
  readonly errors: string[]
  /** The decoded failure body, for the few operations whose errors carry data (V3's remaining attempts). */
  readonly body: unknown

  constructor(operation: string, status: number, errors: string[], body: unknown) {
    super(`${operation} failed with ${status}${errors.length > 0 ? `: ${errors.join('; ')}` : ''}`)
    this.name = 'ApiError'
    this.status = status
    this.errors = errors
    this.body = body
  }
}

/** The service could not be reached at all, or answered with something that is not its protocol. */
export class ServiceUnreachableError extends Error {
  constructor(operation: string, options?: { cause?: unknown }) {
    super(`${operation}: the service could not be reached`, options)
    this.name = 'ServiceUnreachableError'
  }
}

/**
 * The service answered with a redirect, which the client never follows: the request carried the
 * access token (or a password), and a redirect may point anywhere, another host or plain http: included.
 */
export class ServiceRedirectError extends Error {
  /** Where the service pointed, resolved against the request's address; null when it did not say. */
  readonly location: string | null

  constructor(operation: string, status: number, location: string | null) {
    super(`${operation}: the service answered ${status} with a redirect to ${location ?? 'nowhere'}, which is not followed`)
    this.name = 'ServiceRedirectError'
    this.location = location
  }
}

/**
 * The request would have carried a token to addresses other than those of the deployment that
 * issued it, so it was never sent.
 */
export class TokenElsewhereError extends Error {
  constructor(operation: string) {
    super(`${operation}: the access token was issued by another service than the one configured now, so it was not sent`)
    this.name = 'TokenElsewhereError'
  }
}
