// Settings ▸ Security ▸ Two-step verification: its state (on or off, and the phone's hint), turning
// it on (a code texted to the phone, then confirmed), off, and new backup codes. A backup code is
// shown once: it stays here until the user says they stored it, and is never asked for again.
import type { Account, PhoneHint } from '@shared/account'
import { readTypedCode } from '@shared/verification-code'
import { call, codeOf, messageOf } from '$lib/main-process'
import { Loadable } from '$lib/state/loadable.svelte'
import { tokenReplacements } from './signed-in-apps.svelte'

/** Where the setup stands: a code is being asked for, waits to be typed, or is being confirmed. */
export type TwoStepSetup = 'idle' | 'starting' | 'awaitingCode' | 'confirming'

export interface ShownBackupCode {
  code: string
  /** Why it is shown: two-step verification just went on, or the user asked for a new one. */
  reason: 'enabled' | 'replaced'
}

/**
 * The backup code on show, kept apart from any one model: closing Settings or switching its tab
 * unmounts the section, and the code, shown only once, must still be there when it comes back.
 * It names its account, so a later sign-in as someone else never sees it.
 */
const shown = $state<{ backupCode: (ShownBackupCode & { accountId: string }) | null }>({ backupCode: null })

/** Drops the backup code on show without a model: for tests, which share this module between cases. */
export function forgetShownBackupCode(): void {
  shown.backupCode = null
}

export class TwoStepModel {
  /** On or off, and the phone's hint; one that could not be loaded for want of the service loads again once it is back. */
  readonly twoStep = new Loadable<Account['twoStep']>({
    initial: { enabled: false, phoneHint: null },
    status: 'loading',
    fetch: async () => {
      const account = await call('account:get', {})
      this.#accountId = account.id
      if (shown.backupCode?.accountId !== account.id) shown.backupCode = null
      return account.twoStep
    },
    describe: (error) => `Two-step verification could not be loaded. ${messageOf(error)}`,
    whenBack: () => void this.load()
  })
  setup = $state<TwoStepSetup>('idle')
  /** The hint of the phone the code went to, while the setup waits for it. */
  sentTo = $state<PhoneHint | null>(null)
  code = $state('')
  /** Why the code typed was not accepted. */
  codeProblem = $state<string | null>(null)
  #accountId: string | null = null
  /** Turning off, or asking for a new backup code, is on its way. */
  busy = $state(false)
  /** Why the last step failed. */
  error = $state<string | null>(null)

  async load(): Promise<void> {
    this.error = null
    await this.twoStep.load()
  }

  /** M2 and V2: a code goes to the account's phone. */
  async begin(): Promise<void> {
    if (this.setup !== 'idle' || this.twoStep.value.enabled) return
    this.setup = 'starting'
    this.error = null
    this.codeProblem = null
    this.code = ''
    try {
      const { phoneHint } = await call('security:beginTwoStep', {})
      this.sentTo = phoneHint
      this.setup = 'awaitingCode'
    } catch (error) {
      this.setup = 'idle'
      this.error = `Two-step verification could not be turned on. ${messageOf(error)}`
    }
  }

  /** V3, M3 and M4; answers whether two-step verification is now on. */
  async confirm(): Promise<boolean> {
    if (this.setup !== 'awaitingCode') return false
    if (this.code.trim() === '') {
      this.codeProblem = 'Type the code we sent to your phone.'
      return false
    }
    // A code that is not six digits would spend one of the five attempts for nothing.
    const typed = readTypedCode(this.code, 'sms')
    if ('problem' in typed) {
      this.codeProblem = typed.problem
      return false
    }
    const { code } = typed
    this.setup = 'confirming'
    this.codeProblem = null
    this.error = null
    try {
      const confirmation = await call('security:confirmTwoStep', { code })
      if (confirmation.status === 'wrongCode') {
        this.#wrongCode(confirmation.remainingAttempts)
        return false
      }
      this.twoStep.set(confirmation.account.twoStep)
      this.#show({ code: confirmation.backupCode, reason: 'enabled' }, confirmation.account.id)
      tokenReplacements.count += 1
      this.#endSetup()
      return true
    } catch (error) {
      const code = codeOf(error)
      if (code === 'VALIDATION' || code === 'NOT_FOUND') {
        // Main has already dropped the setup (the code expired, or it was never there): start afresh.
        this.#endSetup()
        this.error = messageOf(error)
        void call('security:cancelTwoStep', {}).catch(() => undefined)
        return false
      }
      // The service could not be reached, or a step after the code failed: main keeps the setup and
      // resumes from the failed step, so the typed code stays and Confirm tries again.
      this.setup = 'awaitingCode'
      this.codeProblem = messageOf(error)
      return false
    }
  }

  async cancel(): Promise<void> {
    this.#endSetup()
    try {
      await call('security:cancelTwoStep', {})
    } catch {
      // Nothing to undo: an unconfirmed setup expires on the service by itself.
    }
  }

  /** M5. */
  async disable(): Promise<void> {
    if (this.busy) return
    this.busy = true
    this.error = null
    try {
      this.twoStep.set((await call('security:disableTwoStep', {})).twoStep)
      shown.backupCode = null
    } catch (error) {
      this.error = `Two-step verification could not be turned off. ${messageOf(error)}`
    } finally {
      this.busy = false
    }
  }

  /** M1: the old backup code stops working. */
  async newBackupCode(): Promise<void> {
    if (this.busy) return
    this.busy = true
    this.error = null
    try {
      const { backupCode } = await call('security:newBackupCode', {})
      this.#show({ code: backupCode, reason: 'replaced' }, this.#accountId)
    } catch (error) {
      this.error = `No new backup code was made. ${messageOf(error)}`
    } finally {
      this.busy = false
    }
  }

  get backupCode(): ShownBackupCode | null {
    return shown.backupCode
  }

  /** The user stored the backup code: it is not shown again. */
  forgetBackupCode(): void {
    shown.backupCode = null
  }

  #show(backupCode: ShownBackupCode, accountId: string | null): void {
    shown.backupCode = accountId === null ? null : { ...backupCode, accountId }
  }

  #wrongCode(remainingAttempts: number): void {
    if (remainingAttempts > 0) {
      this.setup = 'awaitingCode'
      this.codeProblem = `That code is not right. ${remainingAttempts === 1 ? '1 attempt' : `${remainingAttempts} attempts`} left.`
      return
    }
    this.#endSetup()
    this.error = 'That code is not right, and no attempts are left. Turn two-step verification on again for a new code.'
  }

  #endSetup(): void {
    this.setup = 'idle'
    this.sentTo = null
    this.code = ''
    this.codeProblem = null
  }
}
