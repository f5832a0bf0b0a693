// Sign-in, the SMS verification that guards it, and sign-out (docs/protocol.md §3).
import { z } from 'zod'
import { ApiError } from './api-error'
import { verificationEnvelope, wireTokenResult, type WireTokenResult, type WireVerification } from './decoders'
import type { IssuedToken } from '@shared/token-issuer'
import { path, ServiceClient } from './service-client'

export interface SignInRequest {
  username: string
  password: string
  /** Lets the service remember this installation (§3.1); without it every sign-in is challenged. */
  deviceId: string | null
  /** A verified MFA interaction id, on the second sign-in after a challenge. */
  verificationCode?: string
}

export type SignInOutcome =
  | { kind: 'token'; result: WireTokenResult }
  | { kind: 'verification'; verification: WireVerification }

// 200 carries a token result, 202 a challenge; the payload itself says which, so one schema reads both.
const signInAnswer = z.union([
  wireTokenResult.transform((result): SignInOutcome => ({ kind: 'token', result })),
  verificationEnvelope.transform((value): SignInOutcome => ({ kind: 'verification', verification: value.verification }))
])

/** L1. Throws ApiError 401 for wrong credentials or an unusable code, 429 when rate limited. */
export function signIn(client: ServiceClient, request: SignInRequest): Promise<SignInOutcome> {
  const body: Record<string, unknown> = {
    app_id: client.config.appId,
    grant_type: 'password',
    username: request.username,
    password: request.password
  }
  if (request.deviceId !== null && request.deviceId !== '') body.device_id = request.deviceId
  if (request.verificationCode !== undefined) body.verification = { code: request.verificationCode }
  return client.call({
    operation: 'L1 sign in',
    method: 'POST',
    host: 'v2',
    path: '/access_tokens',
    body,
    schema: signInAnswer,
    authenticated: false
  })
}

/** V1: the verification as it stands; 404 (an ApiError) once it is unknown or expired. */
export function readVerification(client: ServiceClient, mfaId: string): Promise<WireVerification> {
  return client.call({
    operation: 'V1 read verification',
    method: 'GET',
    host: 'base',
    path: path`/verifications/${mfaId}`,
    schema: verificationEnvelope.transform((value) => value.verification),
    authenticated: false
  })
}

/** V2: texts a fresh 6-digit pin to the account's phone. `hint` is the phone's last digits. */
export function sendSmsCode(client: ServiceClient, mfaId: string): Promise<{ hint: string | null }> {
  return client.call({
    operation: 'V2 send SMS code',
    method: 'POST',
    host: 'base',
    path: path`/verifications/${mfaId}/initiate`,
    body: { verification: { method: 'sms' } },
    schema: z.looseObject({ hint: z.string().nullish().catch(null) }).transform((value) => ({ hint: value.hint ?? null })),
    authenticated: false
  })
}

export type ConfirmCodeOutcome = { kind: 'verified' } | { kind: 'wrongCode'; remainingAttempts: number }

const remainingAttemptsBody = z.looseObject({ remaining_attempts: z.number().int().nonnegative() })

/**
 * V3. A wrong or locked pin is an answer, not a failure: `400 {"remaining_attempts": n}`. Any
 * other 400 (such as "already verified", which uses the standard failure body) stays an ApiError.
 */
export async function confirmCode(client: ServiceClient, mfaId: string, pin: string): Promise<ConfirmCodeOutcome> {
  try {
    await client.call({
      operation: 'V3 confirm code',
      method: 'POST',
      host: 'base',
      path: path`/verifications/${mfaId}/confirm`,
      body: { verification: { pin } },
      schema: z.looseObject({}),
      authenticated: false
    })
    return { kind: 'verified' }
  } catch (error) {
    if (error instanceof ApiError && error.status === 400) {
      const wrong = remainingAttemptsBody.safeParse(error.body)
      if (wrong.success) return { kind: 'wrongCode', remainingAttempts: wrong.data.remaining_attempts }
    }
    throw error
  }
}

/** How long a revocation may hold things up: it is best effort, and often its service is why it is being left. */
const REVOKE_TIMEOUT_MS = 5_000

/**
 * T3 at the deployment that issued the token, wherever the app points now: a token left live
 * with nobody holding it does not expire (with two-step verification on, never).
 */
export async function revokeAtIssuer(issued: IssuedToken): Promise<void> {
  // T3 carries no attestation (§2.3), so the issuer's addresses and app id are all it needs.
  const client = new ServiceClient({
    config: { ...issued.issuer, verifyToken: '' },
    getToken: () => issued,
    timeoutMs: REVOKE_TIMEOUT_MS
  })
  await client.call({
    operation: 'T3 sign out',
    method: 'POST',
    host: 'v2',
    path: '/access_tokens/current/destroy',
    schema: z.unknown()
  })
}
