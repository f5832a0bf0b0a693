import { describe, expect, it, vi } from 'vitest'
import type { TextRoute } from '@shared/account'
import type { Me, SessionState } from '@shared/session'
import type { ErrorCode } from '@shared/window-api'
import type { IssuedToken, TokenIssuer } from '@shared/token-issuer'
import { issuerAt, MemoryPreferences, MemoryVault, TEST_ISSUER } from '../../../tests/support/memory-platform'
import type { Log } from '../log/log'
import type { LoginOutcome, SessionService, TextRouteAddress } from './ports'
import { ALREADY_SIGNED_IN, SESSION_ENDED_NOTICE, Session } from './session'
import { ManualTime } from './testing/manual-time'
import { failure } from './testing/memory-service'
import { VERIFICATION_LIFETIME_MS } from './text-route-poll'

const ADA: Me = { id: '1', name: 'Ada', avatarUrl: null }
const PASSWORD = 'correct horse'
const PIN = '123456'

type LoginRequest = Parameters<SessionService['login']>[0]
type Operation = keyof SessionService

/**
 * One account on an in-memory service: it signs in with a token straight away, or (with
 * `verifyDevice`) asks for an SMS code first, as the service does for a device it does not know.
 */
class MemoryAccount implements SessionService {
  readonly logins: LoginRequest[] = []
  readonly calls: Operation[] = []
  readonly tokens = new Set<string>()
  /** Where each revocation was sent. */
  readonly revokedAt: TokenIssuer[] = []
  verifyDevice = false
  /** The service asks for a verification again even after a verified code (it never should). */
  verifyAgain = false
  remainingAttempts = 5
  /** The last digits of the phone the code is texted to, as the service tells them. */
  smsHint: string | null = '89'
  /** Where to text instead, as L1's 202 and V1 give it; the user "texts" with `receiveText`. */
  textRoute: TextRouteAddress | null = null
  #verified = false
  #issued = 0
  readonly #failures = new Map<Operation, ErrorCode>()
  readonly #currentToken: () => IssuedToken | null

  /** `currentToken` is the token the calls carry, as the connection reads it from its owner. */
  constructor(currentToken: () => IssuedToken | null) {
    this.#currentToken = currentToken
  }

  failNext(operation: Operation, code: ErrorCode): void {
    this.#failures.set(operation, code)
  }

  /** A token as a sign-in earlier would have issued it. */
  issueToken(issuer: TokenIssuer = TEST_ISSUER): IssuedToken {
    const token = `token-${(this.#issued += 1)}`
    this.tokens.add(token)
    return { token, issuer }
  }

