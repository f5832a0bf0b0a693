// Main's core against the real local service for polls (PL1–PL6), typing both ways over push, and
// the names system messages carry.
import { randomUUID } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { startTestService, type TestService, type TestUser } from '../../server/test/support'
import { getGroup } from '../../src/main/api/groups'
import { localServiceConfig } from '../../src/main/api/service-config'
import { ServiceClient } from '../../src/main/api/service-client'
import { MEMBERS_FRESH_MS, pollGateway } from '../../src/main/service/polls'
import type { Poll } from '@shared/polls'
import { launchApp, signInThroughSms, testScope, type AppHarness } from '../support/app-harness'
import { tokenFrom } from '../support/memory-platform'

const { cleanups } = testScope()

interface Scene {
  service: TestService
  groupId: string
  grace: TestUser
  alan: TestUser
  graceApp: AppHarness
  alanApp: AppHarness
}

/** Grace owns a group with Alan in it; both are signed in with the group open. */
async function twoInAGroup(): Promise<Scene> {
  const service = await startTestService()
  cleanups.push(() => service.close())
  const grace = await service.signUp({ name: 'Grace' })
  const alan = await service.createUser({ name: 'Alan' })
  const group = await service.createGroup(grace, { name: 'Lunch club' })
  const groupId = String(group.id)
  await service.call('POST', `/v3/groups/${groupId}/members/add`, {
    token: grace.token,
    attest: true,
    body: { members: [{ user_id: alan.id, nickname: 'Alan' }] }
  })
  const graceApp = launchApp(service.origin, cleanups)
  const alanApp = launchApp(service.origin, cleanups)
  for (const [app, user] of [
    [graceApp, grace],
    [alanApp, alan]
  ] as const) {
    await signInThroughSms(app, service, user)
    await app.events.waitFor('conversations:changed', (list) => list.some((c) => c.id === groupId))
    await app.call('conversations:open', { conversationId: groupId })
  }
  return { service, groupId, grace, alan, graceApp, alanApp }
}

function inAnHour(): number {
  return Math.floor(Date.now() / 1000) + 3600
}

function counts(poll: Poll): Record<string, number> {
  return Object.fromEntries(poll.options.map((option) => [option.title, option.votes]))
}

