// U1's self user as its owner manages it (shared/account.ts): profile fields and two-step state.
import { z } from 'zod'
import type { Account } from '@shared/account'
import type { WireSelfUser } from './decoders'

// §15.9: `bio` and `mfa` sit beside the fields every self user is read for; read leniently, as
// displayed values, so an odd one does not fail the whole account.
const accountExtras = z.looseObject({
  bio: z.string().nullish().catch(null),
  mfa: z
    .looseObject({
      enabled: z.boolean().nullish().catch(null),
      channels: z.array(z.unknown()).nullish().catch(null)
    })
    .nullish()
    .catch(null)
})

/** How many of the phone's last digits the app shows, as the service's own hints do (§3.2). */
const PHONE_HINT_DIGITS = 2

export function selfUserToAccount(user: WireSelfUser): Account {
  const extras = accountExtras.parse(user)
  const hasPhoneChannel = (extras.mfa?.channels ?? []).length > 0
  const digits = (user.phone_number ?? '').replace(/\D/g, '')
  return {
    id: user.id,
    name: user.name,
    email: user.email,
    bio: extras.bio ?? '',
    avatarUrl: user.image_url ?? user.avatar_url,
    twoStep: {
      enabled: extras.mfa?.enabled === true,
      phoneHint: hasPhoneChannel && digits.length >= PHONE_HINT_DIGITS ? digits.slice(-PHONE_HINT_DIGITS) : null
    }
  }
}