  async login(request: LoginRequest): Promise<LoginOutcome> {
    this.#call('login')
    this.logins.push(request)
    if (request.username !== 'ada' || request.password !== PASSWORD) throw failure('UNAUTHENTICATED')
    if (request.verificationCode !== undefined) {
      if (request.verificationCode !== 'mfa-1' || !this.#verified) throw failure('UNAUTHENTICATED')
      if (this.verifyAgain) return { kind: 'verification', verificationId: 'mfa-2', smsHint: null, textRoute: null }
    } else if (this.verifyDevice) {
      return { kind: 'verification', verificationId: 'mfa-1', smsHint: null, textRoute: this.textRoute }
    }
    return { kind: 'token', token: this.issueToken(), me: ADA }
  }

  async readVerification(verificationId: string): Promise<{ verified: boolean; textRoute: TextRouteAddress | null }> {
    this.#call('readVerification')
    if (verificationId !== 'mfa-1') throw failure('NOT_FOUND')
    return { verified: this.#verified, textRoute: this.textRoute }
  }

  receiveText(): void {
    this.#verified = true
  }

  async sendSmsCode(verificationId: string): Promise<{ smsHint: string | null }> {
    this.#call('sendSmsCode')
    if (verificationId !== 'mfa-1') throw failure('NOT_FOUND')
    return { smsHint: this.smsHint }
  }

  async confirmCode(verificationId: string, code: string): Promise<{ verified: true } | { verified: false; remainingAttempts: number }> {
    this.#call('confirmCode')
    if (verificationId !== 'mfa-1') throw failure('NOT_FOUND')
    if (this.#verified) throw failure('VALIDATION')
    if (code !== PIN || this.remainingAttempts === 0) {
      this.remainingAttempts = Math.max(0, this.remainingAttempts - 1)
      return { verified: false, remainingAttempts: this.remainingAttempts }
    }
    this.#verified = true
    return { verified: true }
  }

  async me(): Promise<Me> {
    this.#call('me')
    if (!this.tokens.has(this.#currentToken()?.token ?? '')) throw failure('UNAUTHENTICATED')
    return ADA
  }

  async revokeToken(issued: IssuedToken): Promise<void> {
    this.#call('revokeToken')
    this.revokedAt.push(issued.issuer)
    if (!this.tokens.delete(issued.token)) throw failure('UNAUTHENTICATED')
  }

  #call(operation: Operation): void {
    this.calls.push(operation)
    const code = this.#failures.get(operation)
    this.#failures.delete(operation)
    if (code !== undefined) throw failure(code)
  }
}

function recordingLog(): Log & { warnings: string[] } {
  const warnings: string[] = []
  return { warnings, info: () => undefined, warn: (message) => void warnings.push(message), error: () => undefined }
}

function sessionWith(platform: { vault?: MemoryVault; preferences?: MemoryPreferences; time?: ManualTime; keptLocally?: string[] } = {}) {
  const vault = platform.vault ?? new MemoryVault()
  const preferences = platform.preferences ?? new MemoryPreferences()
  const log = recordingLog()
  const states: SessionState[] = []
  const signedIn: Me[] = []
  const ended: string[] = []
  /** For each end, whether the user signed out (and this device's copy of the account goes). */
  const endedByUser: boolean[] = []
  const service = new MemoryAccount((): IssuedToken | null => session.token)
  const settings = { deployment: TEST_ISSUER }
  const session: Session = new Session({
    service,
    vault,
    preferences,
    log,
    deployment: () => settings.deployment,
    ...(platform.keptLocally === undefined ? {} : { keptLocally: async (accountId: string) => platform.keptLocally?.includes(accountId) ?? false }),
    ...(platform.time === undefined ? {} : { now: () => platform.time?.now ?? 0, timers: platform.time }),
    changed: (state) => void states.push(state),
    signedIn: (me) => void signedIn.push(me),
    signedOut: (byUser) => {
      ended.push(session.state.status)
      endedByUser.push(byUser)
    }
  })
  return { session, service, vault, preferences, log, states, signedIn, ended, endedByUser, settings }
}

/** A session already signed in, with what it announced on the way left out. */
async function signedInSession(platform: Parameters<typeof sessionWith>[0] = {}) {
  const parts = sessionWith(platform)
  await parts.session.signIn('ada', PASSWORD)
  parts.states.length = 0
  parts.signedIn.length = 0
  return parts
}

/** A session waiting on the verification screen. */
async function verifyingSession() {
  const parts = sessionWith()
  parts.service.verifyDevice = true
  await parts.session.signIn('ada', PASSWORD)
  parts.states.length = 0
  return parts
}

const signedOut = (notice: string | null): SessionState => ({ status: 'signedOut', notice })

/** The text route the verification screen shows, if any. */
function publishedRoute(state: SessionState): TextRoute | undefined {
  return state.status === 'verifying' ? (state.challenge.textRoute ?? undefined) : undefined
}

describe('Session: signing in', () => {
  it('signs in at once when the service answers with a token, and keeps the token and the account', async () => {
    const { session, vault, preferences, states, signedIn } = sessionWith()
    expect(session.state).toEqual(signedOut(null))

    expect(await session.signIn('ada', PASSWORD)).toEqual({ status: 'signedIn', me: ADA })
    expect(session.state).toEqual({ status: 'signedIn', me: ADA })
    expect(session.me).toEqual(ADA)
    expect(session.token).toEqual({ token: 'token-1', issuer: TEST_ISSUER })
    expect(vault.kept).toEqual(session.token)
    expect(preferences.get('account')).toEqual(ADA)
    expect(states).toEqual([{ status: 'signedIn', me: ADA }])
    expect(signedIn).toEqual([ADA])
  })

  it('asks for a code when the service wants this device verified, counts down wrong codes, and signs in with the right one', async () => {
    const { session, service, vault, states, signedIn } = sessionWith()
    service.verifyDevice = true

    expect(await session.signIn('ada', PASSWORD)).toEqual({ status: 'verificationRequired', challenge: { smsHint: null } })
    expect(session.state).toEqual({ status: 'verifying', challenge: { smsHint: null } })
    expect(session.token).toBeNull()
    expect(vault.token).toBeNull()

    expect(await session.sendCode()).toEqual({ smsHint: '89' })
    expect(await session.confirmCode('000000')).toEqual({ status: 'wrongCode', remainingAttempts: 4 })
    expect(await session.confirmCode('111111')).toEqual({ status: 'wrongCode', remainingAttempts: 3 })
    expect(session.state.status).toBe('verifying')
    expect(signedIn).toEqual([])

    // Typed with stray spaces around it, as pasted from a text message.
    expect(await session.confirmCode(` ${PIN} `)).toEqual({ status: 'signedIn', me: ADA })
    expect(vault.kept).toEqual(session.token)
    expect(signedIn).toEqual([ADA])
    expect(states).toEqual([{ status: 'verifying', challenge: { smsHint: null } }, { status: 'signedIn', me: ADA }])
    // The sign-in is repeated with the same credentials and device, carrying the verification.
    const [first, second] = service.logins
    expect(second).toEqual({ ...first, verificationCode: 'mfa-1' })
  })

  it('keeps the hint of where the code went when sending another gives none', async () => {
    const { session, service } = await verifyingSession()
    await session.sendCode()
    service.smsHint = null
    expect(await session.sendCode()).toEqual({ smsHint: '89' })
  })

  it('only repeats the sign-in when the code was accepted but the sign-in after it failed', async () => {
    const { session, service } = await verifyingSession()
    service.failNext('login', 'NETWORK')
    await expect(session.confirmCode(PIN)).rejects.toMatchObject({ code: 'NETWORK' })
    expect(session.state.status).toBe('verifying')

    // The code is spent now; whatever is typed, only the sign-in goes again.
    expect(await session.confirmCode('')).toEqual({ status: 'signedIn', me: ADA })
    expect(service.calls.filter((operation) => operation === 'confirmCode')).toHaveLength(1)
  })

  it('says the username or password is wrong, and stays signed out', async () => {
    const { session, vault, states } = sessionWith()
    await expect(session.signIn('ada', 'wrong')).rejects.toMatchObject({ code: 'UNAUTHENTICATED', message: 'Wrong username or password.' })
    expect(session.state).toEqual(signedOut(null))
    expect(vault.token).toBeNull()
    expect(states).toEqual([])
  })

  it('asks the user to wait after too many failed sign-ins', async () => {
    const { session, service } = sessionWith()
    service.failNext('login', 'RATE_LIMITED')
    await expect(session.signIn('ada', PASSWORD)).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many failed sign-ins. Wait 15 minutes and try again.'
    })
  })

  it('passes any other sign-in failure on as the service connection worded it', async () => {
    const { session, service } = sessionWith()
    service.failNext('login', 'NETWORK')
    await expect(session.signIn('ada', PASSWORD)).rejects.toEqual(failure('NETWORK'))
    expect(session.state).toEqual(signedOut(null))
  })

  it('gives up when the service asks for another verification after a verified code', async () => {
    const { session, service, signedIn } = await verifyingSession()
    service.verifyAgain = true
    await expect(session.confirmCode(PIN)).rejects.toMatchObject({ code: 'INTERNAL' })
    expect(signedIn).toEqual([])
  })

  it('sends the same device id with every sign-in, generated once and kept', async () => {
    const { session, service, preferences } = sessionWith()
    await session.signIn('ada', PASSWORD)
    await session.signOut()
    await session.signIn('ada', PASSWORD)
    const [first, second] = service.logins.map((login) => login.deviceId)
    expect(first).toMatch(/^[0-9a-f-]{36}$/)
    expect(second).toBe(first)
    expect(preferences.get('deviceId')).toBe(first)
  })

  it('sends the device id this installation already has', async () => {
    const preferences = new MemoryPreferences()
    preferences.set('deviceId', 'device-7')
    const { session, service } = sessionWith({ preferences })
    await session.signIn('ada', PASSWORD)
    expect(service.logins[0]?.deviceId).toBe('device-7')
  })
})

describe('Session: a verification that cannot go on', () => {
  it('says the sign-in has expired when the service no longer knows the verification, and starts over on request', async () => {
    for (const step of ['sendSmsCode', 'confirmCode'] as const) {
      const { session, service, states } = await verifyingSession()
      service.failNext(step, 'NOT_FOUND')
      const attempt = step === 'sendSmsCode' ? session.sendCode() : session.confirmCode(PIN)
      await expect(attempt).rejects.toMatchObject({ code: 'NOT_FOUND', message: 'This sign-in has expired. Start again to get a new code.' })
      expect(states).toEqual([{ status: 'verifying', challenge: { smsHint: null, spent: 'expired' } }])

      // The held credentials sign in again, for a new verification with nothing of the old one.
      expect(await session.startOver()).toEqual({ status: 'verificationRequired', challenge: { smsHint: null } })
      expect(session.state).toEqual({ status: 'verifying', challenge: { smsHint: null } })
      expect(service.logins).toHaveLength(2)
    }
  })

  it('says the sign-in is locked when the service refuses to send another code, and when the last attempt is used', async () => {
    const { session, service, states } = await verifyingSession()
    service.failNext('sendSmsCode', 'VALIDATION')
    await expect(session.sendCode()).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'This sign-in is locked after too many wrong codes. Start again to get a new code.'
    })
    expect(session.state).toEqual({ status: 'verifying', challenge: { smsHint: null, spent: 'locked' } })

    const locked = await verifyingSession()
    locked.service.remainingAttempts = 1
    expect(await locked.session.confirmCode('000000')).toEqual({ status: 'wrongCode', remainingAttempts: 0 })
    expect(locked.states).toEqual([{ status: 'verifying', challenge: { smsHint: null, spent: 'locked' } }])
    expect(states).toHaveLength(1)
  })

  it('says the code was already used when the service has verified it before', async () => {
    const { session, service } = await verifyingSession()
    service.failNext('confirmCode', 'VALIDATION')
    await expect(session.confirmCode(PIN)).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'This code was already used. Start again to sign in.'
    })
  })

  it('cannot start over without a sign-in waiting', async () => {
    const { session } = sessionWith()
    await expect(session.startOver()).rejects.toMatchObject({ code: 'VALIDATION' })
  })

  it('passes an outage during verification on unchanged, and the screen stays', async () => {
    const { session, service } = await verifyingSession()
    service.failNext('sendSmsCode', 'NETWORK')
    await expect(session.sendCode()).rejects.toEqual(failure('NETWORK'))
    service.failNext('confirmCode', 'NETWORK')
    await expect(session.confirmCode(PIN)).rejects.toEqual(failure('NETWORK'))
    expect(await session.confirmCode(PIN)).toEqual({ status: 'signedIn', me: ADA })
  })

  it('forgets the pending sign-in, password and all, when the user goes back', async () => {
    const { session, service, states } = await verifyingSession()
    session.cancelVerification()
    expect(states).toEqual([signedOut(null)])
    await expect(session.sendCode()).rejects.toMatchObject({ code: 'VALIDATION' })
    await expect(session.confirmCode(PIN)).rejects.toMatchObject({ code: 'VALIDATION' })
    expect(service.calls).toEqual(['login'])
  })
})

