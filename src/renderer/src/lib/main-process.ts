// The renderer's only door to main. Results cross the bridge as values; here they become
// exceptions, so state code can use plain try/catch.
import type {
  ErrorCode,
  EventContract,
  EventName,
  InvokeChannel,
  InvokeRequest,
  InvokeResponse
} from '@shared/window-api'

export class IpcCallError extends Error {
  override readonly name = 'IpcCallError'

  constructor(
    readonly code: ErrorCode,
    message: string
  ) {
    super(message)
  }
}

export async function call<C extends InvokeChannel>(channel: C, request: InvokeRequest<C>): Promise<InvokeResponse<C>> {
  let result
  try {
    result = await window.api.invoke(channel, request)
  } catch {
    // The bridge itself broke (browser mode's socket closed, a window reloading): not the service's fault.
    throw new IpcCallError('INTERNAL', 'The app lost touch with its background process. Reload the window.')
  }
  if (result.ok) return result.value
  throw new IpcCallError(result.error.code, result.error.message)
}

export function listen<E extends EventName>(event: E, listener: (payload: EventContract[E]) => void): () => void {
  return window.api.on(event, listener)
}

/** What to show the user for something thrown by `call` or by code around it. */
export function messageOf(error: unknown): string {
  if (error instanceof IpcCallError) return error.message
  return 'Something went wrong. Please try again.'
}

export function codeOf(error: unknown): ErrorCode {
  return error instanceof IpcCallError ? error.code : 'INTERNAL'
}
