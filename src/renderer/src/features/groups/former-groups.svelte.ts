// The groups the user left (G2), latest first, and going back into one (G9).
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { FormerGroup } from '@shared/groups'
import { call, messageOf } from '$lib/main-process'
import { Loadable } from '$lib/state/loadable.svelte'

export class FormerGroupsModel {
  readonly groups = new Loadable<FormerGroup[]>({ initial: [], fetch: () => call('groups:former', {}) })
  /** Why the last rejoin was refused. */
  rejoinError = $state<string | null>(null)
  /** The group being rejoined. */
  rejoining = $state<ConversationId | null>(null)

  /** Resolves with the group once the user is back in it, or null when the service refused. */
  async rejoin(groupId: ConversationId): Promise<Conversation | null> {
    if (this.rejoining !== null) return null
    this.rejoining = groupId
    this.rejoinError = null
    try {
      const conversation = await call('groups:rejoin', { groupId })
      this.groups.edit((groups) => groups.filter((group) => group.id !== groupId))
      return conversation
    } catch (error) {
      this.rejoinError = messageOf(error)
      return null
    } finally {
      this.rejoining = null
    }
  }
}
