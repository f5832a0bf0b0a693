// Parsing what the page sends over browser mode's WebSocket. The frames themselves are declared
// once in src/shared/bridge-protocol.ts; the schema stays here so zod stays out of the renderer's
// bundle (the page trusts the host that served it, the host trusts no page).
import { z } from 'zod'
import type { PageFrame } from '../../shared/bridge-protocol'

export const pageFrameSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('invoke'),
    id: z.number().int().nonnegative(),
    channel: z.string().max(100),
    payload: z.unknown()
  }),
  z.strictObject({ type: z.literal('focus'), focused: z.boolean() })
]) satisfies z.ZodType<PageFrame>

// `satisfies` proves the schema yields frames; this proves it yields every kind of frame, so the
// two cannot drift in either direction without a compile error.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Holds<T extends true> = T
export type PageFrameSchemaIsExact = Holds<Same<z.infer<typeof pageFrameSchema>, PageFrame>>
