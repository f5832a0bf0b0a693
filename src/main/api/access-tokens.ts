// The account's live tokens, one per signed-in app (docs/protocol.md §3 T1, T2). T3, signing this
// app out, is in sessions.ts.
import { z } from 'zod'
import { optionalText, unixSeconds, wireId } from './decoders'
import { path, type ServiceClient } from './service-client'

export const wireAccessToken = z.looseObject({
  id: wireId,
  /** ISO 8601 by contract, read as Unix seconds. */
  created_at: unixSeconds,
  app_id: optionalText
})
export type WireAccessToken = z.infer<typeof wireAccessToken>

/** T1: the caller's live tokens, this one included, by ascending id. */
export async function listAccessTokens(client: ServiceClient): Promise<WireAccessToken[]> {
  const answer = await client.call({
    operation: 'T1 list access tokens',
    method: 'GET',
    host: 'v2',
    path: '/access_tokens',
    schema: z.looseObject({ access_tokens: z.array(wireAccessToken) })
  })
  return answer.access_tokens
}

/** T2: revokes one of the caller's tokens. 404 when it is not a live token of theirs. */
export async function destroyAccessToken(client: ServiceClient, tokenId: string): Promise<void> {
  await client.call({
    operation: 'T2 destroy access token',
    method: 'POST',
    host: 'v2',
    path: path`/access_tokens/${tokenId}/destroy`,
    schema: z.unknown()
  })
}
