// The frames that carry the contract over browser mode's WebSocket, declared once for both ends:
// the page (src/renderer/src/lib/browser-bridge.ts) and the host (src/main/browser/host.ts), which
// also parses every page frame with a zod schema held to these types.
import type { EventName, IpcResult } from './ipc'

/** Where the page opens the socket, on the host that served it. */
export const BRIDGE_PATH = '/bridge'

/** Page → host: a call of the contract, or whether the page is being looked at. */
export type PageFrame =
  | { type: 'invoke'; id: number; channel: string; payload: unknown }
  /** The page became visible and focused, or stopped being so. */
  | { type: 'focus'; focused: boolean }

/** Host → page: the answer to a call, or one of main's events. */
export type HostFrame =
  | { type: 'result'; id: number; result: IpcResult<unknown> }
  | { type: 'event'; event: EventName; payload: unknown }
