// The signed-in account (docs/protocol.md §3 P1, §4).
import { z } from 'zod'
import { wireSelfUser, type WireSelfUser } from './decoders'
import type { ServiceClient } from './service-client'

/** U1. */
export function getMe(client: ServiceClient): Promise<WireSelfUser> {
  return client.call({ operation: 'U1 show me', method: 'GET', host: 'base', path: '/users/me', schema: wireSelfUser })
}

/** U2's fields; those left out stay as they are, and `avatar_url` null removes the picture. */
export interface ProfileUpdate {
  name?: string
  email?: string
  bio?: string
  /** A URL of the image service (I1's answer). */
  avatar_url?: string | null
}

/** U2. A 400 names the field it refuses in its `meta.errors` (an e-mail another account uses, say). */
export function updateProfile(client: ServiceClient, update: ProfileUpdate): Promise<WireSelfUser> {
  return client.call({ operation: 'U2 update me', method: 'POST', host: 'base', path: '/users/update', body: update, schema: wireSelfUser })
}

/** P1: 201, and every token of the account is revoked, this one too. 403 when `current` is wrong. */
export async function changePassword(client: ServiceClient, current: string, next: string): Promise<void> {
  await client.call({
    operation: 'P1 change password',
    method: 'POST',
    host: 'base',
    path: '/users/password',
    body: { password: next, password_current: current },
    schema: z.looseObject({})
  })
}
