// Whom the user blocks (B1), as Settings lists them, and unblocking from there (B4).
import type { BlockedUser } from '../../../../shared/people'
import { call, messageOf } from '../main-process'
import { RetryWhenBack } from '../retry-when-back'

export class BlockedUsersModel {
  users = $state.raw<BlockedUser[]>([])
  status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle')
  /** Why the list could not be loaded. */
  error = $state<string | null>(null)
  /** Why the last unblock was refused. */
  unblockError = $state<string | null>(null)
  /** Whose unblock is on its way. */
  unblocking = $state<string | null>(null)

  /** What could not be loaded for want of the service loads again by itself once it is back. */
  readonly #whenBack = new RetryWhenBack(() => {
    if (this.status === 'error') void this.load()
  })

  async load(): Promise<void> {
    this.#whenBack.cancel()
    this.status = 'loading'
    this.error = null
    try {
      this.users = await call('people:blocked', {})
      this.status = 'ready'
    } catch (error) {
      this.status = 'error'
      this.error = messageOf(error)
      this.#whenBack.failed(error)
    }
  }

  async unblock(userId: string): Promise<void> {
    if (this.unblocking !== null) return
    this.unblocking = userId
    this.unblockError = null
    try {
      await call('people:unblock', { userId })
      this.users = this.users.filter((user) => user.id !== userId)
    } catch (error) {
      this.unblockError = messageOf(error)
    } finally {
      this.unblocking = null
    }
  }
}
