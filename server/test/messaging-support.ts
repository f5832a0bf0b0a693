import type { Client } from 'faye'
import { expect } from 'vitest'
import { Inbox, pushClient, subscribe, type Json, type TestService, type TestUser } from './support.js'

/** Helpers for the message, reaction and poll tests, on top of `support.ts`. */

/** MB2 + MB3: adds `user` to the group as an active member. */
export async function addMember(service: TestService, adder: TestUser, groupId: string, user: TestUser, nickname = user.name): Promise<void> {
  const add = await service.call('POST', `/v3/groups/${groupId}/members/add`, {
    token: adder.token,
    attest: true,
    body: { members: [{ user_id: user.id, nickname }] }
  })
  expect(add.status, add.text).toBe(202)
}

/** G6 as the owner. */
export async function updateGroup(service: TestService, owner: TestUser, groupId: string, body: Record<string, unknown>): Promise<Json> {
  const result = await service.call('POST', `/v3/groups/${groupId}/update`, { token: owner.token, body })
  expect(result.status, result.text).toBe(200)
  return result.body.response
}

/** MB9: makes `user` an admin of the group. */
export async function makeAdmin(service: TestService, owner: TestUser, groupId: string, user: TestUser): Promise<void> {
  const group = await service.call('GET', `/v3/groups/${groupId}`, { token: owner.token })
  const member = (group.body.response.members as Json[]).find((m) => m.user_id === user.id)
  const result = await service.call('POST', `/v3/groups/${groupId}/members/${member.id}/update`, { token: owner.token, body: { role: 'admin' } })
  expect(result.status, result.text).toBe(200)
}

/** A group owned by `owner` with `others` as members. */
export async function groupWith(service: TestService, owner: TestUser, others: TestUser[], body: Record<string, unknown> = {}): Promise<string> {
  const id = (await service.createGroup(owner, { name: 'Group', ...body })).id as string
  for (const user of others) await addMember(service, owner, id, user)
  return id
}

export const chatIdOf = (a: TestUser, b: TestUser): string => [a.id, b.id].sort((x, y) => Number(x) - Number(y)).join('+')
export const dmChannelOf = (a: TestUser, b: TestUser): string => `/direct_message/${chatIdOf(a, b).replace('+', '_')}`

/** MS1, newest first, up to 100; `[]` on 304. */
export async function groupMessages(service: TestService, viewer: TestUser, groupId: string): Promise<Json[]> {
  const result = await service.call('GET', `/v3/groups/${groupId}/messages`, { token: viewer.token, query: { limit: '100' } })
  if (result.status === 304) return []
  expect(result.status).toBe(200)
  return result.body.response.messages
}

/** Seconds the service clock is ahead of real time. */
export async function clockOffset(service: TestService): Promise<number> {
  return (await service.advanceClock(0)) - Math.floor(Date.now() / 1000)
}

/** A push listener: a faye client subscribed to `channels`, collecting into one inbox. */
export interface Listener {
  inbox: Inbox
  client: Client
  close(): void
}

export async function listen(service: TestService, user: TestUser, channels: string[]): Promise<Listener> {
  const client = pushClient(service, user.token, { timestampOffset: await clockOffset(service) })
  const inbox = new Inbox()
  for (const channel of channels) await subscribe(client, channel, inbox)
  return { inbox, client, close: () => client.disconnect() }
}

/** Waits for a delivery on `channel` of event `type` matching `predicate`. */
export async function waitEvent(
  listener: Listener,
  channel: string,
  type: string,
  predicate: (data: Json) => boolean = () => true,
  timeoutMs = 5000
): Promise<Json> {
  const item = await listener.inbox.waitFor((i) => i.channel === channel && i.data?.type === type && predicate(i.data), timeoutMs)
  return item.data
}

/** Deliveries so far on `channel` of event `type` matching `predicate`. */
export function eventsOf(listener: Listener, channel: string, type: string, predicate: (data: Json) => boolean = () => true): Json[] {
  return listener.inbox.received.filter((i) => i.channel === channel && i.data?.type === type && predicate(i.data)).map((i) => i.data)
}

/** Lets pending pushes arrive. */
export const settle = (ms = 150): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms))

/** The §14.5 system-message shape (besides the event). */
export function expectSystemMessage(message: Json, event: { type: string; data: unknown }): void {
  expect(message).toMatchObject({
    id: expect.stringMatching(/^[1-9][0-9]{17}$/),
    user_id: 'system',
    sender_id: 'system',
    sender_type: 'system',
    system: true,
    name: 'System',
    avatar_url: null,
    source_guid: expect.stringMatching(/^[0-9a-f]{32}$/),
    event
  })
}
