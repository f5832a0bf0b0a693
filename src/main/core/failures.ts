// Turns whatever went wrong into words for the user. The service's own error text stays in the log.
import type { ErrorCode, IpcError } from '../../shared/ipc'
import { ApiError, ServiceUnreachableError } from '../api/api-error'
import { AppError } from './app-error'

const STATUS_CODES: Record<number, ErrorCode> = {
  400: 'VALIDATION',
  401: 'UNAUTHENTICATED',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  429: 'RATE_LIMITED'
}

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

export function errorCodeOf(error: unknown): ErrorCode {
  if (error instanceof AppError) return error.code
  if (error instanceof ServiceUnreachableError) return 'NETWORK'
  if (error instanceof ApiError) return STATUS_CODES[error.status] ?? (error.status >= 500 ? 'NETWORK' : 'INTERNAL')
  return 'INTERNAL'
}

export function toIpcError(error: unknown): IpcError {
  if (error instanceof AppError) return error.toIpcError()
  const code = errorCodeOf(error)
  return { code, message: MESSAGES[code] }
}

export function userMessageFor(code: ErrorCode): string {
  return MESSAGES[code]
}
