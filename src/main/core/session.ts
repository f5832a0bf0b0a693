// Who is signed in, and how they got there: password, then (when the service asks) a code sent by
// SMS, then the same sign-in again carrying the verified code. The token lives here and in the
// vault only; the renderer sees the session's state, never the token.
import { randomUUID } from 'node:crypto'
import type { ConfirmCodeResult, Me, SessionState, SignInResult } from '../../shared/domain'
import { AppError } from './app-error'
import { errorCodeOf, userMessageFor } from './failures'
import type { LoginOutcome, Preferences, SessionService, TokenVault } from './ports'
import type { Log } from '../log/log'

export interface SessionDependencies {
  service: SessionService
  vault: TokenVault
  preferences: Preferences
  log: Log
  changed(state: SessionState): void
  signedIn(me: Me): void
  signedOut(): void
}

interface Challenge {
  username: string
  password: string
  verificationId: string
  smsHint: string | null
  /** The code was accepted; only the sign-in that follows it is still to do (if it failed, say). */
  verified: boolean
}

export const SESSION_ENDED_NOTICE = userMessageFor('UNAUTHENTICATED')

export class Session {
  readonly #deps: SessionDependencies
  #state: SessionState = { status: 'signedOut', notice: null }
  #token: string | null = null
  /** The password is held only while the verification screen is up, to repeat the sign-in once verified. */
  #challenge: Challenge | null = null
  /** A new token is on its way in (switchToken): the old one's refusals are expected. */
  #switchingToken = false

  constructor(deps: SessionDependencies) {
    this.#deps = deps
  }

  get state(): SessionState {
    return this.#state
  }

  get token(): string | null {
    return this.#token
  }

  get me(): Me | null {
    return this.#state.status === 'signedIn' ? this.#state.me : null
  }

