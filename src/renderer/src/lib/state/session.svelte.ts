// Who is signed in, and the steps of getting there. Main owns the session; this mirrors it and
// keeps what only the screens care about: the work in progress and the last error.
import type { Me, SessionState, VerificationChallenge } from '@shared/session'
import { call, codeOf, listen, messageOf } from '../main-process'

export interface SessionEvents {
  /** Someone signed in, or nobody is signed in any more. Not called when the same user's details change. */
  onUserChange?: (me: Me | null) => void
}

export class SessionModel {
  /** `null` until main has told us, so the first frame shows neither sign-in nor the app. */
  current = $state<SessionState | null>(null)
  busy = $state(false)
  error = $state<string | null>(null)
  /** Set after a wrong code; 0 means the challenge is used up. */
  remainingAttempts = $state<number | null>(null)
  codeSent = $state(false)
  /** The code the verification screen asks for: one texted to the phone, or a backup code. */
  codeKind = $state<'sms' | 'backup'>('sms')
  /** How many messages wait unsent, while the user is asked whether to sign out all the same. */
  unsentAtSignOut = $state<number | null>(null)

  me: Me | null = $derived(this.current?.status === 'signedIn' ? this.current.me : null)
  challenge: VerificationChallenge | null = $derived(
    this.current?.status === 'verifying' ? this.current.challenge : null
  )
  /** The verification cannot succeed any more: only starting over helps. */
  spent: 'locked' | 'expired' | null = $derived(this.challenge?.spent ?? (this.remainingAttempts === 0 ? 'locked' : null))

  readonly #events: SessionEvents

  constructor(events: SessionEvents = {}) {
    this.#events = events
  }

  /** Registers for main's events; returns the function that removes the listener. */
  listen(): () => void {
    return listen('session:changed', (state) => this.#apply(state))
  }

  async load(): Promise<void> {
    try {
      this.#apply(await call('session:get', {}))
    } catch (error) {
      this.#apply({ status: 'signedOut', notice: messageOf(error) })
    }
  }

  async signIn(username: string, password: string): Promise<void> {
    await this.#work(async () => {
      const result = await call('session:signIn', { username, password })
      if (result.status === 'signedIn') this.#apply({ status: 'signedIn', me: result.me })
      else this.#apply({ status: 'verifying', challenge: result.challenge })
    }, signInMessage)
  }

  async sendCode(): Promise<void> {
    await this.#work(async () => {
      const { smsHint } = await call('session:sendCode', {})
      this.codeSent = true
      if (smsHint !== null) this.#updateChallenge((challenge) => ({ ...challenge, smsHint }))
    }, this.#unlessSpent)
  }

  async confirmCode(code: string): Promise<void> {
    await this.#work(async () => {
      const result = await call('session:confirmCode', { code })
      if (result.status === 'signedIn') this.#apply({ status: 'signedIn', me: result.me })
      else this.remainingAttempts = result.remainingAttempts
    }, this.#unlessSpent)
  }

  /** Instead of a code: the user texts the service, and main signs in once it has seen the text. */
  async textInstead(): Promise<void> {
    await this.#work(async () => {
      const textRoute = await call('session:textInstead', {})
      this.#updateChallenge((challenge) => ({ ...challenge, textRoute }))
    }, this.#unlessSpent)
  }

  async cancelTextRoute(): Promise<void> {
    await this.#work(async () => {
      await call('session:cancelTextRoute', {})
      this.#updateChallenge(({ smsHint, spent }) => ({ smsHint, ...(spent ? { spent } : {}) }))
    })
  }

  useCodeKind(kind: 'sms' | 'backup'): void {
    this.codeKind = kind
    this.remainingAttempts = null
    this.error = null
  }

  /** A locked or expired verification: main signs in again with what the user typed, for a new one. */
  async startOver(): Promise<void> {
    await this.#work(async () => {
      const result = await call('session:startOver', {})
      this.#resetVerification()
      if (result.status === 'signedIn') this.#apply({ status: 'signedIn', me: result.me })
      else this.#apply({ status: 'verifying', challenge: result.challenge })
    }, signInMessage)
  }

  async cancelVerification(): Promise<void> {
    await this.#work(async () => {
      await call('session:cancelVerification', {})
      this.#apply({ status: 'signedOut', notice: null })
    })
  }

  /**
   * Signing out takes this device's copy of the account with it. Main refuses while messages wait
   * unsent, saying how many: `unsentAtSignOut` then holds the count until the user answers, signing
   * out again with `discardUnsent`, or keeping them (`keepUnsent`).
   */
  async signOut(discardUnsent = false): Promise<void> {
    await this.#work(async () => {
      const result = await call('session:signOut', discardUnsent ? { discardUnsent } : {})
      if (result.status === 'unsentMessages') {
        this.unsentAtSignOut = result.count
        return
      }
      this.unsentAtSignOut = null
      this.#apply({ status: 'signedOut', notice: null })
    })
  }

  keepUnsent(): void {
    this.unsentAtSignOut = null
  }

  #apply(state: SessionState): void {
    // A fresh challenge (or leaving one) starts the verification screen over.
    if (state.status !== 'verifying' || this.current?.status !== 'verifying') this.#resetVerification()
    if (state.status !== this.current?.status) this.error = null
    const previousUser = this.me?.id ?? null
    this.current = state
    const user = state.status === 'signedIn' ? state.me : null
    if ((user?.id ?? null) !== previousUser) this.#events.onUserChange?.(user)
  }

  #resetVerification(): void {
    this.remainingAttempts = null
    this.codeSent = false
    this.codeKind = 'sms'
  }

  #updateChallenge(change: (challenge: VerificationChallenge) => VerificationChallenge): void {
    if (this.current?.status === 'verifying') this.current = { status: 'verifying', challenge: change(this.current.challenge) }
  }

  /** A failure that spent the verification is what the screen already says, with the way out. */
  #unlessSpent = (error: unknown): string | null => (this.challenge?.spent ? null : messageOf(error))

  async #work(task: () => Promise<void>, describe: (error: unknown) => string | null = messageOf): Promise<void> {
    if (this.busy) return
    this.busy = true
    this.error = null
    try {
      await task()
    } catch (error) {
      this.error = describe(error)
    } finally {
      this.busy = false
    }
  }
}

/**
 * Some of main's general texts mislead at sign-in: "session ended" here means the password, and
 * nothing keeps retrying a sign-in in the background.
 */
function signInMessage(error: unknown): string {
  switch (codeOf(error)) {
    case 'UNAUTHENTICATED':
      return 'Wrong username or password. Check them and try again.'
    case 'NETWORK':
      return 'Cannot reach the service. Check your connection and try again.'
    default:
      return messageOf(error)
  }
}