describe('Session: restoring the last run’s session', () => {
  it('stays signed out, asking nothing, when no token was kept', async () => {
    const { session, service, states } = sessionWith()
    await session.restore()
    expect(session.state).toEqual(signedOut(null))
    expect(service.calls).toEqual([])
    expect(states).toEqual([])
  })

  it('signs in as whoever the service says the kept token belongs to', async () => {
    const vault = new MemoryVault()
    const { session, service, preferences, states, signedIn } = sessionWith({ vault })
    vault.kept = service.issueToken()
    await session.restore()
    expect(session.state).toEqual({ status: 'signedIn', me: ADA })
    expect(session.token).toEqual(vault.kept)
    expect(preferences.get('account')).toEqual(ADA)
    expect(states).toEqual([{ status: 'signedIn', me: ADA }])
    expect(signedIn).toEqual([ADA])
  })

  it('carries on as the remembered account while the service is out of reach', async () => {
    const vault = new MemoryVault()
    const preferences = new MemoryPreferences()
    preferences.set('account', ADA)
    const { session, service, log, signedIn } = sessionWith({ vault, preferences })
    vault.kept = service.issueToken()
    service.failNext('me', 'NETWORK')

    await session.restore()
    expect(session.state).toEqual({ status: 'signedIn', me: ADA })
    expect(session.token).toEqual(vault.kept)
    expect(vault.kept).not.toBeNull()
    expect(signedIn).toEqual([ADA])
    expect(log.warnings).toEqual(['restored the session without reaching the service'])
  })

  it('goes back to sign-in, saying the session ended, when the service refuses the kept token', async () => {
    const vault = new MemoryVault()
    const preferences = new MemoryPreferences()
    preferences.set('account', ADA)
    const { session, states, signedIn } = sessionWith({ vault, preferences })
    vault.kept = { token: 'revoked', issuer: TEST_ISSUER }

    await session.restore()
    expect(session.state).toEqual(signedOut(SESSION_ENDED_NOTICE))
    expect(SESSION_ENDED_NOTICE).toBe('Your session has ended. Please sign in again.')
    expect(session.token).toBeNull()
    expect(vault.token).toBeNull()
    expect(states).toEqual([signedOut(SESSION_ENDED_NOTICE)])
    expect(signedIn).toEqual([])
  })

  it('asks the user to sign in when the service is out of reach and no account is remembered', async () => {
    const vault = new MemoryVault()
    const { session, service, signedIn } = sessionWith({ vault })
    vault.kept = service.issueToken()
    service.failNext('me', 'NETWORK')

    await session.restore()
    expect(session.state).toEqual(signedOut('Could not reach the service to restore your session. Please sign in.'))
    expect(session.token).toBeNull()
    expect(signedIn).toEqual([])
  })
})

