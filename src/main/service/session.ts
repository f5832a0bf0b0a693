// Signing in (T1 with its verification: V1, the SMS code, the text route) and out (T3) as core asks
// for them (core/ports.ts SessionService), in the app's shapes.
import type { WireVerification } from '../api/decoders'
import type { ServiceClient } from '../api/service-client'
import { confirmCode, readVerification, revokeAtIssuer, sendSmsCode, signIn } from '../api/sessions'
import { selfUserToMe, tokenResultToMe } from '../api/to-domain'
import { getMe } from '../api/users'
import { AppError } from '../core/app-error'
import type { SessionService, TextRouteAddress } from '../core/ports'
import type { TokenIssuer } from '@shared/token-issuer'

/** `issuer` tells which deployment a request sent now goes to: a token it brings back was issued there. */
export function sessionGateway(client: ServiceClient, issuer: () => TokenIssuer): SessionService {
  return {
    async login({ username, password, deviceId, verificationCode }) {
      const issuedBy = issuer()
      const outcome = await signIn(client, { username, password, deviceId, ...(verificationCode === undefined ? {} : { verificationCode }) })
      if (outcome.kind === 'verification') {
        const smsHint = outcome.verification.methods?.sms
        return {
          kind: 'verification',
          verificationId: outcome.verification.code,
          smsHint: typeof smsHint === 'string' ? smsHint : null,
          textRoute: textRouteAddressOf(outcome.verification)
        }
      }
      const me = tokenResultToMe(outcome.result)
      if (me === null) throw new AppError('INTERNAL', 'The service signed you in without saying who you are.')
      return { kind: 'token', token: { token: outcome.result.access_token, issuer: issuedBy }, me }
    },
    async readVerification(verificationId) {
      const verification = await readVerification(client, verificationId)
      return { verified: verification.status === 'verified', textRoute: textRouteAddressOf(verification) }
    },
    async sendSmsCode(verificationId) {
      const { hint } = await sendSmsCode(client, verificationId)
      return { smsHint: hint }
    },
    async confirmCode(verificationId, code) {
      const outcome = await confirmCode(client, verificationId, code)
      return outcome.kind === 'verified' ? { verified: true } : { verified: false, remainingAttempts: outcome.remainingAttempts }
    },
    me: async () => selfUserToMe(await getMe(client)),
    revokeToken: (issued) => revokeAtIssuer(issued)
  }
}

/** A verification offers the text route only when it names both the number and the PIN to text it. */
function textRouteAddressOf(verification: WireVerification): TextRouteAddress | null {
  const { system_number: systemNumber, long_pin: longPin } = verification
  return systemNumber && longPin ? { systemNumber, longPin } : null
}
