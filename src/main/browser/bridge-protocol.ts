// The frames that carry the contract over browser mode's WebSocket. The page's side is
// `src/renderer/src/lib/browser-bridge.ts`; keep the two in step.
import { z } from 'zod'
import type { EventName, IpcResult } from '../../shared/ipc'

export const BRIDGE_PATH = '/bridge'

/** Page → host. */
export const pageFrameSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('invoke'),
    id: z.number().int().nonnegative(),
    channel: z.string().max(100),
    payload: z.unknown()
  }),
  /** The page became visible and focused, or stopped being so. */
  z.strictObject({ type: z.literal('focus'), focused: z.boolean() })
])

export type PageFrame = z.infer<typeof pageFrameSchema>

/** Host → page. */
export type HostFrame =
  | { type: 'result'; id: number; result: IpcResult<unknown> }
  | { type: 'event'; event: EventName; payload: unknown }
