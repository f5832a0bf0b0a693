import type { InvokeChannel, InvokeRequest, InvokeResponse } from '../../shared/ipc'

/** One handler per channel of the contract: a channel without one is a compile error. */
export type InvokeHandlers = {
  [C in InvokeChannel]: (request: InvokeRequest<C>) => Promise<InvokeResponse<C>>
}
