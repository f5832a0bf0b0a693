// The one path every renderer call takes, whichever transport carried it: check the channel,
// parse the payload, run the handler, and turn any failure into a value the renderer can show.
import { isInvokeChannel, type InvokeHandlers, type IpcError, type IpcResult } from '@shared/window-api'
import { toIpcError } from '../core/failures'
import { requestSchemas } from './request-schemas'

export type Dispatch = (channel: unknown, payload: unknown) => Promise<IpcResult<unknown>>

/** The answer to a call whose request cannot be read, whichever step found it so. */
export const NOT_UNDERSTOOD: IpcResult<never> = { ok: false, error: { code: 'VALIDATION', message: 'That request was not understood.' } }

export interface DispatchLog {
  warn(message: string, details?: unknown): void
}

/**
 * `started`: settles once the core has started. A call waits for it, so a page that loads before
 * the kept session is restored is answered as the app is, never as if no one were signed in.
 */
export function createDispatch(handlers: InvokeHandlers, log: DispatchLog, started: Promise<unknown> = Promise.resolve()): Dispatch {
  const settled = started.then(
    () => undefined,
    () => undefined
  )
  return async (channel, payload) => {
    if (!isInvokeChannel(channel)) {
      log.warn('refused a call on an unknown channel', { channel })
      return failure({ code: 'VALIDATION', message: 'The app asked for something it does not offer.' })
    }
    const parsed = requestSchemas[channel].safeParse(payload ?? {})
    if (!parsed.success) {
      log.warn(`refused a malformed ${channel} call`, parsed.error.issues)
      return NOT_UNDERSTOOD
    }
    await settled
    try {
      // The schema table is typed against the contract, so the parsed payload fits this channel's handler.
      const handler = handlers[channel] as (request: unknown) => Promise<unknown>
      return { ok: true, value: await handler(parsed.data) }
    } catch (error) {
      const ipcError = toIpcError(error)
      if (ipcError.code === 'INTERNAL') log.warn(`${channel} failed unexpectedly`, error)
      return failure(ipcError)
    }
  }
}

function failure(error: IpcError): IpcResult<never> {
  return { ok: false, error }
}