describe('Session: restoring from what this device keeps', () => {
  function keptSession() {
    const vault = new MemoryVault()
    const preferences = new MemoryPreferences()
    preferences.set('account', ADA)
    const parts = sessionWith({ vault, preferences, keptLocally: [ADA.id] })
    vault.kept = parts.service.issueToken()
    return parts
  }

  it('signs in as the remembered account before the service answers, then takes its newer profile', async () => {
    const { session, service, states, signedIn } = keptSession()
    const renamed = { ...ADA, name: 'Ada L.' }
    let answer: (me: Me) => void = () => undefined
    service.me = () => new Promise((resolve) => (answer = resolve))

    await session.restore()
    expect(session.state).toEqual({ status: 'signedIn', me: ADA })
    expect(signedIn).toEqual([ADA])
    answer(renamed)
    await vi.waitFor(() => expect(session.state).toEqual({ status: 'signedIn', me: renamed }))
    expect(states).toEqual([
      { status: 'signedIn', me: ADA },
      { status: 'signedIn', me: renamed }
    ])
  })

  it('stays signed in while the service is out of reach', async () => {
    const { session, service, log } = keptSession()
    service.failNext('me', 'NETWORK')
    await session.restore()
    await vi.waitFor(() => expect(log.warnings).toEqual(['restored the session without reaching the service']))
    expect(session.state).toEqual({ status: 'signedIn', me: ADA })
  })

  it('ends the session it showed, saying so, when the service refuses the kept token', async () => {
    const { session, vault, states, ended } = keptSession()
    vault.kept = { token: 'revoked', issuer: TEST_ISSUER }
    await session.restore()
    await vi.waitFor(() => expect(session.state).toEqual(signedOut(SESSION_ENDED_NOTICE)))
    expect(states).toEqual([{ status: 'signedIn', me: ADA }, signedOut(SESSION_ENDED_NOTICE)])
    expect(ended).toHaveLength(1)
    expect(vault.token).toBeNull()
  })

  it('waits for the service as before when this device keeps nothing of the remembered account', async () => {
    const preferences = new MemoryPreferences()
    preferences.set('account', ADA)
    const { session, vault, states, signedIn } = sessionWith({ vault: new MemoryVault(), preferences, keptLocally: ['someone else'] })
    vault.kept = { token: 'revoked', issuer: TEST_ISSUER }
    await session.restore()
    expect(states).toEqual([signedOut(SESSION_ENDED_NOTICE)])
    expect(signedIn).toEqual([])
  })
})

