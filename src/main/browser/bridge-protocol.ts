// Parsing what the page sends over browser mode's WebSocket. The frames themselves are declared
// once in src/shared/bridge-protocol.ts; the schema stays here so zod stays out of the renderer's
// bundle (the page trusts the host that served it, the host trusts no page).
import { z } from 'zod'
import type { PageFrame } from '@shared/bridge-protocol'

/** How the page numbers its calls, to match each answer to its call. */
const invokeId = z.number().int().nonnegative()

export const pageFrameSchema = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('invoke'),
    id: invokeId,
    channel: z.string().max(100),
    payload: z.unknown()
  }),
  z.strictObject({ type: z.literal('focus'), focused: z.boolean() })
]) satisfies z.ZodType<PageFrame>

/**
 * Enough of an invoke frame to answer it: a frame that says it is an invoke and carries an id the
 * page can match, whatever else it holds. A frame this accepts but `pageFrameSchema` refuses is
 * answered with a refusal rather than read as garbage (src/main/browser/host.ts).
 */
export const answerableInvokeSchema = z.object({
  type: z.literal('invoke'),
  id: invokeId
})

// `satisfies` proves the schema yields frames; this proves it yields every kind of frame, so the
// two cannot drift in either direction without a compile error.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false
type Holds<T extends true> = T
export type PageFrameSchemaIsExact = Holds<Same<z.infer<typeof pageFrameSchema>, PageFrame>>
