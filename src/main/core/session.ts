// Who is signed in, and how they got there: password, then (when the service asks) a verification
// (a code sent by SMS, a backup code, or a text the user sends the service), then the same sign-in
// again carrying the verified verification. The token lives here and in the vault only; the
// renderer sees the session's state, never the token.
//
// The token is held with the deployment that issued it, and one account is signed in at a time: a
// start on addresses other than the issuer's, or a sign-in while a token is held, never sends it.
import { randomUUID } from 'node:crypto'
import type { TextRoute } from '@shared/account'
import { isIssuedBy, type IssuedToken, type TokenIssuer } from '@shared/token-issuer'
import type { ConfirmCodeResult, Me, SessionState, SignInResult, VerificationChallenge } from '@shared/session'
import type { ErrorCode } from '@shared/window-api'
import { AppError } from './app-error'
import { errorCodeOf, toIpcError, userMessageFor } from './failures'
import type { LoginOutcome, Preferences, SessionService, TextRouteAddress, TokenVault } from './ports'
import { TextRoutePoll, VERIFICATION_LIFETIME_MS } from './text-route-poll'
import { systemTimers, type Timers } from './timers'
import type { Log } from '../log/log'

export interface SessionDependencies {
  service: SessionService
  vault: TokenVault
  preferences: Preferences
  log: Log
  /**
   * Whether this device keeps enough of the account to show it before the service answers: a
   * kept session then starts at once, and the service confirms it after. Absent: never.
   */
  keptLocally?(accountId: string): Promise<boolean>
  /** The deployment the settings in force name: a kept token goes nowhere else. */
  deployment(): TokenIssuer
  /** Unix ms; tests pass a clock of their own. */
  now?: () => number
  timers?: Timers
  changed(state: SessionState): void
  /** `fromDevice`: restored as the account this device remembers and keeps a store for, before the service confirms it. */
  signedIn(me: Me, how: { fromDevice: boolean }): void
  /**
   * The signed-in session ended: `byUser` when the user signed out (what this device keeps of the
   * account then goes with it), not when it merely ended (a refused token, another deployment).
   * Awaited before signing out resolves.
   */
  signedOut(byUser: boolean): Promise<void> | void
}

interface Challenge {
  username: string
  password: string
  verificationId: string
  smsHint: string | null
  /** The code was accepted; only the sign-in that follows it is still to do (if it failed, say). */
  verified: boolean
  /** Where to text to verify instead, when the service said. */
  textRouteAddress: TextRouteAddress | null
  /** Unix ms when the service answered with this verification: it expires a fixed time after. */
  createdAt: number
  /** The text route, while the user takes it. */
  textRoute: TextRoute | null
  spent: 'locked' | 'expired' | null
}

export const SESSION_ENDED_NOTICE = userMessageFor('UNAUTHENTICATED')

/** Why the sign-in screen is back: the token belongs to the service the app pointed at before. */
export function serviceMovedNotice(deployment: TokenIssuer): string {
  return `The service address changed since you signed in. Sign in again to use ${new URL(deployment.baseUrl).origin}.`
}

export const ALREADY_SIGNED_IN = 'You are already signed in. Sign out first to sign in to another account.'

/** Sign-in refusals after the text arrived that no later check can get past: the route ends with these words. */
const TEXT_ROUTE_REFUSALS: Partial<Record<ErrorCode, string>> = {
  UNAUTHENTICATED: 'Your text arrived, but the service refused the sign-in: your password may have changed. Go back and sign in again.',
  RATE_LIMITED: 'Your text arrived, but there have been too many failed sign-ins. Wait 15 minutes, then go back and sign in again.'
}

export class Session {
  readonly #deps: SessionDependencies
  #state: SessionState = { status: 'signedOut', notice: null }
  #issued: IssuedToken | null = null
  /** The password is held only while the verification screen is up, to repeat the sign-in once verified. */
  #challenge: Challenge | null = null
  /** A new token is on its way in (switchToken): the old one's refusals are expected. */
  #switchingToken = false
  /** What a refusal of the token means while `refusalMeans` runs: said in place of the general notice. */
  #refusalNotice: string | null = null
  #textRoutePoll: TextRoutePoll | null = null
  readonly #now: () => number
  readonly #timers: Timers

