// The user's own profile (U1, U2) and password (P1). A profile saved is the signed-in user's new
// name and avatar at once; a password changed ends every session of the account, this one too.
import type { Account, ProfileChanges, ProfileField, SaveProfileResult } from '@shared/account'
import type { Me } from '@shared/session'
import { newPasswordProblem, PROFILE_REFUSALS, profileProblems } from '@shared/profile-rules'
import { AppError } from './app-error'
import { errorCodeOf } from './failures'
import type { ServiceGateway } from './ports'

export interface ProfileDependencies {
  service: Pick<ServiceGateway, 'account' | 'updateProfile' | 'changePassword'>
  /** The signed-in user's own name or avatar changed. */
  meChanged(me: Me): void
  /** The service ended every session of the account: back to sign-in, saying why. */
  sessionEnded(notice: string): Promise<void>
}

const PROFILE_FIELDS: readonly ProfileField[] = ['name', 'email', 'bio', 'avatar']

export const PASSWORD_CHANGED_NOTICE = 'Your password was changed, and every session ended with it. Sign in with your new password.'
/** P1's 429 (docs/protocol.md §18.32): wrong passwords, to P1 or to sign-in, reached the account's limit. */
export const PASSWORD_GUESSES_LIMITED = 'There have been too many wrong passwords for this account. Wait 15 minutes, then try again.'

export class Profile {
  readonly #deps: ProfileDependencies

  constructor(deps: ProfileDependencies) {
    this.#deps = deps
  }

  account(): Promise<Account> {
    return this.#deps.service.account()
  }

  /** U2, after the checks the service would make: a refusal comes back at the field it is about. */
  async update(changes: ProfileChanges): Promise<SaveProfileResult> {
    const tidy: ProfileChanges = {
      ...changes,
      ...(changes.name === undefined ? {} : { name: changes.name.trim() }),
      ...(changes.email === undefined ? {} : { email: changes.email.trim() })
    }
    const problems = profileProblems(tidy)
    for (const field of PROFILE_FIELDS) {
      const message = problems[field]
      if (message !== undefined) return { status: 'invalid', field, message }
    }
    const outcome = await this.#deps.service.updateProfile(tidy)
    if (outcome.kind === 'refused') {
      if (outcome.field === null) throw new AppError('VALIDATION', 'The service did not accept your profile. Check it and try again.')
      return { status: 'invalid', field: outcome.field, message: PROFILE_REFUSALS[outcome.field] }
    }
    const { account } = outcome
    this.#deps.meChanged({ id: account.id, name: account.name, avatarUrl: account.avatarUrl })
    return { status: 'saved', account }
  }

  /**
   * P1: on success every session ends, this one too, and sign-in says why. A wrong current
   * password counts against the account's limit on wrong passwords, the one sign-in counts
   * against too: once it is reached the service refuses even the right one for 15 minutes.
   */
  async changePassword(current: string, next: string): Promise<void> {
    const problem = newPasswordProblem(next)
    if (problem !== null) throw new AppError('VALIDATION', `The new password is too short. ${problem}`)
    try {
      await this.#deps.service.changePassword(current, next)
    } catch (error) {
      switch (errorCodeOf(error)) {
        case 'FORBIDDEN':
          throw new AppError('FORBIDDEN', 'The current password is wrong. Check it and try again.', { cause: error })
        case 'RATE_LIMITED':
          throw new AppError('RATE_LIMITED', PASSWORD_GUESSES_LIMITED, { cause: error })
        default:
          throw error
      }
    }
    await this.#deps.sessionEnded(PASSWORD_CHANGED_NOTICE)
  }
}
