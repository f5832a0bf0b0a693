// The conversation list (G1 and C1, every page) and muting a group on the service (MU1, MU2) as core
// asks for them (core/ports.ts ConversationService, GroupMuteService), in the app's shapes.
import type { Conversation } from '@shared/conversations'
import { listChats } from '../api/chats'
import type { WireGroup } from '../api/decoders'
import { listGroups } from '../api/groups'
import { muteGroup, unmuteGroup } from '../api/mutes'
import type { ServiceClient } from '../api/service-client'
import { chatToConversation } from '../api/to-domain'
import type { ConversationService, GroupMuteService } from '../core/ports'
import { everyPage, LIST_PAGE_SIZE } from './every-page'
import { groupConversations } from './groups'

/** MU1's longest timed mute, a year in minutes (§8). */
const MAX_MUTE_MINUTES = 525_600

export interface ConversationGatewayOptions {
  client: ServiceClient
  meId: () => string
}

/** Every group the user is in, with members (a group has at most 5000). */
export function everyGroup(client: ServiceClient): Promise<WireGroup[]> {
  return everyPage((page) => listGroups(client, { page, perPage: LIST_PAGE_SIZE }))
}

export function conversationGateway({ client, meId }: ConversationGatewayOptions): Pick<ConversationService, 'listConversations'> & GroupMuteService {
  return {
    async listConversations() {
      const me = meId()
      const [groups, chats] = await Promise.all([
        // With members: the caller's own entry is the only place the service shows their mute of a
        // group (made on any device) and their nickname there.
        everyGroup(client),
        everyPage((page) => listChats(client, { page, perPage: LIST_PAGE_SIZE }))
      ])
      const conversations: Conversation[] = [...(await groupConversations(client, groups, me)), ...chats.map((chat) => chatToConversation(chat, me))]
      return conversations
    },
    async muteGroup(groupId, durationMs) {
      await muteGroup(client, groupId, durationMs === null ? null : muteMinutes(durationMs))
    },
    async unmuteGroup(groupId) {
      await unmuteGroup(client, groupId)
    }
  }
}

/**
 * MU1's duration for a mute of `durationMs`: the service counts whole minutes, so rounded up (its
 * mute never ends before the one promised), from one minute to its longest.
 */
export function muteMinutes(durationMs: number): number {
  return Math.min(Math.max(Math.ceil(durationMs / 60_000), 1), MAX_MUTE_MINUTES)
}
