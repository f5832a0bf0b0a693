// The user's own profile (U2) and password (P1) as core asks for them (core/ports.ts ProfileService), in
// the app's shapes.
import type { ProfileChanges, ProfileField } from '@shared/account'
import { selfUserToAccount } from '../api/account-to-domain'
import { ApiError } from '../api/api-error'
import type { ServiceClient } from '../api/service-client'
import { changePassword, updateProfile, type ProfileUpdate } from '../api/users'
import type { ProfileService } from '../core/ports'

export function profileGateway(client: ServiceClient): ProfileService {
  return {
    async updateProfile(changes) {
      try {
        return { kind: 'saved', account: selfUserToAccount(await updateProfile(client, toProfileUpdate(changes))) }
      } catch (error) {
        if (error instanceof ApiError && error.status === 400) return { kind: 'refused', field: refusedField(error.errors) }
        throw error
      }
    },
    changePassword: (current, next) => changePassword(client, current, next)
  }
}

function toProfileUpdate(changes: ProfileChanges): ProfileUpdate {
  return {
    ...(changes.name === undefined ? {} : { name: changes.name }),
    ...(changes.email === undefined ? {} : { email: changes.email }),
    ...(changes.bio === undefined ? {} : { bio: changes.bio }),
    ...(changes.avatarUrl === undefined ? {} : { avatar_url: changes.avatarUrl })
  }
}

const WIRE_FIELDS: [wire: string, field: ProfileField][] = [
  ['avatar_url', 'avatar'],
  ['email', 'email'],
  ['name', 'name'],
  ['bio', 'bio']
]

/**
 * U2's 400 says which field it refuses only in its text ("email: already in use by another
 * account"), which starts with the wire name; null when no field is named.
 */
export function refusedField(errors: readonly string[]): ProfileField | null {
  for (const text of errors) {
    const named = WIRE_FIELDS.find(([wire]) => new RegExp(`\\b${wire}\\b`).test(text))
    if (named) return named[1]
  }
  return null
}
