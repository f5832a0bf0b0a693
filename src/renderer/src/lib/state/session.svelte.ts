// Who is signed in, and the steps of getting there. Main owns the session; this mirrors it and
// keeps what only the screens care about: the work in progress and the last error.
import type { Me, SessionState, VerificationChallenge } from '../../../../shared/domain'
import { call, codeOf, listen, messageOf } from '../ipc'

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

  me: Me | null = $derived(this.current?.status === 'signedIn' ? this.current.me : null)
  challenge: VerificationChallenge | null = $derived(
    this.current?.status === 'verifying' ? this.current.challenge : null
  )
  locked = $derived(this.remainingAttempts === 0)

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
      if (this.current?.status === 'verifying' && smsHint !== null) {
        this.current = { status: 'verifying', challenge: { smsHint } }
      }
    })
  }

  async confirmCode(code: string): Promise<void> {
    await this.#work(async () => {
      const result = await call('session:confirmCode', { code })
      if (result.status === 'signedIn') this.#apply({ status: 'signedIn', me: result.me })
      else this.remainingAttempts = result.remainingAttempts
    })
  }

  async cancelVerification(): Promise<void> {
    await this.#work(async () => {
      await call('session:cancelVerification', {})
      this.#apply({ status: 'signedOut', notice: null })
    })
  }

  async signOut(): Promise<void> {
    await this.#work(async () => {
      await call('session:signOut', {})
      this.#apply({ status: 'signedOut', notice: null })
    })
  }

  #apply(state: SessionState): void {
    // A fresh challenge (or leaving one) starts the verification screen over.
    if (state.status !== 'verifying' || this.current?.status !== 'verifying') {
      this.remainingAttempts = null
      this.codeSent = false
    }
    if (state.status !== this.current?.status) this.error = null
    const previousUser = this.me?.id ?? null
    this.current = state
    const user = state.status === 'signedIn' ? state.me : null
    if ((user?.id ?? null) !== previousUser) this.#events.onUserChange?.(user)
  }

  async #work(task: () => Promise<void>, describe: (error: unknown) => string = messageOf): Promise<void> {
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
