// Turns whatever went wrong into words for the user. The service's own error text stays in the log.
import type { ErrorCode, IpcError } from '@shared/window-api'
import { AppError } from './app-error'

const MESSAGES: Record<ErrorCode, string> = {
  UNAUTHENTICATED: 'Your session has ended. Please sign in again.',
  FORBIDDEN: 'You are not allowed to do that here.',
  NOT_FOUND: 'That conversation or message no longer exists.',
  VALIDATION: 'The service did not accept that. Check it and try again.',
  CONFLICT: 'That was already done.',
  NETWORK: 'Cannot reach the service. Check your connection; we will keep trying.',
  RATE_LIMITED: 'Too many attempts. Wait a few minutes and try again.',
  INTERNAL: 'Something went wrong on our side. Please try again.'
}

/** What kind of failure this was: the service connection reports its failures as AppErrors; anything else is a bug. */
export function errorCodeOf(error: unknown): ErrorCode {
  return error instanceof AppError ? error.code : 'INTERNAL'
}

export function toIpcError(error: unknown): IpcError {
  if (error instanceof AppError) return error.toIpcError()
  return { code: 'INTERNAL', message: MESSAGES.INTERNAL }
}

export function userMessageFor(code: ErrorCode): string {
  return MESSAGES[code]
}