describe('polls', () => {
  it('creates a poll whose message reaches both sides, takes and changes votes, names public voters, and ends it', async () => {
    const { groupId, grace, alan, graceApp, alanApp } = await twoInAGroup()

    const poll = await graceApp.call('polls:create', {
      conversationId: groupId,
      poll: { subject: ' Where to? ', options: ['Noodles', ' Tacos '], multiple: false, anonymous: false, expiresAt: inAnHour() }
    })
    expect(poll).toMatchObject({ subject: 'Where to?', ownerId: grace.id, ended: false, multiple: false, anonymous: false, myVotes: [], canEnd: true })
    expect(poll.options.map((option) => option.title)).toEqual(['Noodles', 'Tacos'])
    const carried = (message: { attachments: { type: string; pollId?: string }[] }): boolean =>
      message.attachments.some((attachment) => attachment.type === 'poll' && attachment.pollId === poll.id)
    await graceApp.events.waitFor('messages:received', carried)
    const seenByAlan = await alanApp.events.waitFor('messages:received', carried)
    expect(seenByAlan.event).toEqual({ kind: 'pollCreated', pollId: poll.id, subject: 'Where to?' })

    const noodles = poll.options[0]?.id ?? ''
    const tacos = poll.options[1]?.id ?? ''
    const voted = await alanApp.call('polls:vote', { conversationId: groupId, pollId: poll.id, optionIds: [noodles] })
    expect(voted.myVotes).toEqual([noodles])
    expect(voted.canEnd).toBe(false)
    const changed = await alanApp.call('polls:vote', { conversationId: groupId, pollId: poll.id, optionIds: [tacos] })
    expect(counts(changed)).toEqual({ Noodles: 0, Tacos: 1 })

    const seenByGrace = await graceApp.call('polls:get', { conversationId: groupId, pollId: poll.id })
    expect(counts(seenByGrace)).toEqual({ Noodles: 0, Tacos: 1 })
    expect(seenByGrace.options[1]?.voters).toEqual([{ id: alan.id, name: 'Alan' }])

    await expect(alanApp.call('polls:end', { conversationId: groupId, pollId: poll.id })).rejects.toMatchObject({ code: 'FORBIDDEN' })
    const ended = await graceApp.call('polls:end', { conversationId: groupId, pollId: poll.id })
    expect(ended).toMatchObject({ ended: true, canEnd: false })
    const finished = await alanApp.events.waitFor('messages:received', (message) => message.event?.kind === 'pollFinished')
    expect(finished).toMatchObject({ system: true, event: { kind: 'pollFinished', pollId: poll.id, subject: 'Where to?' } })
    await expect(alanApp.call('polls:vote', { conversationId: groupId, pollId: poll.id, optionIds: [noodles] })).rejects.toMatchObject({
      code: 'VALIDATION'
    })
  })

  it('keeps anonymous voters to themselves and takes several answers on a multiple-choice poll', async () => {
    const { groupId, graceApp, alanApp } = await twoInAGroup()
    const poll = await graceApp.call('polls:create', {
      conversationId: groupId,
      poll: { subject: 'Snacks', options: ['Crisps', 'Fruit', 'Nuts'], multiple: true, anonymous: true, expiresAt: inAnHour() }
    })
    const ids = poll.options.map((option) => option.id)
    const voted = await alanApp.call('polls:vote', { conversationId: groupId, pollId: poll.id, optionIds: [ids[0] ?? '', ids[2] ?? ''] })
    expect(counts(voted)).toEqual({ Crisps: 1, Fruit: 0, Nuts: 1 })
    expect(voted.options.flatMap((option) => option.voters)).toEqual([])
  })

  it('refuses a poll with one option, an empty question or a past expiry before asking the service', async () => {
    const { groupId, graceApp } = await twoInAGroup()
    const poll = { subject: 'Yes?', options: ['Yes'], multiple: false, anonymous: false, expiresAt: inAnHour() }
    await expect(graceApp.call('polls:create', { conversationId: groupId, poll })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'A poll needs at least 2 options.'
    })
    await expect(graceApp.call('polls:create', { conversationId: groupId, poll: { ...poll, subject: ' ', options: ['a', 'b'] } })).rejects.toMatchObject({
      message: 'Write a question for the poll.'
    })
    await expect(
      graceApp.call('polls:create', { conversationId: groupId, poll: { ...poll, options: ['a', 'b'], expiresAt: Math.floor(Date.now() / 1000) - 1 } })
    ).rejects.toMatchObject({ message: 'Choose when the poll ends, in the future.' })
    expect((await graceApp.call('polls:list', { conversationId: groupId, next: null })).polls).toEqual([])
  })

  it('lists the polls ten to a page, newest first, and marks one past its expiry as ended', async () => {
    const { service, groupId, graceApp, alanApp } = await twoInAGroup()
    for (let n = 1; n <= 11; n += 1) {
      await graceApp.call('polls:create', {
        conversationId: groupId,
        poll: { subject: `Poll ${n}`, options: ['a', 'b'], multiple: false, anonymous: false, expiresAt: inAnHour() }
      })
    }
    const first = await alanApp.call('polls:list', { conversationId: groupId, next: null })
    expect(first.polls.map((poll) => poll.subject)).toEqual(Array.from({ length: 10 }, (_, i) => `Poll ${11 - i}`))
    expect(first.next).not.toBeNull()
    const second = await alanApp.call('polls:list', { conversationId: groupId, next: first.next })
    expect(second).toMatchObject({ polls: [{ subject: 'Poll 1' }], next: null })
    await expect(alanApp.call('polls:list', { conversationId: groupId, next: 'not-a-token' })).rejects.toMatchObject({ code: 'VALIDATION' })

    await service.advanceClock(2 * 3600)
    const finished = await alanApp.events.waitFor('messages:received', (message) => message.event?.kind === 'pollFinished')
    const after = await alanApp.call('polls:get', { conversationId: groupId, pollId: finished.event?.kind === 'pollFinished' ? finished.event.pollId : '' })
    expect(after.ended).toBe(true)
  })

  it('keeps polls to groups', async () => {
    const { service, grace, alan, graceApp } = await twoInAGroup()
    await service.sendDirectMessage(grace, alan.id, 'hello')
    const list = await graceApp.events.waitFor('conversations:changed', (all) => all.some((c) => c.kind === 'dm'))
    const chat = list.find((c) => c.kind === 'dm')?.id ?? ''
    await expect(graceApp.call('polls:list', { conversationId: chat, next: null })).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'Polls are for groups only.'
    })
  })
})

