// Two-step verification and the signed-in apps as core asks for them (core/ports.ts
// SecurityService), in the app's shapes.
import { destroyAccessToken, listAccessTokens } from '../api/access-tokens'
import { selfUserToAccount } from '../api/account-to-domain'
import { confirmPhoneChannel, disableMfa, enableMfa, newBackupCode, startPhoneChannel } from '../api/mfa'
import type { ServiceClient } from '../api/service-client'
import { getMe } from '../api/users'
import type { SecurityService } from '../core/ports'
import type { TokenIssuer } from '@shared/token-issuer'

/** `issuer` tells which deployment a request sent now goes to: the one that issues M4's token. */
export function securityGateway(client: ServiceClient, issuer: () => TokenIssuer): SecurityService {
  return {
    account: async () => selfUserToAccount(await getMe(client)),
    startTwoStep: async () => (await startPhoneChannel(client)).code,
    confirmTwoStepPhone: (verificationId) => confirmPhoneChannel(client, verificationId),
    async enableTwoStep() {
      const issuedBy = issuer()
      const { backupCode, token } = await enableMfa(client)
      return { backupCode, token: { token: token.access_token, issuer: issuedBy } }
    },
    disableTwoStep: () => disableMfa(client),
    newBackupCode: () => newBackupCode(client),
    async signedInApps() {
      const tokens = await listAccessTokens(client)
      return tokens.map((token) => ({ id: token.id, appId: token.app_id ?? '', createdAt: token.created_at }))
    },
    signOutApp: (id) => destroyAccessToken(client, id)
  }
}
