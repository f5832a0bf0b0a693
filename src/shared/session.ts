// The session as the renderer sees it: who is signed in, the verification a sign-in may ask for,
// and the state of the push connection.
import type { TextRoute } from './account'

export interface Me {
  id: string
  name: string
  avatarUrl: string | null
}

export type PushStatus = 'offline' | 'connecting' | 'connected' | 'reconnecting'

export interface VerificationChallenge {
  /** Last digits of the phone the SMS goes to, when the service tells them. */
  smsHint: string | null
  /** While the user signs in by texting the service instead. */
  textRoute?: TextRoute | null
  /** The verification cannot succeed any more (locked after wrong codes, or expired): offer a fresh start. */
  spent?: 'locked' | 'expired' | null
}

export type SessionState =
  | { status: 'signedOut'; notice: string | null }
  | { status: 'verifying'; challenge: VerificationChallenge }
  | { status: 'signedIn'; me: Me }

export type SignInResult =
  | { status: 'signedIn'; me: Me }
  | { status: 'verificationRequired'; challenge: VerificationChallenge }

/**
 * Signing out takes this device's copy of the account with it. While messages the user wrote wait
 * unsent, main signs out only when told to discard them: otherwise it answers how many there are.
 */
export type SignOutResult = { status: 'signedOut' } | { status: 'unsentMessages'; count: number }

export type ConfirmCodeResult =
  | { status: 'signedIn'; me: Me }
  | { status: 'wrongCode'; remainingAttempts: number }