describe('typing', () => {
  it("tells the others who is typing, by their nickname, at most every 5 s, and not the typist themself", async () => {
    const { groupId, grace, graceApp, alanApp } = await twoInAGroup()
    await graceApp.call('typing:typed', { conversationId: groupId })
    const typist = await alanApp.events.waitFor('typing:received')
    expect(typist).toMatchObject({ conversationId: groupId, userId: grace.id, name: 'Grace' })

    await graceApp.call('typing:typed', { conversationId: groupId })
    await alanApp.call('typing:typed', { conversationId: groupId })
    await graceApp.events.waitFor('typing:received')
    // Grace's second keystroke within 5 s went nowhere: Alan has heard her once, and she never hears herself.
    expect(alanApp.events.all('typing:received')).toHaveLength(1)
    expect(graceApp.events.all('typing:received').map((t) => t.name)).toEqual(['Alan'])
  })

  it("tells them again at the first keystroke after the typist's message lands, which stopped their typing", async () => {
    const { groupId, graceApp, alanApp } = await twoInAGroup()
    await graceApp.call('typing:typed', { conversationId: groupId })
    await alanApp.events.waitFor('typing:received')
    await graceApp.call('messages:send', { conversationId: groupId, text: 'On my way', clientId: randomUUID() })
    await graceApp.events.waitFor('messages:received', (message) => message.text === 'On my way')
    await alanApp.events.waitFor('messages:received', (message) => message.text === 'On my way')

    // Well inside 5 s of the first: before the message, this keystroke would have gone nowhere.
    await graceApp.call('typing:typed', { conversationId: groupId })
    await alanApp.events.waitFor('typing:received', () => true, 3_000, 1)
    expect(alanApp.events.all('typing:received')).toHaveLength(2)
  })
})

describe('system messages', () => {
  it('carry the names of the people they are about', async () => {
    const { service, groupId, grace, alanApp } = await twoInAGroup()
    const ada = await service.createUser({ name: 'Ada' })
    await service.call('POST', `/v3/groups/${groupId}/members/add`, {
      token: grace.token,
      attest: true,
      body: { members: [{ user_id: ada.id, nickname: 'Countess' }] }
    })
    const added = await alanApp.events.waitFor('messages:received', (message) => message.event?.kind === 'added')
    expect(added.event).toEqual({ kind: 'added', users: ['Countess'], by: 'Grace' })
  })
})

describe("a group's members, read for its polls", () => {
  it('are read once for 30 s of poll calls, then again, and again at once after a failed reading', async () => {
    const service = await startTestService()
    cleanups.push(() => service.close())
    const grace = await service.signUp({ name: 'Grace' })
    const groupId = String((await service.createGroup(grace, { name: 'Lunch club' })).id)
    const client = new ServiceClient({ config: localServiceConfig(service.origin), getToken: () => tokenFrom(localServiceConfig(service.origin), grace.token) })
    let clock = Date.now()
    let readings = 0
    let failNext = false
    const polls = pollGateway({
      client,
      meId: () => grace.id,
      group: async (id) => {
        readings += 1
        if (failNext) {
          failNext = false
          throw new Error('the service is out of reach')
        }
        return getGroup(client, id)
      },
      now: () => clock
    })
    const { poll } = await polls.createPoll(groupId, { subject: 'Where to?', options: ['a', 'b'], multiple: false, anonymous: false, expiresAt: Math.floor(clock / 1000) + 3600 })
    expect(poll.canEnd).toBe(true)
    await polls.poll(groupId, poll.id)
    clock += MEMBERS_FRESH_MS - 1
    await polls.polls(groupId, null)
    expect(readings).toBe(1)

    clock += 1
    failNext = true
    await expect(polls.poll(groupId, poll.id)).rejects.toThrow('the service is out of reach')
    await polls.poll(groupId, poll.id)
    expect(readings).toBe(3)
  })
})
