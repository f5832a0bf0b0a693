// Handlers for every invoke channel that only note what reached them, for the fuzz tests of what
// stands in front of the handlers (the dispatch, the browser bridge).
import { INVOKE_CHANNELS, type InvokeChannel, type InvokeHandlers } from '@shared/window-api'

/** What each recording handler answers. */
export const HANDLED = { handled: true }

export interface HandlerCall {
  channel: InvokeChannel
  request: unknown
}

/** Handlers that push each call onto `calls`, in order, and answer HANDLED. */
export function recordingHandlers(calls: HandlerCall[]): InvokeHandlers {
  return Object.fromEntries(
    INVOKE_CHANNELS.map((channel) => [
      channel,
      (request: unknown): Promise<unknown> => {
        calls.push({ channel, request })
        return Promise.resolve(HANDLED)
      }
    ])
  ) as unknown as InvokeHandlers
}