describe('Session: signing out and expiry', () => {
  it('signs out by revoking the token on the service and forgetting it here', async () => {
    const { session, service, vault, states, ended, endedByUser } = await signedInSession()
    await session.signOut()
    expect(service.tokens.size).toBe(0)
    expect(session.state).toEqual(signedOut(null))
    expect(session.token).toBeNull()
    expect(session.me).toBeNull()
    expect(vault.token).toBeNull()
    expect(states).toEqual([signedOut(null)])
    // Those told of it see the session already ended, by the user's own choice.
    expect(ended).toEqual(['signedOut'])
    expect(endedByUser).toEqual([true])
  })

  it('waits for those told of a sign-out (removing what the device kept) before it resolves', async () => {
    let removed = false
    const parts = sessionWith()
    const session = new Session({
      service: parts.service,
      vault: parts.vault,
      preferences: parts.preferences,
      log: parts.log,
      deployment: () => TEST_ISSUER,
      changed: () => undefined,
      signedIn: () => undefined,
      signedOut: async () => {
        await new Promise((resolve) => setTimeout(resolve, 10))
        removed = true
      }
    })
    await session.signIn('ada', PASSWORD)
    await session.signOut()
    expect(removed).toBe(true)
  })

  it('signs out here even when the service cannot be told', async () => {
    const { session, service, vault, log, ended } = await signedInSession()
    service.failNext('revokeToken', 'NETWORK')
    await session.signOut()
    expect(session.state).toEqual(signedOut(null))
    expect(vault.token).toBeNull()
    expect(ended).toHaveLength(1)
    expect(log.warnings).toEqual(['could not revoke the token at the service that issued it'])
  })

  it('leaves a verification without asking the service, and tells no one a session ended', async () => {
    const { session, service, ended } = await verifyingSession()
    await session.signOut()
    expect(session.state).toEqual(signedOut(null))
    expect(service.calls).toEqual(['login'])
    expect(ended).toEqual([])
  })

  it('ends the session with a notice when the service refuses the token', async () => {
    const { session, vault, states, ended, endedByUser } = await signedInSession()
    await session.expire()
    expect(endedByUser).toEqual([false])
    expect(session.state).toEqual(signedOut(SESSION_ENDED_NOTICE))
    expect(session.token).toBeNull()
    expect(vault.token).toBeNull()
    expect(states).toEqual([signedOut(SESSION_ENDED_NOTICE)])
    expect(ended).toHaveLength(1)
  })

  it('ends the session with the notice given beforehand when the token is refused while a call that could meet that runs', async () => {
    const { session, states } = await signedInSession()
    const notice = 'You signed this app out from Signed-in apps.'
    // As the connection does: the refusal reaches the session before the call fails.
    await expect(
      session.refusalMeans(notice, async () => {
        void session.expire()
        throw failure('UNAUTHENTICATED')
      })
    ).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    await expect.poll(() => states.at(-1)).toEqual(signedOut(notice))

    await session.signIn('ada', PASSWORD)
    await session.refusalMeans(notice, async () => undefined)
    await session.expire()
    expect(states.at(-1)).toEqual(signedOut(SESSION_ENDED_NOTICE))
  })

  it('ignores an expiry when no one is signed in', async () => {
    const { session, states, ended } = sessionWith()
    await session.expire()
    expect(session.state).toEqual(signedOut(null))
    expect(states).toEqual([])
    expect(ended).toEqual([])
  })
})

