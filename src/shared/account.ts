// The signed-in account as its owner manages it (docs/protocol.md §3, §4): profile, password,
// two-step verification and the apps signed in to it. Tokens never appear here: main keeps them.

/** Last digits of a phone number, as the service hints at it; never the number itself. */
export type PhoneHint = string

export interface Account {
  id: string
  name: string
  email: string | null
  bio: string
  avatarUrl: string | null
  twoStep: {
    enabled: boolean
    /** The phone codes go to, as a hint, once a phone was confirmed for two-step verification. */
    phoneHint: PhoneHint | null
  }
}

/** Profile fields to change (U2); the others stay. `avatarUrl` null removes the picture. */
export interface ProfileChanges {
  name?: string | undefined
  email?: string | undefined
  bio?: string | undefined
  avatarUrl?: string | null | undefined
}

export type ProfileField = 'name' | 'email' | 'bio' | 'avatar'

/** A refusal the form shows at the field it is about. */
export type SaveProfileResult = { status: 'saved'; account: Account } | { status: 'invalid'; field: ProfileField; message: string }

/** One live token of the account (T1), as the app it was issued to. */
export interface SignedInApp {
  id: string
  appId: string
  /** Unix seconds. */
  createdAt: number
}

/** Confirming the code that turns two-step verification on (V3, M3, M4). */
export type TwoStepConfirmation =
  | {
      status: 'enabled'
      /** Shown once: the user must store it now. */
      backupCode: string
      account: Account
    }
  | { status: 'wrongCode'; remainingAttempts: number }

/**
 * Signing in by texting the service instead of receiving a code: send `text` to `systemNumber`
 * from the account's phone, and the app carries on once the service has seen it.
 */
export interface TextRoute {
  systemNumber: string
  /** What to send: carries the verification's long PIN. */
  text: string
  /** Unix milliseconds: the verification expires then, and the route with it. */
  expiresAt: number
  /** Unix milliseconds of the latest check, for the progress shown; null before the first. */
  checkedAt: number | null
  /** The verification expired before the text arrived: only a fresh start helps. */
  expired: boolean
  /** Why the route is stuck, in words to show: a check that failed, or the sign-in after it; null while all is well. */
  problem?: string | null
}
