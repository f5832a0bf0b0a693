// The signed-in account (docs/protocol.md §4).
import { wireSelfUser, type WireSelfUser } from './decoders'
import type { ServiceClient } from './service-client'

/** U1. */
export function getMe(client: ServiceClient): Promise<WireSelfUser> {
  return client.call({ operation: 'U1 show me', method: 'GET', host: 'base', path: '/users/me', schema: wireSelfUser })
}