describe('Session: texting the service instead', () => {
  const ADDRESS: TextRouteAddress = { systemNumber: '+1 5555550199', longPin: '0123456789ab' }

  /** On the verification screen of a service that offers the text route, on a clock the test moves. */
  async function textingSession(textRoute: TextRouteAddress | null = ADDRESS) {
    const time = new ManualTime()
    const parts = sessionWith({ time })
    parts.service.verifyDevice = true
    parts.service.textRoute = textRoute
    await parts.session.signIn('ada', PASSWORD)
    parts.states.length = 0
    return { ...parts, time }
  }

  it('answers the route from the sign-in itself, and signs in at the first check after the text arrives', async () => {
    const { session, service, time, states, signedIn } = await textingSession()
    const route = await session.textInstead()
    expect(route).toEqual({
      systemNumber: '+1 5555550199',
      text: '0123456789ab',
      expiresAt: time.start + VERIFICATION_LIFETIME_MS,
      checkedAt: null,
      expired: false,
      problem: null
    })
    expect(service.calls).toEqual(['login'])

    await time.next()
    expect(session.state).toEqual({ status: 'verifying', challenge: { smsHint: null, textRoute: { ...route, checkedAt: time.now } } })
    service.receiveText()
    await time.next()

    expect(signedIn).toEqual([ADA])
    expect(states.at(-1)).toEqual({ status: 'signedIn', me: ADA })
    expect(service.logins.at(-1)?.verificationCode).toBe('mfa-1')
    expect(time.pending).toBe(0)
  })

  it('reads the route from the verification when the sign-in did not carry it', async () => {
    const { session, service } = await textingSession(null)
    service.textRoute = ADDRESS
    expect(await session.textInstead()).toMatchObject({ systemNumber: '+1 5555550199', text: '0123456789ab' })
    expect(service.calls).toEqual(['login', 'readVerification'])
  })

  it('says so when the service never tells where to text', async () => {
    const { session } = await textingSession(null)
    await expect(session.textInstead()).rejects.toMatchObject({
      code: 'INTERNAL',
      message: 'The service did not say where to text. Use another way to sign in.'
    })
    expect(session.state).toEqual({ status: 'verifying', challenge: { smsHint: null } })
  })

  it('tries the sign-in again at the next check when it failed after the text arrived', async () => {
    const { session, service, time, signedIn } = await textingSession()
    await session.textInstead()
    service.receiveText()
    service.failNext('login', 'NETWORK')
    await time.next()
    expect(signedIn).toEqual([])
    expect(publishedRoute(session.state)?.problem).toBe(
      'Your text arrived, but signing in did not finish; trying again. Cannot reach the service. Check your connection; we will keep trying.'
    )

    await time.next()
    expect(signedIn).toEqual([ADA])
  })

  it('says on the route when a check fails, and clears it at the next check that gets through', async () => {
    const { session, service, time, log } = await textingSession()
    await session.textInstead()
    service.failNext('readVerification', 'NETWORK')
    await time.next()
    expect(publishedRoute(session.state)?.problem).toBe('Could not check for your text. Cannot reach the service. Check your connection; we will keep trying.')
    expect(log.warnings).toEqual(['could not check the text route'])

    await time.next()
    expect(publishedRoute(session.state)).toMatchObject({ problem: null, checkedAt: time.now })
  })

  it('ends the route, saying why, when the sign-in after the text is refused or limited', async () => {
    const refusals = [
      ['UNAUTHENTICATED', 'Your text arrived, but the service refused the sign-in: your password may have changed. Go back and sign in again.'],
      ['RATE_LIMITED', 'Your text arrived, but there have been too many failed sign-ins. Wait 15 minutes, then go back and sign in again.']
    ] as const
    for (const [code, words] of refusals) {
      const { session, service, time, signedIn } = await textingSession()
      await session.textInstead()
      service.receiveText()
      service.failNext('login', code)
      await time.next()
      expect(publishedRoute(session.state)?.problem).toBe(words)
      expect(time.pending).toBe(0)
      expect(signedIn).toEqual([])
    }
  })

  it('publishes the route as expired at the expiry, and refuses to take it again', async () => {
    const { session, time } = await textingSession()
    const route = await session.textInstead()
    while (time.pending > 0) await time.next()
    expect(session.state).toEqual({
      status: 'verifying',
      challenge: { smsHint: null, textRoute: { ...route, checkedAt: expect.any(Number), expired: true }, spent: 'expired' }
    })
    await expect(session.textInstead()).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('stops checking on Cancel, on Back, and when the app stops', async () => {
    for (const leave of ['cancelTextRoute', 'cancelVerification', 'stop'] as const) {
      const { session, time, states } = await textingSession()
      await session.textInstead()
      expect(time.pending).toBe(1)
      session[leave]()
      expect(time.pending).toBe(0)
      if (leave === 'cancelTextRoute') expect(states.at(-1)).toEqual({ status: 'verifying', challenge: { smsHint: null } })
    }
  })
})

describe('Session: the token goes only to the service that issued it', () => {
  const elsewhere = issuerAt('http://127.0.0.1:9999')

  it('never shows a kept token to other addresses: it is revoked where it was issued, forgotten, and the sign-in screen says why', async () => {
    const vault = new MemoryVault()
    const preferences = new MemoryPreferences()
    preferences.set('account', ADA)
    const { session, service, settings, states, signedIn } = sessionWith({ vault, preferences })
    vault.kept = service.issueToken()
    settings.deployment = elsewhere

    await session.restore()
    expect(service.calls).toEqual(['revokeToken'])
    expect(service.revokedAt).toEqual([TEST_ISSUER])
    expect(service.tokens.size).toBe(0)
    expect(vault.kept).toBeNull()
    expect(session.token).toBeNull()
    const notice = 'The service address changed since you signed in. Sign in again to use http://127.0.0.1:9999.'
    expect(states).toEqual([signedOut(notice)])
    expect(signedIn).toEqual([])
  })

  it('forgets a kept token whose issuer cannot be told, even when the revocation fails', async () => {
    const vault = new MemoryVault()
    const { session, service, settings } = sessionWith({ vault })
    vault.kept = service.issueToken()
    settings.deployment = { ...TEST_ISSUER, appId: 'another-app' }
    service.failNext('revokeToken', 'NETWORK')

    await session.restore()
    expect(vault.kept).toBeNull()
    expect(session.state.status).toBe('signedOut')
  })

  it('keeps a session whose deployment only moved its paths', async () => {
    const vault = new MemoryVault()
    const { session, service, settings } = sessionWith({ vault })
    vault.kept = service.issueToken()
    settings.deployment = { ...TEST_ISSUER, baseUrl: 'http://127.0.0.1:8080/api/v3' }
    await session.restore()
    expect(session.state).toEqual({ status: 'signedIn', me: ADA })
  })

  it('ends a running session when the addresses in force stop being its issuer’s, revoking it there once', async () => {
    const { session, service, settings, vault, states, ended } = await signedInSession()
    settings.deployment = elsewhere
    await Promise.all([session.issuerLeft(), session.issuerLeft()])
    expect(service.revokedAt).toEqual([TEST_ISSUER])
    expect(vault.kept).toBeNull()
    expect(states).toEqual([signedOut('The service address changed since you signed in. Sign in again to use http://127.0.0.1:9999.')])
    expect(ended).toHaveLength(1)
  })

  it('takes no notice of a held-back request while the addresses are still the issuer’s', async () => {
    const { session, service } = await signedInSession()
    await session.issuerLeft()
    expect(session.state).toEqual({ status: 'signedIn', me: ADA })
    expect(service.calls).not.toContain('revokeToken')
  })

  it('keeps the token with the new addresses when the same deployment moves its paths', async () => {
    const { session, vault } = await signedInSession()
    const moved = { ...TEST_ISSUER, v2Url: 'http://127.0.0.1:8080/api/v2' }
    await session.followIssuer(moved)
    expect(vault.kept).toEqual({ token: 'token-1', issuer: moved })
    await session.followIssuer(elsewhere)
    expect(vault.kept).toEqual({ token: 'token-1', issuer: moved })
  })
})

describe('Session: one account at a time', () => {
  it('refuses a sign-in while signed in, asking the service nothing and keeping the token', async () => {
    const { session, service, vault } = await signedInSession()
    service.calls.length = 0
    await expect(session.signIn('ada', PASSWORD)).rejects.toMatchObject({ code: 'CONFLICT', message: ALREADY_SIGNED_IN })
    expect(service.calls).toEqual([])
    expect(vault.kept).toEqual({ token: 'token-1', issuer: TEST_ISSUER })
    expect(session.state).toEqual({ status: 'signedIn', me: ADA })
  })

  it('refuses a sign-in while a kept session is being restored', async () => {
    const vault = new MemoryVault()
    const { session, service } = sessionWith({ vault })
    vault.kept = service.issueToken()
    const restoring = session.restore()
    await expect(session.signIn('ada', PASSWORD)).rejects.toMatchObject({ code: 'CONFLICT' })
    await restoring
    expect(session.token?.token).toBe('token-1')
  })

  it('refuses to confirm a code while signed in', async () => {
    const { session } = await signedInSession()
    await expect(session.confirmCode(PIN)).rejects.toMatchObject({ code: 'CONFLICT' })
    await expect(session.startOver()).rejects.toMatchObject({ code: 'VALIDATION' })
  })

  it('of two sign-ins in flight at once, keeps the first and revokes the token of the second', async () => {
    const { session, service, vault } = sessionWith()
    const results = await Promise.allSettled([session.signIn('ada', PASSWORD), session.signIn('ada', PASSWORD)])
    expect(results.map((result) => result.status)).toEqual(['fulfilled', 'rejected'])
    expect(vault.kept?.token).toBe('token-1')
    expect([...service.tokens]).toEqual(['token-1'])
  })
})
