// Muting a group's notifications for the caller (docs/protocol.md §8). The mute is the account's,
// so it reaches the user's other devices and shows in the group's `members[].muted`.
import { muteEnvelope, type WireMute } from './decoders'
import { path, type ServiceClient } from './service-client'

/** MU1: for `minutes` (1–525 600), or with no end when null. */
export async function muteGroup(client: ServiceClient, groupId: string, minutes: number | null): Promise<WireMute> {
  const answer = await client.call({
    operation: 'MU1 mute group',
    method: 'POST',
    host: 'v2',
    path: path`/groups/${groupId}/memberships/mute`,
    body: { duration: minutes },
    schema: muteEnvelope
  })
  return answer.membership
}

/** MU2. */
export async function unmuteGroup(client: ServiceClient, groupId: string): Promise<WireMute> {
  const answer = await client.call({
    operation: 'MU2 unmute group',
    method: 'POST',
    host: 'v2',
    path: path`/groups/${groupId}/memberships/unmute`,
    schema: muteEnvelope
  })
  return answer.membership
}
