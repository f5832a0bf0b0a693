// The service connection speaks core's language: a refusal or an outage leaves it as an AppError
// whose code core decides by, worded for the user; the service's own text stays in its cause.
import type { ErrorCode } from '@shared/window-api'
import { ApiError, ServiceRedirectError, ServiceUnreachableError, TokenElsewhereError } from '../api/api-error'
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
  // Not a session end: the same request may work once the address is put right, and whatever it
  // carried (a message in the outbox, say) waits for that like it waits out an outage.
  if (error instanceof ServiceRedirectError) {
    return new AppError('NETWORK', redirectWords(error.location), { cause: error })
  }
  const code = serviceErrorCode(error)
  return code === null ? error : new AppError(code, userMessageFor(code), { cause: error })
}

/** What the person reads when the service redirects a request the app will not let go elsewhere. */
export function redirectWords(location: string | null): string {
  const where = location === null ? 'another address' : location
  return `The service answered with a redirect to ${where}; check the address in Settings ▸ Service.`
}

function serviceErrorCode(error: unknown): ErrorCode | null {
  if (error instanceof ServiceUnreachableError) return 'NETWORK'
  if (error instanceof TokenElsewhereError) return 'UNAUTHENTICATED'
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
