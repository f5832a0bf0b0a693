// Polls in groups (docs/protocol.md §13, the data D of §15.6).
import { z } from 'zod'
import { displayName, optionalText, unixSeconds, wireId, wireMessage, type WireMessage } from './decoders'
import { path, type ServiceClient } from './service-client'

const wirePollOption = z.looseObject({
  id: wireId,
  title: displayName,
  // Left out at 0 (§15.6).
  votes: z.number().int().nonnegative().nullish().catch(null),
  voter_ids: z.array(wireId).nullish().catch(null)
})

const wirePollData = z.looseObject({
  id: wireId,
  subject: displayName,
  owner_id: wireId,
  conversation_id: wireId,
  expiration: unixSeconds,
  status: optionalText,
  type: optionalText,
  visibility: optionalText,
  options: z.array(wirePollOption)
})

const wirePoll = z.looseObject({
  data: wirePollData,
  user_votes: z.array(wireId).nullish().catch(null)
})
export type WirePoll = z.infer<typeof wirePoll>

const pollEnvelope = z.looseObject({ poll: wirePoll }).transform((value) => value.poll)

export interface PollCreation {
  subject: string
  options: string[]
  /** Unix seconds. */
  expiration: number
  type: 'single' | 'multi'
  visibility: 'anonymous' | 'public'
}

/** PL1: the poll and the message that carries it into the group. */
export function createPoll(client: ServiceClient, groupId: string, poll: PollCreation): Promise<{ poll: WirePoll; message: WireMessage }> {
  return client.call({
    operation: 'PL1 create poll',
    method: 'POST',
    host: 'base',
    path: path`/poll/${groupId}`,
    body: { ...poll, options: poll.options.map((title) => ({ title })) },
    schema: z.looseObject({ poll: wirePoll, message: wireMessage })
  })
}

/** PL2. */
export function getPoll(client: ServiceClient, groupId: string, pollId: string): Promise<WirePoll> {
  return client.call({ operation: 'PL2 show poll', method: 'GET', host: 'base', path: path`/poll/${groupId}/${pollId}`, schema: pollEnvelope })
}

/** PL4: replaces the caller's earlier votes; exactly one option on a single-choice poll. */
export function votePoll(client: ServiceClient, groupId: string, pollId: string, optionIds: string[]): Promise<WirePoll> {
  return client.call({
    operation: 'PL4 vote',
    method: 'POST',
    host: 'base',
    path: path`/poll/${groupId}/${pollId}`,
    body: { votes: optionIds },
    schema: pollEnvelope
  })
}

/** PL5: for the poll's owner or an admin of the group. */
export function endPoll(client: ServiceClient, groupId: string, pollId: string): Promise<WirePoll> {
  return client.call({ operation: 'PL5 end poll', method: 'POST', host: 'base', path: path`/poll/${groupId}/${pollId}/end`, schema: pollEnvelope })
}

/** PL6: 10 a page, newest first. */
export function listPolls(client: ServiceClient, groupId: string, continuationToken: string | null): Promise<{ polls: WirePoll[]; next: string | null }> {
  return client.call({
    operation: 'PL6 list polls',
    method: 'GET',
    host: 'base',
    path: path`/poll/${groupId}`,
    query: { continuation_token: continuationToken },
    schema: z
      .looseObject({ polls: z.array(wirePoll), continuation_token: z.string().nullish().catch(null) })
      .transform((value) => ({ polls: value.polls, next: value.continuation_token ?? null }))
  })
}
