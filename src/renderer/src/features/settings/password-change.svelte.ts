// Settings ▸ Security ▸ Password (P1). On success main ends every session, this one too, and the
// sign-in screen says why; a refusal is kept at the field it is about, with nothing typed lost.
import { newPasswordProblem } from '@shared/profile-rules'
import { call, codeOf, messageOf } from '$lib/main-process'

export type PasswordField = 'current' | 'next' | 'repeat'

export class PasswordChangeModel {
  current = $state('')
  next = $state('')
  repeat = $state('')
  problems = $state<Partial<Record<PasswordField, string>>>({})
  /** Why the change failed for no field's fault (the service out of reach, say). */
  error = $state<string | null>(null)
  busy = $state(false)

  /** The user typed in a field: its old refusal no longer applies. */
  edited(field: PasswordField): void {
    if (this.problems[field] === undefined) return
    const { [field]: _solved, ...others } = this.problems
    this.problems = others
  }

  /** Asks for the change; answers the first field refused, for focus to go to, or null. */
  async change(): Promise<PasswordField | null> {
    if (this.busy) return null
    this.error = null
    const problems: Partial<Record<PasswordField, string>> = {}
    if (this.current === '') problems.current = 'Write your current password.'
    const nextProblem = newPasswordProblem(this.next)
    if (nextProblem !== null) problems.next = nextProblem
    else if (this.repeat !== this.next) problems.repeat = 'This is not the same as the new password.'
    this.problems = problems
    const first = (['current', 'next', 'repeat'] as const).find((field) => problems[field] !== undefined)
    if (first !== undefined) return first
    this.busy = true
    try {
      await call('account:changePassword', { current: this.current, next: this.next })
      return null
    } catch (error) {
      if (codeOf(error) === 'FORBIDDEN') {
        this.problems = { current: messageOf(error) }
        return 'current'
      }
      this.error = `Your password was not changed. ${messageOf(error)}`
      return null
    } finally {
      this.busy = false
    }
  }
}
