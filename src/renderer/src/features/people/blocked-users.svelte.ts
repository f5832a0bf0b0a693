// Whom the user blocks (B1), as Settings lists them, and unblocking from there (B4).
import type { BlockedUser } from '@shared/people'
import { call, messageOf } from '$lib/main-process'
import { Loadable } from '$lib/state/loadable.svelte'

export class BlockedUsersModel {
  readonly users = new Loadable<BlockedUser[]>({ initial: [], fetch: () => call('people:blocked', {}) })
  /** Why the last unblock was refused. */
  unblockError = $state<string | null>(null)
  /** Whose unblock is on its way. */
  unblocking = $state<string | null>(null)

  async unblock(userId: string): Promise<void> {
    if (this.unblocking !== null) return
    this.unblocking = userId
    this.unblockError = null
    try {
      await call('people:unblock', { userId })
      this.users.edit((users) => users.filter((user) => user.id !== userId))
    } catch (error) {
      this.unblockError = messageOf(error)
    } finally {
      this.unblocking = null
    }
  }
}