  /** Picks up the session kept from the last run, if it is still good. */
  async restore(): Promise<void> {
    const token = await this.#deps.vault.load()
    if (token === null) return
    this.#token = token
    try {
      const me = await this.#deps.service.me()
      this.#becomeSignedIn(me)
    } catch (error) {
      const code = errorCodeOf(error)
      const remembered = this.#deps.preferences.get('account')
      if (code === 'NETWORK' && remembered) {
        // Out of reach, not refused: carry on as who we were; push reconnects and catches up.
        this.#deps.log.warn('restored the session without reaching the service', error)
        this.#becomeSignedIn(remembered)
        return
      }
      this.#token = null
      await this.#deps.vault.clear()
      this.#setState({
        status: 'signedOut',
        notice: code === 'UNAUTHENTICATED' ? SESSION_ENDED_NOTICE : 'Could not reach the service to restore your session. Please sign in.'
      })
    }
  }

  async signIn(username: string, password: string): Promise<SignInResult> {
    const outcome = await this.#login({ username, password, deviceId: this.#deviceId() })
    if (outcome.kind === 'token') return { status: 'signedIn', me: await this.#accept(outcome) }
    this.#challenge = { username, password, verificationId: outcome.verificationId, smsHint: outcome.smsHint, verified: false }
    const challenge = { smsHint: outcome.smsHint }
    this.#setState({ status: 'verifying', challenge })
    return { status: 'verificationRequired', challenge }
  }

  async sendCode(): Promise<{ smsHint: string | null }> {
    const challenge = this.#requireChallenge()
    try {
      const { smsHint } = await this.#deps.service.sendSmsCode(challenge.verificationId)
      challenge.smsHint = smsHint ?? challenge.smsHint
      return { smsHint: challenge.smsHint }
    } catch (error) {
      throw this.#challengeFailure(error, 'No more codes can be sent for this sign-in. Go back and sign in again.')
    }
  }

  async confirmCode(code: string): Promise<ConfirmCodeResult> {
    const challenge = this.#requireChallenge()
    if (!challenge.verified) {
      let confirmation: Awaited<ReturnType<SessionService['confirmCode']>>
      try {
        confirmation = await this.#deps.service.confirmCode(challenge.verificationId, code.trim())
      } catch (error) {
        throw this.#challengeFailure(error, 'This code was already used. Go back and sign in again.')
      }
      if (!confirmation.verified) return { status: 'wrongCode', remainingAttempts: confirmation.remainingAttempts }
      challenge.verified = true
    }
    const outcome = await this.#login({
      username: challenge.username,
      password: challenge.password,
      deviceId: this.#deviceId(),
      verificationCode: challenge.verificationId
    })
    if (outcome.kind !== 'token') throw new AppError('INTERNAL', 'The service asked for another verification. Please sign in again.')
    return { status: 'signedIn', me: await this.#accept(outcome) }
  }

  cancelVerification(): void {
    this.#challenge = null
    if (this.#state.status === 'verifying') this.#setState({ status: 'signedOut', notice: null })
  }

  async signOut(): Promise<void> {
    if (this.#token !== null) {
      await this.#deps.service.destroyToken().catch((error: unknown) => {
        // Signing out must always work locally; an unreachable service only means the token outlives us there.
        this.#deps.log.warn('could not destroy the token on the service', error)
      })
    }
    await this.#end(null)
  }

  /** The service refused our token: back to sign-in, saying why. */
  async expire(notice: string = SESSION_ENDED_NOTICE): Promise<void> {
    if (this.#token === null || this.#switchingToken) return
    await this.#end(notice)
  }

  /**
   * `issue` replaces every token of the account with the one it answers (M4 does). That token is
   * kept in the vault before anything uses it, so an app that stops halfway still holds one that works.
   */
  async switchToken(issue: () => Promise<string>): Promise<void> {
    if (this.#token === null) throw new AppError('UNAUTHENTICATED', SESSION_ENDED_NOTICE)
    this.#switchingToken = true
    try {
      const token = await issue()
      await this.#deps.vault.save(token)
      this.#token = token
    } finally {
      this.#switchingToken = false
    }
  }

  async #login(request: Parameters<SessionService['login']>[0]): Promise<LoginOutcome> {
    try {
      return await this.#deps.service.login(request)
    } catch (error) {
      switch (errorCodeOf(error)) {
        case 'UNAUTHENTICATED':
          throw new AppError('UNAUTHENTICATED', 'Wrong username or password.', { cause: error })
        case 'RATE_LIMITED':
          throw new AppError('RATE_LIMITED', 'Too many failed sign-ins. Wait 15 minutes and try again.', { cause: error })
        default:
          throw error
      }
    }
  }

  async #accept(outcome: Extract<LoginOutcome, { kind: 'token' }>): Promise<Me> {
    this.#challenge = null
    this.#token = outcome.token
    await this.#deps.vault.save(outcome.token)
    this.#becomeSignedIn(outcome.me)
    return outcome.me
  }

  #becomeSignedIn(me: Me): void {
    this.#deps.preferences.set('account', me)
    this.#setState({ status: 'signedIn', me })
    this.#deps.signedIn(me)
  }

  async #end(notice: string | null): Promise<void> {
    const wasSignedIn = this.#state.status === 'signedIn'
    this.#token = null
    this.#challenge = null
    await this.#deps.vault.clear()
    this.#setState({ status: 'signedOut', notice })
    if (wasSignedIn) this.#deps.signedOut()
  }

  #requireChallenge(): Challenge {
    if (!this.#challenge) throw new AppError('VALIDATION', 'There is no sign-in waiting for a code. Please sign in again.')
    return this.#challenge
  }

  /** A verification that is gone (expired, 404) or spent (400) cannot be saved: start over. */
  #challengeFailure(error: unknown, spentMessage: string): unknown {
    const code = errorCodeOf(error)
    if (code === 'NOT_FOUND') {
      this.cancelVerification()
      return new AppError('NOT_FOUND', 'This sign-in has expired. Please sign in again.', { cause: error })
    }
    if (code === 'VALIDATION') return new AppError('VALIDATION', spentMessage, { cause: error })
    return error
  }

  #deviceId(): string {
    const saved = this.#deps.preferences.get('deviceId')
    if (saved) return saved
    const created = randomUUID()
    this.#deps.preferences.set('deviceId', created)
    return created
  }

  #setState(state: SessionState): void {
    this.#state = state
    this.#deps.changed(state)
  }
}
