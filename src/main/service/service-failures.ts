// The service connection speaks core's language: a refusal or an outage leaves it as an AppError
// whose code core decides by, worded for the user; the service's own text stays in its cause.
import type { ErrorCode } from '../../shared/ipc'
import { ApiError, ServiceUnreachableError } from '../api/api-error'
import { AppError } from '../core/app-error'
import { userMessageFor } from '../core/failures'

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITED'
}

export function asAppError(error: unknown): unknown {
  const code = serviceErrorCode(error)
  return code === null ? error : new AppError(code, userMessageFor(code), { cause: error })
}

function serviceErrorCode(error: unknown): ErrorCode | null {
  if (error instanceof ServiceUnreachableError) return 'NETWORK'
  // A 5xx is the service out of order rather than refusing: like an outage, it is worth trying again.
  if (error instanceof ApiError) return STATUS_CODES[error.status] ?? (error.status >= 500 ? 'NETWORK' : 'INTERNAL')
  return null
}

/** The same object, each of its methods failing with `asAppError` of what the original threw. */
export function speakingCore<T extends { [K in keyof T]: (...args: never[]) => Promise<unknown> }>(service: T): T {
  const wrapped: Record<string, (...args: never[]) => Promise<unknown>> = {}
  for (const [name, method] of Object.entries<(...args: never[]) => Promise<unknown>>(service)) {
    wrapped[name] = async (...args) => {
      try {
        return await method(...args)
      } catch (error) {
        throw asAppError(error)
      }
    }
  }
  return wrapped as T
}
