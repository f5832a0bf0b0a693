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
