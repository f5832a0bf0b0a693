// Settings ▸ Security ▸ Signed-in apps: the account's live tokens (T1), each of which can be
// signed out (T2). Signing out the app in use ends this session: main says so, and the sign-in
// screen follows from the session's own event.
import type { SignedInApp } from '@shared/account'
import { call, codeOf, messageOf } from '$lib/main-process'
import { Loadable } from '$lib/state/loadable.svelte'

/**
 * Counts the times every token of the account was replaced (two-step verification going on does
 * that): a list read before then names tokens that are gone, so the list reads it afresh.
 */
export const tokenReplacements = $state({ count: 0 })

export class SignedInAppsModel {
  readonly apps = new Loadable<SignedInApp[]>({ initial: [], status: 'loading', fetch: () => call('security:signedInApps', {}) })
  /** Why the last sign-out was refused. */
  signOutError = $state<string | null>(null)
  /** Which app's sign-out is on its way. */
  signingOut = $state<string | null>(null)

  async signOut(id: string): Promise<void> {
    if (this.signingOut !== null) return
    this.signingOut = id
    this.signOutError = null
    try {
      this.apps.set(await call('security:signOutApp', { id }))
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
      this.apps.set(await call('security:signedInApps', {}))
    } catch {
      // The list stays as it was; the refusal is already shown.
    }
  }
}
