import type { Client } from 'faye'
import { expect } from 'vitest'
import { Inbox, pushClient, subscribe, type Json, type TestService, type TestUser } from './support.js'

/** Helpers for the groups, members and mutes tests, on top of `support.ts`. */

/** MB2 with attestation; returns the response. */
export async function addMembers(service: TestService, adder: TestUser, groupId: string, members: unknown[]): Promise<{ status: number; body: Json }> {
  return service.call('POST', `/v3/groups/${groupId}/members/add`, { token: adder.token, attest: true, body: { members } })
}

/** MB3 results of an add. */
export async function addResults(service: TestService, adder: TestUser, groupId: string, resultsId: string): Promise<{ status: number; body: Json }> {
  return service.call('GET', `/v3/groups/${groupId}/members/results/${resultsId}`, { token: adder.token })
}

/** Adds one user through MB2 and returns the new member (MB3). */
export async function addMember(service: TestService, adder: TestUser, groupId: string, user: TestUser, nickname = user.name): Promise<Json> {
  const add = await addMembers(service, adder, groupId, [{ user_id: user.id, nickname }])
  expect(add.status).toBe(202)
  const results = await addResults(service, adder, groupId, add.body.response.results_id)
  expect(results.status).toBe(200)
  expect(results.body.response.members).toHaveLength(1)
  return results.body.response.members[0]
}

/** G4 as `viewer`. */
export async function showGroup(service: TestService, viewer: TestUser, groupId: string): Promise<Json> {
  const result = await service.call('GET', `/v3/groups/${groupId}`, { token: viewer.token })
  expect(result.status).toBe(200)
  return result.body.response
}

/** The member entry of `user` in G4's `members`, or undefined. */
export async function memberOf(service: TestService, viewer: TestUser, groupId: string, user: TestUser): Promise<Json> {
  return (await showGroup(service, viewer, groupId)).members.find((m: Json) => m.user_id === user.id)
}

/** MS1 (newest first, up to 100), `[]` when the group has no messages. */
export async function groupMessages(service: TestService, viewer: TestUser, groupId: string): Promise<Json[]> {
  const result = await service.call('GET', `/v3/groups/${groupId}/messages`, { token: viewer.token, query: { limit: '100' } })
  if (result.status === 304) return []
  expect(result.status).toBe(200)
  return result.body.response.messages
}

/** The newest stored message of a group. */
export async function lastMessage(service: TestService, viewer: TestUser, groupId: string): Promise<Json> {
  return (await groupMessages(service, viewer, groupId))[0]
}

/** Seconds the service clock is ahead of real time (after `/dev/clock` jumps). */
export async function clockOffset(service: TestService): Promise<number> {
  return (await service.advanceClock(0)) - Math.floor(Date.now() / 1000)
}

/**
 * A faye client whose subscribe timestamps follow the service clock (§14.2 300 s window). Wrapped,
 * because a faye client is a thenable that `await` would wait on.
 */
export async function clientFor(service: TestService, user: TestUser): Promise<{ client: Client }> {
  return { client: pushClient(service, user.token, { timestampOffset: await clockOffset(service) }) }
}

/** A faye client subscribed to `/user/:id` of `user`, collecting into `inbox`. */
export async function watchUser(service: TestService, user: TestUser): Promise<{ inbox: Inbox; close: () => void }> {
  const { client } = await clientFor(service, user)
  const inbox = new Inbox()
  await subscribe(client, `/user/${user.id}`, inbox)
  return { inbox, close: () => client.disconnect() }
}

/**
 * Everything `inbox` receives while `action` runs, fenced by a direct message from `fence` to
 * the watched user (which always arrives last), so "nothing was pushed" can be asserted.
 */
export async function pushedDuring(
  service: TestService,
  inbox: Inbox,
  fence: { from: TestUser; to: TestUser },
  action: () => Promise<unknown>
): Promise<Json[]> {
  const start = inbox.received.length
  await action()
  const marker = `fence ${Math.random()}`
  await service.sendDirectMessage(fence.from, fence.to.id, marker)
  await inbox.waitFor((item) => item.data.type === 'direct_message.create' && item.data.subject.text === marker)
  return inbox.received
    .slice(start)
    .map((item) => item.data)
    .filter((data: Json) => !(data.type === 'direct_message.create' && data.subject.text === marker))
}

export const UPPER_UUID_V4 = /^[0-9A-F]{8}-[0-9A-F]{4}-4[0-9A-F]{3}-[89AB][0-9A-F]{3}-[0-9A-F]{12}$/
export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/
