// Two-step verification of the signed-in account (docs/protocol.md §3.3): turning it on is a
// verification of the account's phone (M2, then V2 texts a code), the code confirmed (V3), the
// phone recorded as the channel (M3), and M4, which revokes every token of the account and issues
// the one that replaces them. The verification's id stays here: the renderer only sees the hint.
import type { Account, TwoStepConfirmation } from '@shared/account'
import type { Me } from '@shared/session'
import type { Log } from '../log/log'
import { AppError } from './app-error'
import { errorCodeOf } from './failures'
import type { SecurityService, SessionService } from './ports'
import type { IssuedToken } from '@shared/token-issuer'

export interface TwoStepDependencies {
  service: SecurityService & Pick<SessionService, 'sendSmsCode' | 'confirmCode'>
  /** The signed-in user; throws UNAUTHENTICATED when nobody is. */
  me(): Me
  /** Runs `issue` (M4) and makes the token it answers the app's own, kept before anything uses it. */
  switchToken(issue: () => Promise<IssuedToken>): Promise<void>
  log: Log
}

/** A setup begun and not yet confirmed, with how far it got, so a retry after a failure resumes there. */
interface Setup {
  userId: string
  verificationId: string
  codeConfirmed: boolean
  phoneRecorded: boolean
}

const START_AGAIN = 'Turn two-step verification on again for a new code.'

export class TwoStep {
  readonly #deps: TwoStepDependencies
  #setup: Setup | null = null

  constructor(deps: TwoStepDependencies) {
    this.#deps = deps
  }

  /** M2, then V2: a code goes to the account's phone; answers the phone's hint. */
  async begin(): Promise<{ phoneHint: string | null }> {
    const { id: userId } = this.#deps.me()
    const verificationId = await this.#deps.service.startTwoStep()
    this.#setup = { userId, verificationId, codeConfirmed: false, phoneRecorded: false }
    const { smsHint } = await this.#deps.service.sendSmsCode(verificationId)
    return { phoneHint: smsHint }
  }

  /** V3 with the code, M3, then M4; the app carries on with the token M4 issued. */
  async confirm(code: string): Promise<TwoStepConfirmation> {
    const setup = this.#requireSetup()
    const { service } = this.#deps
    if (!setup.codeConfirmed) {
      const confirmation = await service.confirmCode(setup.verificationId, code.trim()).catch((error: unknown) => {
        throw this.#abandon(error, { NOT_FOUND: `This code has expired. ${START_AGAIN}`, VALIDATION: `This code was already used. ${START_AGAIN}` })
      })
      if (!confirmation.verified) {
        // At 0 the verification is locked for good: only a new one can succeed.
        if (confirmation.remainingAttempts === 0) this.#setup = null
        return { status: 'wrongCode', remainingAttempts: confirmation.remainingAttempts }
      }
      setup.codeConfirmed = true
    }
    if (!setup.phoneRecorded) {
      await service.confirmTwoStepPhone(setup.verificationId).catch((error: unknown) => {
        throw this.#abandon(error, { VALIDATION: `This code can no longer be used. ${START_AGAIN}` })
      })
      setup.phoneRecorded = true
    }
    // Read before M4 rather than after: once M4 has answered, its backup code must reach the user
    // whatever else fails, and M4 changes nothing in the account but the switch itself.
    const account = await service.account()
    let backupCode: string | null = null
    await this.#deps.switchToken(async () => {
      const enabled = await service.enableTwoStep().catch((error: unknown) => {
        throw this.#abandon(error, { VALIDATION: 'Two-step verification is already on.' })
      })
      backupCode = enabled.backupCode
      return enabled.token
    })
    this.#setup = null
    if (backupCode === null) throw new AppError('INTERNAL', 'The service turned two-step verification on without a backup code.')
    return { status: 'enabled', backupCode, account: { ...account, twoStep: { ...account.twoStep, enabled: true } } }
  }

  /** Forgets a setup begun and not confirmed; the service lets its verification expire. */
  cancel(): void {
    this.#setup = null
  }

  /** M5. Already off is what the user asked for: answered with the account as it is. */
  async disable(): Promise<Account> {
    this.#deps.me()
    this.#setup = null
    await this.#deps.service.disableTwoStep().catch((error: unknown) => {
      if (errorCodeOf(error) !== 'VALIDATION') throw error
      this.#deps.log.warn('two-step verification was already off', error)
    })
    return this.#deps.service.account()
  }

  /** M1: replaces the backup code; the new one is shown once. */
  async newBackupCode(): Promise<{ backupCode: string }> {
    this.#deps.me()
    return { backupCode: await this.#deps.service.newBackupCode() }
  }

  #requireSetup(): Setup {
    const setup = this.#setup
    // A setup belongs to whoever began it: after signing out and in as someone else it is gone.
    if (setup === null || setup.userId !== this.#deps.me().id) {
      throw new AppError('VALIDATION', `There is no code waiting to be confirmed. ${START_AGAIN}`)
    }
    return setup
  }

  /** The setup cannot go on: forgets it, and words the failure for the user when it is one they can act on. */
  #abandon(error: unknown, messages: Partial<Record<'NOT_FOUND' | 'VALIDATION', string>>): unknown {
    const code = errorCodeOf(error)
    if (code !== 'NOT_FOUND' && code !== 'VALIDATION') return error
    this.#setup = null
    const message = messages[code]
    return message === undefined ? error : new AppError(code, message, { cause: error })
  }
}
