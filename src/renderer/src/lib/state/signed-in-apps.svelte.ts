// Settings ▸ Security ▸ Signed-in apps: the account's live tokens (T1), each of which can be
// signed out (T2). Signing out the app in use ends this session: main says so, and the sign-in
// screen follows from the session's own event.
import type { SignedInApp } from '../../../../shared/account'
import { call, codeOf, messageOf } from '../main-process'
import { RetryWhenBack } from '../retry-when-back'

/**
 * Counts the times every token of the account was replaced (two-step verification going on does
 * that): a list read before then names tokens that are gone, so the list reads it afresh.
 */
export const tokenReplacements = $state({ count: 0 })

export class SignedInAppsModel {
  apps = $state.raw<SignedInApp[]>([])
  status = $state<'loading' | 'ready' | 'error'>('loading')
  /** Why the list could not be loaded. */
  error = $state<string | null>(null)
  /** Why the last sign-out was refused. */
  signOutError = $state<string | null>(null)
  /** Which app's sign-out is on its way. */
  signingOut = $state<string | null>(null)

  /** What could not be loaded for want of the service loads again by itself once it is back. */
  readonly #whenBack = new RetryWhenBack(() => {
    if (this.status === 'error') void this.load()
  })

  async load(): Promise<void> {
    this.#whenBack.cancel()
    this.status = 'loading'
    this.error = null
    try {
      this.apps = await call('security:signedInApps', {})
      this.status = 'ready'
    } catch (error) {
      this.status = 'error'
      this.error = messageOf(error)
      this.#whenBack.failed(error)
    }
  }

  async signOut(id: string): Promise<void> {
    if (this.signingOut !== null) return
    this.signingOut = id
    this.signOutError = null
    try {
      this.apps = await call('security:signOutApp', { id })
    } catch (error) {
      this.signOutError = messageOf(error)
      // Signed out already, elsewhere: the list as it now stands.
      if (codeOf(error) === 'NOT_FOUND') await this.#refresh()
    } finally {
      this.signingOut = null
    }
  }

  async #refresh(): Promise<void> {
    try {
      this.apps = await call('security:signedInApps', {})
    } catch {
      // The list stays as it was; the refusal is already shown.
    }
  }
}