  constructor(deps: SessionDependencies) {
    this.#deps = deps
    this.#now = deps.now ?? Date.now
    this.#timers = deps.timers ?? systemTimers
  }

  get state(): SessionState {
    return this.#state
  }

  get token(): IssuedToken | null {
    return this.#issued
  }

  get me(): Me | null {
    return this.#state.status === 'signedIn' ? this.#state.me : null
  }

  /** Picks up the session kept from the last run, if it is still good and the addresses in force are its issuer's. */
  async restore(): Promise<void> {
    const kept = await this.#deps.vault.load()
    if (kept === null) return
    if (!isIssuedBy(kept.issuer, this.#deps.deployment())) {
      await this.#leave(kept)
      return
    }
    this.#issued = kept
    const remembered = this.#deps.preferences.get('account')
    if (remembered !== undefined && (await this.#deps.keptLocally?.(remembered.id)) === true) {
      this.#becomeSignedIn(remembered, { fromDevice: true })
      void this.#confirmRestored(kept, remembered)
      return
    }
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
      this.#issued = null
      await this.#deps.vault.clear()
      this.#setState({
        status: 'signedOut',
        notice: code === 'UNAUTHENTICATED' ? SESSION_ENDED_NOTICE : 'Could not reach the service to restore your session. Please sign in.'
      })
    }
  }

  /** Asks the service whose the session shown from this device's copy is; a refusal ends it. */
  async #confirmRestored(kept: IssuedToken, remembered: Me): Promise<void> {
    try {
      const me = await this.#deps.service.me()
      if (this.#issued !== kept) return
      if (me.id === remembered.id) this.updateMe(me)
      else {
        // The token is someone else's than the account remembered: show theirs, not the kept one.
        void this.#deps.signedOut(false)
        this.#becomeSignedIn(me)
      }
    } catch (error) {
      const code = errorCodeOf(error)
      if (code === 'NETWORK') this.#deps.log.warn('restored the session without reaching the service', error)
      else if (code === 'UNAUTHENTICATED') await this.expire()
      else this.#deps.log.warn('could not confirm the restored session', error)
    }
  }

  async signIn(username: string, password: string): Promise<SignInResult> {
    this.#requireNoToken()
    const outcome = await this.#login({ username, password, deviceId: this.#deviceId() })
    if (outcome.kind === 'token') return { status: 'signedIn', me: await this.#accept(outcome) }
    this.#stopTextRoute()
    this.#challenge = {
      username,
      password,
      verificationId: outcome.verificationId,
      smsHint: outcome.smsHint,
      verified: false,
      textRouteAddress: outcome.textRoute,
      createdAt: this.#now(),
      textRoute: null,
      spent: null
    }
    const challenge = this.#publishChallenge()
    return { status: 'verificationRequired', challenge }
  }

  /** A locked or expired verification: the same sign-in again, for a new one. */
  async startOver(): Promise<SignInResult> {
    const { username, password } = this.#requireChallenge()
    return this.signIn(username, password)
  }

  /**
   * The text route: the user texts the verification's long PIN to the service's number from the
   * account's phone, and the sign-in finishes by itself once the service has seen it.
   */
  async textInstead(): Promise<TextRoute> {
    const challenge = this.#requireChallenge()
    if (challenge.spent !== null) throw this.#spentError(challenge.spent)
    if (challenge.textRoute !== null) return challenge.textRoute
    const address = challenge.textRouteAddress ?? (await this.#readTextRouteAddress(challenge))
    if (this.#challenge !== challenge) throw new AppError('VALIDATION', 'This sign-in was left. Please sign in again.')
    const textRoute: TextRoute = {
      systemNumber: address.systemNumber,
      text: address.longPin,
      expiresAt: challenge.createdAt + VERIFICATION_LIFETIME_MS,
      checkedAt: null,
      expired: false,
      problem: null
    }
    challenge.textRoute = textRoute
    this.#textRoutePoll = new TextRoutePoll({
      read: async () => (await this.#deps.service.readVerification(challenge.verificationId)).verified,
      expiresAt: textRoute.expiresAt,
      now: this.#now,
      timers: this.#timers,
      checked: (at) => {
        challenge.textRoute = { ...textRoute, checkedAt: at, problem: null }
        this.#publishChallenge()
      },
      verified: () => this.#finishTextRoute(challenge),
      expired: () => this.#spend(challenge, 'expired'),
      failed: (error) => {
        this.#deps.log.warn('could not check the text route', error)
        this.#textRouteProblem(challenge, `Could not check for your text. ${toIpcError(error).message}`)
      }
    })
    this.#textRoutePoll.start()
    this.#publishChallenge()
    return textRoute
  }

  /** Stops waiting for the text; the verification stays, for another route. */
  cancelTextRoute(): void {
    const challenge = this.#challenge
    this.#stopTextRoute()
    if (challenge === null || challenge.textRoute === null) return
    challenge.textRoute = null
    this.#publishChallenge()
  }

  /** Stops every timer; the session itself stays as it is. */
  stop(): void {
    this.#stopTextRoute()
  }

  async sendCode(): Promise<{ smsHint: string | null }> {
    const challenge = this.#requireChallenge()
    try {
      const { smsHint } = await this.#deps.service.sendSmsCode(challenge.verificationId)
      challenge.smsHint = smsHint ?? challenge.smsHint
      return { smsHint: challenge.smsHint }
    } catch (error) {
      // V2 refuses a locked verification (or one already verified, which no screen leads to).
      throw this.#challengeFailure(challenge, error, 'locked')
    }
  }

  async confirmCode(code: string): Promise<ConfirmCodeResult> {
    this.#requireNoToken()
    const challenge = this.#requireChallenge()
    if (!challenge.verified) {
      let confirmation: Awaited<ReturnType<SessionService['confirmCode']>>
      try {
        confirmation = await this.#deps.service.confirmCode(challenge.verificationId, code.trim())
      } catch (error) {
        throw this.#challengeFailure(challenge, error, null)
      }
      if (!confirmation.verified) {
        if (confirmation.remainingAttempts === 0) this.#spend(challenge, 'locked')
        return { status: 'wrongCode', remainingAttempts: confirmation.remainingAttempts }
      }
      challenge.verified = true
    }
    return { status: 'signedIn', me: await this.#signInVerified(challenge) }
  }

  cancelVerification(): void {
    this.#stopTextRoute()
    this.#challenge = null
    if (this.#state.status === 'verifying') this.#setState({ status: 'signedOut', notice: null })
  }

  async signOut(): Promise<void> {
    if (this.#issued !== null) await this.#revoke(this.#issued)
    await this.#end(null, true)
  }

  /** The service refused our token, or ended every session (a password change): back to sign-in, saying why. */
  async expire(notice?: string): Promise<void> {
    if (this.#issued === null || this.#switchingToken) return
    await this.#end(notice ?? this.#refusalNotice ?? SESSION_ENDED_NOTICE)
  }

  /** A request was held back: the addresses in force are no longer those of the token's issuer. */
  async issuerLeft(): Promise<void> {
    const issued = this.#issued
    if (issued === null || isIssuedBy(issued.issuer, this.#deps.deployment())) return
    await this.#leave(issued)
  }

  /**
   * The settings just saved still name the token's issuer (its paths moved, say): the token is
   * kept with the new addresses, so its revocation goes where the deployment now answers.
   */
  async followIssuer(issuer: TokenIssuer): Promise<void> {
    const issued = this.#issued
    if (issued === null || !isIssuedBy(issued.issuer, issuer)) return
    this.#issued = { token: issued.token, issuer }
    await this.#deps.vault.save(this.#issued)
  }

  /**
   * Runs `run`; should the service refuse the token meanwhile, the session ends saying `notice`.
   * The refusal reaches `expire` before `run` hears of it, so the words must be known beforehand.
   */
  async refusalMeans<T>(notice: string, run: () => Promise<T>): Promise<T> {
    this.#refusalNotice = notice
    try {
      return await run()
    } finally {
      this.#refusalNotice = null
    }
  }

  /** The signed-in user's own details changed (a profile saved): the same session, told afresh. */
  updateMe(me: Me): void {
    if (this.#state.status !== 'signedIn' || this.#state.me.id !== me.id) return
    this.#deps.preferences.set('account', me)
    this.#setState({ status: 'signedIn', me })
  }

  /**
   * `issue` replaces every token of the account with the one it answers (M4 does). That token is
   * kept in the vault before anything uses it, so an app that stops halfway still holds one that works.
   */
  async switchToken(issue: () => Promise<IssuedToken>): Promise<void> {
    if (this.#issued === null) throw new AppError('UNAUTHENTICATED', SESSION_ENDED_NOTICE)
    this.#switchingToken = true
    try {
      const token = await issue()
      if (this.#issued === null) {
        // Signed out meanwhile: the new token is nobody's, and it never expires unless revoked.
        await this.#revoke(token)
        return
      }
      await this.#deps.vault.save(token).catch(async (error: unknown) => {
        // The old token is revoked already: the new one serves this run even if it cannot be kept,
        // and the vault lets the old one go, so the next start asks to sign in rather than try it.
        this.#deps.log.error('could not keep the new token; the next start will ask to sign in again', error)
        await this.#deps.vault.clear().catch((clearError: unknown) => this.#deps.log.error('could not clear the revoked token either', clearError))
      })
      this.#issued = token
    } finally {
      this.#switchingToken = false
    }
  }

  /** T3 at the token's issuer; signing out must always work locally, so a failure only means the token outlives us there. */
  async #revoke(issued: IssuedToken): Promise<void> {
    await this.#deps.service.revokeToken(issued).catch((error: unknown) => {
      this.#deps.log.warn('could not revoke the token at the service that issued it', error)
    })
  }

  /** The token's issuer is not the deployment in force: it is revoked there, never shown here, and the person told why. */
  async #leave(issued: IssuedToken): Promise<void> {
    // Let go at once, so nothing asks for it again while the revocation is on its way.
    if (this.#issued === issued) this.#issued = null
    this.#deps.log.warn('the service settings changed since sign-in; the session is revoked where it was issued', {
      issuedBy: new URL(issued.issuer.baseUrl).origin
    })
    await this.#revoke(issued)
    await this.#end(serviceMovedNotice(this.#deps.deployment()))
  }

  /** Main does not trust the renderer: a second account's sign-in would replace a token still live, and its push grant with it. */
  #requireNoToken(): void {
    if (this.#issued !== null) throw new AppError('CONFLICT', ALREADY_SIGNED_IN)
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

  /** The sign-in again, carrying the verification now verified. */
  async #signInVerified(challenge: Challenge): Promise<Me> {
    const outcome = await this.#login({
      username: challenge.username,
      password: challenge.password,
      deviceId: this.#deviceId(),
      verificationCode: challenge.verificationId
    })
    if (outcome.kind !== 'token') throw new AppError('INTERNAL', 'The service asked for another verification. Please sign in again.')
    return this.#accept(outcome)
  }

  /**
   * The text arrived: sign in. A refusal (the password changed meanwhile, or too many sign-ins)
   * ends the route, saying so; any other failure leaves it up, and the next check tries again.
   */
  async #finishTextRoute(challenge: Challenge): Promise<boolean> {
    if (this.#challenge !== challenge) return true
    challenge.verified = true
    try {
      await this.#signInVerified(challenge)
      return true
    } catch (error) {
      this.#deps.log.warn('could not finish signing in after the text arrived', error)
      if (this.#challenge !== challenge) return true
      const refusal = TEXT_ROUTE_REFUSALS[errorCodeOf(error)]
      this.#textRouteProblem(challenge, refusal ?? `Your text arrived, but signing in did not finish; trying again. ${toIpcError(error).message}`)
      return refusal !== undefined
    }
  }

  /** Says on the route why it is stuck, for the screen to show. */
  #textRouteProblem(challenge: Challenge, problem: string): void {
    if (this.#challenge !== challenge || challenge.textRoute === null) return
    challenge.textRoute = { ...challenge.textRoute, problem }
    this.#publishChallenge()
  }

  async #readTextRouteAddress(challenge: Challenge): Promise<TextRouteAddress> {
    let address: TextRouteAddress | null
    try {
      address = (await this.#deps.service.readVerification(challenge.verificationId)).textRoute
    } catch (error) {
      throw this.#challengeFailure(challenge, error, null)
    }
    if (address === null) throw new AppError('INTERNAL', 'The service did not say where to text. Use another way to sign in.')
    challenge.textRouteAddress = address
    return address
  }

  async #accept(outcome: Extract<LoginOutcome, { kind: 'token' }>): Promise<Me> {
    if (this.#issued !== null) {
      // Another sign-in finished first (two in flight at once): this token is nobody's.
      await this.#revoke(outcome.token)
      throw new AppError('CONFLICT', ALREADY_SIGNED_IN)
    }
    this.#stopTextRoute()
    this.#challenge = null
    this.#issued = outcome.token
    await this.#deps.vault.save(outcome.token)
    this.#becomeSignedIn(outcome.me)
    return outcome.me
  }

  #becomeSignedIn(me: Me, how = { fromDevice: false }): void {
    this.#deps.preferences.set('account', me)
    this.#setState({ status: 'signedIn', me })
    this.#deps.signedIn(me, how)
  }

  async #end(notice: string | null, byUser = false): Promise<void> {
    const wasSignedIn = this.#state.status === 'signedIn'
    this.#issued = null
    this.#stopTextRoute()
    this.#challenge = null
    await this.#deps.vault.clear()
    this.#setState({ status: 'signedOut', notice })
    if (wasSignedIn) await this.#deps.signedOut(byUser)
  }

  #requireChallenge(): Challenge {
    if (!this.#challenge) throw new AppError('VALIDATION', 'There is no sign-in waiting for a code. Please sign in again.')
    return this.#challenge
  }

  /**
   * A verification that is gone (expired, 404) cannot be saved, nor one the service refuses (400)
   * as `refusedMeans` says: the screen offers a fresh start. Any other failure passes on.
   */
  #challengeFailure(challenge: Challenge, error: unknown, refusedMeans: 'locked' | null): unknown {
    const code = errorCodeOf(error)
    if (code === 'NOT_FOUND') {
      this.#spend(challenge, 'expired')
      return this.#spentError('expired', error)
    }
    if (code === 'VALIDATION') {
      if (refusedMeans === null) return new AppError('VALIDATION', 'This code was already used. Start again to sign in.', { cause: error })
      this.#spend(challenge, refusedMeans)
      return this.#spentError(refusedMeans, error)
    }
    return error
  }

  #spentError(spent: 'locked' | 'expired', cause?: unknown): AppError {
    return spent === 'expired'
      ? new AppError('NOT_FOUND', 'This sign-in has expired. Start again to get a new code.', { cause })
      : new AppError('VALIDATION', 'This sign-in is locked after too many wrong codes. Start again to get a new code.', { cause })
  }

  /** Nothing more can verify this sign-in: only starting over helps. */
  #spend(challenge: Challenge, spent: 'locked' | 'expired'): void {
    if (this.#challenge !== challenge) return
    // A locked verification cannot be verified by text either (the service says so), so no route goes on.
    this.#stopTextRoute()
    if (spent === 'expired' && challenge.textRoute !== null) challenge.textRoute = { ...challenge.textRoute, expired: true }
    challenge.spent ??= spent
    this.#publishChallenge()
  }

  #stopTextRoute(): void {
    this.#textRoutePoll?.stop()
    this.#textRoutePoll = null
  }

  /** The renderer's view of the verification: only what it shows, the route and whether it is spent. */
  #publishChallenge(): VerificationChallenge {
    const challenge = this.#requireChallenge()
    const published: VerificationChallenge = { smsHint: challenge.smsHint }
    if (challenge.textRoute !== null) published.textRoute = challenge.textRoute
    if (challenge.spent !== null) published.spent = challenge.spent
    this.#setState({ status: 'verifying', challenge: published })
    return published
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
