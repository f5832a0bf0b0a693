// Two-step verification of the signed-in account (docs/protocol.md §3, §3.3): M1–M5. The phone's
// code in between is sent and confirmed with V2 and V3 (sessions.ts), as at sign-in.
import { z } from 'zod'
import { verificationEnvelope, wireTokenResult, type WireTokenResult, type WireVerification } from './decoders'
import type { ServiceClient } from './service-client'

const backupCodeAnswer = z.looseObject({ mfa: z.looseObject({ backup_code: z.string().min(1) }) })

/** M1: a new backup code, replacing the old one. */
export async function newBackupCode(client: ServiceClient): Promise<string> {
  const answer = await client.call({ operation: 'M1 new backup code', method: 'POST', host: 'base', path: '/user/mfa/backup', schema: backupCodeAnswer })
  return answer.mfa.backup_code
}

/** M2: a verification of the account's phone, to confirm with V2 and V3 before M3. */
export async function startPhoneChannel(client: ServiceClient): Promise<WireVerification> {
  const answer = await client.call({
    operation: 'M2 start phone channel',
    method: 'POST',
    host: 'base',
    path: '/user/mfa',
    body: { channel: { method: 'phone_number' } },
    schema: verificationEnvelope
  })
  return answer.verification
}

/** M3: records the phone as the two-step channel, with the id of a verification V3 accepted. */
export async function confirmPhoneChannel(client: ServiceClient, verificationId: string): Promise<void> {
  await client.call({
    operation: 'M3 confirm phone channel',
    method: 'POST',
    host: 'base',
    path: '/user/mfa',
    body: { channel: { method: 'phone_number' }, verification: { code: verificationId } },
    schema: z.unknown()
  })
}

const enabledAnswer = z.looseObject({ mfa: z.looseObject({ backup_code: z.string().min(1) }), access_token: wireTokenResult })

/** M4: turns two-step verification on. Every token of the account is revoked; the answer carries the one that replaces them. */
export async function enableMfa(client: ServiceClient): Promise<{ backupCode: string; token: WireTokenResult }> {
  const answer = await client.call({
    operation: 'M4 enable MFA',
    method: 'POST',
    host: 'base',
    path: '/user/mfa',
    body: { mfa: { status: 'enable' } },
    schema: enabledAnswer
  })
  return { backupCode: answer.mfa.backup_code, token: answer.access_token }
}

/** M5: turns two-step verification off; tokens and the phone channel stay. */
export async function disableMfa(client: ServiceClient): Promise<void> {
  await client.call({
    operation: 'M5 disable MFA',
    method: 'POST',
    host: 'base',
    path: '/user/mfa',
    body: { mfa: { status: 'disable' } },
    schema: z.unknown()
  })
}
