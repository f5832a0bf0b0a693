import type { ErrorCode, IpcError } from '@shared/window-api'

/** A failure the user should hear about, already worded for them. */
export class AppError extends Error {
  readonly code: ErrorCode

  constructor(code: ErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = 'AppError'
    this.code = code
  }

  toIpcError(): IpcError {
    return { code: this.code, message: this.message }
  }
}
