// The apps signed in to the account, one per live token (docs/protocol.md §3 T1, T2). The list
// does not say which token is this app's own, so after signing one out the app asks who it is
// (U1): a refusal means it signed itself out, and the session ends, the sign-in screen saying so.
import type { SignedInApp } from '@shared/account'
import type { Me } from '@shared/session'
import { AppError } from './app-error'
import { errorCodeOf } from './failures'
import type { SecurityService, SessionService } from './ports'

export interface SignedInAppsDependencies {
  service: Pick<SecurityService, 'signedInApps' | 'signOutApp'> & Pick<SessionService, 'me'>
  /** The signed-in user; throws UNAUTHENTICATED when nobody is. */
  me(): Me
  /** Runs `run`; should the service refuse this app's token meanwhile, the session ends saying `notice`. */
  refusalMeans<T>(notice: string, run: () => Promise<T>): Promise<T>
}

export const SIGNED_OUT_HERE_NOTICE = 'You signed this app out from Signed-in apps.'

export class SignedInApps {
  readonly #deps: SignedInAppsDependencies

  constructor(deps: SignedInAppsDependencies) {
    this.#deps = deps
  }

  /** T1, oldest first. */
  async list(): Promise<SignedInApp[]> {
    this.#deps.me()
    return this.#deps.service.signedInApps()
  }

  /** T2; answers the apps still signed in, or fails UNAUTHENTICATED when this app was the one. */
  async signOut(id: string): Promise<SignedInApp[]> {
    this.#deps.me()
    const { service } = this.#deps
    await service.signOutApp(id).catch((error: unknown) => {
      if (errorCodeOf(error) !== 'NOT_FOUND') throw error
      throw new AppError('NOT_FOUND', 'That app was already signed out.', { cause: error })
    })
    try {
      await this.#deps.refusalMeans(SIGNED_OUT_HERE_NOTICE, () => service.me())
    } catch (error) {
      // The connection has already told the session its token was refused; the settings hear why here.
      if (errorCodeOf(error) === 'UNAUTHENTICATED') throw new AppError('UNAUTHENTICATED', 'You signed this app out. Sign in again to go on.', { cause: error })
      throw error
    }
    return service.signedInApps()
  }
}
