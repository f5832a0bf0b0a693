// The groups the user left (G2), latest first, and going back into one (G9).
import type { ConversationId } from '../../../../shared/conversation-id'
import type { Conversation } from '../../../../shared/conversations'
import type { FormerGroup } from '../../../../shared/groups'
import { call, messageOf } from '../main-process'
import { RetryWhenBack } from '../retry-when-back'

export class FormerGroupsModel {
  groups = $state<FormerGroup[]>([])
  status = $state<'idle' | 'loading' | 'ready' | 'error'>('idle')
  error = $state<string | null>(null)
  /** The group being rejoined. */
  rejoining = $state<ConversationId | null>(null)

  /** What could not be loaded for want of the service loads again by itself once it is back. */
  readonly #whenBack = new RetryWhenBack(() => {
    if (this.status === 'error') void this.load()
  })

  async load(): Promise<void> {
    this.#whenBack.cancel()
    this.status = 'loading'
    this.error = null
    try {
      this.groups = await call('groups:former', {})
      this.status = 'ready'
    } catch (error) {
      this.status = 'error'
      this.error = messageOf(error)
      this.#whenBack.failed(error)
    }
  }

  /** Resolves with the group once the user is back in it, or null when the service refused. */
  async rejoin(groupId: ConversationId): Promise<Conversation | null> {
    if (this.rejoining !== null) return null
    this.rejoining = groupId
    this.error = null
    try {
      const conversation = await call('groups:rejoin', { groupId })
      this.groups = this.groups.filter((group) => group.id !== groupId)
      return conversation
    } catch (error) {
      this.error = messageOf(error)
      return null
    } finally {
      this.rejoining = null
    }
  }
}
