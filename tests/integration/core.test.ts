// Main's core against the real local service: sign-in through the SMS pin, push, the outbox across
// a service restart, and the way back to sign-in when the service refuses the token.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import type { TestService } from '../../server/test/support'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import type { SessionState } from '@shared/session'
import { launchApp, signInThroughSms, testScope, type AppHarness, type LaunchOptions } from '../support/app-harness'

const { cleanups, service: serviceFor } = testScope()

/**
 * A service on a file database that a test can stop and start again on the same port, as a
 * deployment restarts; the app keeps the addresses it was given.
 */
async function restartableService(): Promise<{ service: TestService; restart(): Promise<TestService> }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'parley-core-'))
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }))
  const db = join(dataDir, 'service.db')
  const first = await serviceFor({ db })
  const port = Number(new URL(first.origin).port)
  return { service: first, restart: () => serviceFor({ db, port }) }
}

const launch = (origin: string, options: LaunchOptions = {}): AppHarness => launchApp(origin, cleanups, options)

describe('signing in', () => {
  it('goes through the SMS pin, counts down wrong codes, and keeps the session for the next start', async () => {
    const service = await serviceFor()
    const user = await service.createUser({ name: 'Ada' })
    const app = launch(service.origin)
    await app.core.start()
    expect(await app.call('session:get', {})).toEqual({ status: 'signedOut', notice: null })

    const challenge = await app.call('session:signIn', { username: user.email, password: user.password })
    expect(challenge).toEqual({ status: 'verificationRequired', challenge: { smsHint: user.phoneNumber.slice(-2) } })
    expect(await app.call('session:sendCode', {})).toEqual({ smsHint: user.phoneNumber.slice(-2) })
    const pin = await service.lastPin(user.phoneNumber)
    const wrongPin = pin === '000000' ? '111111' : '000000'
    expect(await app.call('session:confirmCode', { code: wrongPin })).toEqual({ status: 'wrongCode', remainingAttempts: 4 })

    const signedIn = await app.call('session:confirmCode', { code: pin })
    expect(signedIn).toEqual({ status: 'signedIn', me: { id: user.id, name: 'Ada', avatarUrl: null } })
    expect(app.vault.token).toMatch(/^[A-Za-z0-9]{40}$/)

    const nextRun = launch(service.origin, { vault: app.vault, preferences: app.preferences })
    await nextRun.core.start()
    expect(await nextRun.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: user.id } })
  })

  it('says so when the password is wrong', async () => {
    const service = await serviceFor()
    const user = await service.createUser()
    const app = launch(service.origin)
    await expect(app.call('session:signIn', { username: user.email, password: 'not it at all' })).rejects.toMatchObject({
      code: 'UNAUTHENTICATED',
      message: 'Wrong username or password.'
    })
  })

  it('returns to sign-in with a clear message when the service revokes the token', async () => {
    const service = await serviceFor()
    const user = await service.createUser()
    const app = launch(service.origin)
    await signInThroughSms(app, service, user)
    const revoked = await service.call('POST', '/v2/access_tokens/current/destroy', { token: app.vault.token ?? '' })
    expect(revoked.status).toBe(200)

    await app.core.start()
    const ended = await app.events.waitFor('session:changed', (state: SessionState) => state.status === 'signedOut')
    expect(ended).toEqual({ status: 'signedOut', notice: 'Your session has ended. Please sign in again.' })
    expect(app.vault.token).toBeNull()
  })

  it('signs out by destroying the token on the service', async () => {
    const service = await serviceFor()
    const user = await service.createUser()
    const app = launch(service.origin)
    await signInThroughSms(app, service, user)
    const token = app.vault.token ?? ''
    await app.call('session:signOut', {})
    expect(await app.call('session:get', {})).toEqual({ status: 'signedOut', notice: null })
    expect((await service.call('GET', '/v3/users/me', { token })).status).toBe(401)
  })
})

describe('live messages', () => {
  it('receives a pushed direct message, counts it unread and notifies while the window is in the background', async () => {
    const service = await serviceFor()
    const ada = await service.createUser({ name: 'Ada' })
    const bea = await service.signUp({ name: 'Bea' })
    const app = launch(service.origin)
    await signInThroughSms(app, service, ada)
    await service.sendDirectMessage(bea, ada.id, 'first, to start the chat')
    await app.events.waitFor('conversations:changed', (list) => list.length === 1)
    app.window.focused = false

    await service.sendDirectMessage(bea, ada.id, 'are you there?')

    const received = await app.events.waitFor('messages:received', (message) => message.text === 'are you there?')
    const chatId = [ada.id, bea.id].sort((a, b) => Number(a) - Number(b)).join('+')
    expect(received).toMatchObject({ conversationId: chatId, senderId: bea.id, senderName: 'Bea', system: false })
    const list = await app.events.waitFor('conversations:changed', (conversations) => conversations[0]?.unreadCount === 2)
    expect(list[0]).toMatchObject({ id: chatId, kind: 'dm', name: 'Bea', preview: { text: 'are you there?' } })
    // The chat's first message was news too (nothing was open): one notification stands for both.
    expect(app.notifier.shown.at(-1)).toMatchObject({ key: chatId, title: 'Bea', body: '2 new messages' })

    app.notifier.shown.at(-1)?.onClick()
    expect(app.window.revealed).toBe(1)
    expect(app.events.all('conversations:focus')).toEqual([{ conversationId: chatId }])

    const opened = await app.call('conversations:open', { conversationId: chatId })
    expect(opened.messages.map((message) => message.text)).toEqual(['first, to start the chat', 'are you there?'])
    expect(opened.conversation.unreadCount).toBe(0)
  })

  it('hands a pushed message to the renderer before the list and the badge it changes', async () => {
    const service = await serviceFor()
    const ada = await service.createUser({ name: 'Ada' })
    const bea = await service.signUp({ name: 'Bea' })
    const group = await service.createGroup(bea, { name: 'Climbing' })
    await service.call('POST', `/v3/groups/${group.id}/members/add`, {
      token: bea.token,
      attest: true,
      body: { members: [{ user_id: ada.id, nickname: 'Ada' }] }
    })
    const app = launch(service.origin)
    await signInThroughSms(app, service, ada)
    await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === group.id))
    await app.call('conversations:open', { conversationId: group.id })

    await service.sendGroupMessage(bea, group.id, 'first in line')

    await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.preview?.text === 'first in line'))
    const order = app.events.log
      .filter(({ event, payload }) =>
        event === 'messages:received'
          ? (payload as Message).text === 'first in line'
          : event === 'conversations:changed' && (payload as Conversation[]).some((conversation) => conversation.preview?.text === 'first in line')
      )
      .map(({ event }) => event)
    expect(order[0]).toBe('messages:received')
  })

  it('sends a group message once and shows it once, though push echoes it back', async () => {
    const service = await serviceFor()
    const ada = await service.signUp({ name: 'Ada' })
    const group = await service.createGroup(ada, { name: 'Climbing' })
    const app = launch(service.origin)
    await signInThroughSms(app, service, ada)
    await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === group.id))
    await app.call('conversations:open', { conversationId: group.id })

    const pending = await app.call('messages:send', { conversationId: group.id, text: 'hello climbers', clientId: 'client-0001' })
    expect(pending).toMatchObject({ clientId: 'client-0001', state: 'sending' })
    await app.events.waitFor('outbox:changed', (change) => change.conversationId === group.id && change.pending.length === 0)
    await new Promise((resolve) => setTimeout(resolve, 300)) // room for the push echo to arrive

    expect(app.events.all('messages:received').filter((message) => message.text === 'hello climbers')).toHaveLength(1)
    const stored = await service.call('GET', `/v3/groups/${group.id}/messages`, { token: app.vault.token ?? '' })
    expect(stored.body.response.messages.map((message: { source_guid: string }) => message.source_guid)).toEqual(['client-0001'])
  })
})

describe('the outbox', () => {
  it('keeps a message written while the service is down and sends it exactly once when it is back', async () => {
    const deployment = await restartableService()
    let service = deployment.service
    const ada = await service.signUp({ name: 'Ada' })
    const group = await service.createGroup(ada, { name: 'Climbing' })
    const app = launch(service.origin)
    await signInThroughSms(app, service, ada)
    const token = app.vault.token ?? ''
    await app.events.waitFor('conversations:changed', (list) => list.some((conversation) => conversation.id === group.id))
    await app.call('conversations:open', { conversationId: group.id })

    await service.close()
    await app.call('messages:send', { conversationId: group.id, text: 'typed while offline', clientId: 'client-offline' })
    const failed = await app.events.waitFor('outbox:changed', (change) => change.pending[0]?.state === 'failed')
    expect(failed.pending[0]?.error).toMatch(/out of reach/)

    service = await deployment.restart()
    await app.events.waitFor('outbox:changed', (change) => change.conversationId === group.id && change.pending.length === 0, 30_000)
    const stored = await service.call('GET', `/v3/groups/${group.id}/messages`, { token })
    expect(stored.body.response.messages.map((message: { text: string }) => message.text)).toEqual(['typed while offline'])
    expect(app.events.all('messages:received').filter((message) => message.text === 'typed while offline')).toHaveLength(1)
  })
})

describe('when things go wrong', () => {
  it('starts while the service is down as the remembered account, and loads the list once it is back', async () => {
    const deployment = await restartableService()
    const service = deployment.service
    const ada = await service.signUp({ name: 'Ada' })
    const group = await service.createGroup(ada, { name: 'Climbing' })
    const firstRun = launch(service.origin)
    await signInThroughSms(firstRun, service, ada)
    await firstRun.core.stop()
    await service.close()

    const offlineRun = launch(service.origin, { vault: firstRun.vault, preferences: firstRun.preferences })
    await offlineRun.core.start()
    expect(await offlineRun.call('session:get', {})).toMatchObject({ status: 'signedIn', me: { id: ada.id } })

    await deployment.restart()
    const list = await offlineRun.events.waitFor('conversations:changed', (conversations) => conversations.length > 0, 30_000)
    expect(list.map((conversation) => conversation.id)).toEqual([group.id])
  })

  it('says Connected once in again after a sign-out while the service was down, whatever the stopped connection says later', async () => {
    const deployment = await restartableService()
    const service = deployment.service
    const ada = await service.signUp({ name: 'Ada' })
    const app = launch(service.origin)
    await signInThroughSms(app, service, ada)
    await service.close()
    await app.call('session:signOut', {})

    await deployment.restart()
    await signInThroughSms(app, deployment.service, ada)
    // The stopped connection's goodbye gives up after 2 s, and says it is offline then.
    await new Promise((resolve) => setTimeout(resolve, 2_500))
    expect(app.events.all('push:status').at(-1)).toBe('connected')
  })

  it('ends the session on a 401 from any call, keeps what was typed, and sends it when the same user is back', async () => {
    const service = await serviceFor()
    const ada = await service.signUp({ name: 'Ada' })
    const group = await service.createGroup(ada, { name: 'Climbing' })
    const app = launch(service.origin)
    await signInThroughSms(app, service, ada)
    await app.events.waitFor('conversations:changed', (list) => list.length === 1)
    await app.call('conversations:open', { conversationId: group.id })
    await service.call('POST', '/v2/access_tokens/current/destroy', { token: app.vault.token ?? '' })

    await app.call('messages:send', { conversationId: group.id, text: 'still mine', clientId: 'client-expired' })
    const ended = await app.events.waitFor('session:changed', (state) => state.status === 'signedOut')
    expect(ended).toEqual({ status: 'signedOut', notice: 'Your session has ended. Please sign in again.' })
    // Kept for Ada alone (this app keeps nothing on disk), never in the plain preferences.
    expect(app.preferences.values.outbox).toBeUndefined()

    await signInThroughSms(app, service, ada)
    await app.events.waitFor('outbox:changed', (change) => change.conversationId === group.id && change.pending.length === 0)
    const stored = await service.call('GET', `/v3/groups/${group.id}/messages`, { token: app.vault.token ?? '' })
    expect(stored.body.response.messages.map((message: { text: string }) => message.text)).toEqual(['still mine'])
  })

  it('never sends one account’s unsent messages as another', async () => {
    const service = await serviceFor()
    const ada = await service.signUp({ name: 'Ada' })
    const bea = await service.createUser({ name: 'Bea' })
    const group = await service.createGroup(ada, { name: 'Climbing' })
    const app = launch(service.origin)
    await signInThroughSms(app, service, ada)
    await app.events.waitFor('conversations:changed', (list) => list.length === 1)
    await service.call('POST', '/v2/access_tokens/current/destroy', { token: app.vault.token ?? '' })
    await app.call('messages:send', { conversationId: group.id, text: 'Ada wrote this', clientId: 'client-ada' })
    await app.events.waitFor('session:changed', (state) => state.status === 'signedOut')

    await signInThroughSms(app, service, bea)
    await app.events.waitFor('outbox:changed', (change) => change.conversationId === group.id && change.pending.length === 0)
    expect(app.preferences.values.outbox).toBeUndefined()
    expect((await service.call('GET', `/v3/groups/${group.id}/messages`, { token: ada.token })).status).toBe(304)
  })

  it('keeps a message the service refuses, with the reason, until the user discards it', async () => {
    const service = await serviceFor()
    const owner = await service.signUp({ name: 'Owner' })
    const ada = await service.createUser({ name: 'Ada' })
    const group = await service.createGroup(owner, { name: 'Announcements' })
    await service.call('POST', `/v3/groups/${group.id}/members/add`, {
      token: owner.token,
      attest: true,
      body: { members: [{ user_id: ada.id, nickname: 'Ada' }] }
    })
    await service.call('POST', `/v3/groups/${group.id}/update`, { token: owner.token, body: { group_type: 'announcement' } })
    const app = launch(service.origin)
    await signInThroughSms(app, service, ada)
    await app.events.waitFor('conversations:changed', (list) => list.length === 1)

    await app.call('messages:send', { conversationId: group.id, text: 'may I?', clientId: 'client-refused' })
    const refused = await app.events.waitFor('outbox:changed', (change) => change.pending[0]?.state === 'failed')
    expect(refused.pending[0]?.error).toBe('Not sent: only admins can write in this group now.')
    await app.call('messages:retry', { conversationId: group.id, clientId: 'client-refused' })
    await app.events.waitFor('outbox:changed', (change) => change.pending[0]?.state === 'sending')
    await app.events.waitFor('outbox:changed', (change) => change.pending[0]?.state === 'failed' && change !== refused)

    await app.call('messages:discard', { conversationId: group.id, clientId: 'client-refused' })
    expect(app.events.all('outbox:changed').at(-1)).toEqual({ conversationId: group.id, pending: [] })
    await expect(app.call('messages:retry', { conversationId: group.id, clientId: 'client-refused' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
  })

  it('refuses to open or write to a conversation the user is not in', async () => {
    const service = await serviceFor()
    const ada = await service.createUser({ name: 'Ada' })
    const app = launch(service.origin)
    await signInThroughSms(app, service, ada)
    await expect(app.call('conversations:open', { conversationId: '999999' })).rejects.toMatchObject({ code: 'NOT_FOUND' })
    await expect(app.call('messages:send', { conversationId: '999999', text: 'hi', clientId: 'client-nowhere' })).rejects.toMatchObject({
      code: 'NOT_FOUND'
    })
  })

  it('says how many attempts are left, then that the code is locked, and that an expired sign-in must start over', async () => {
    const service = await serviceFor()
    const ada = await service.createUser({ name: 'Ada' })
    const app = launch(service.origin)
    await app.call('session:signIn', { username: ada.email, password: ada.password })
    await app.call('session:sendCode', {})
    const pin = await service.lastPin(ada.phoneNumber)
    const wrong = pin === '000000' ? '111111' : '000000'
    const remaining: number[] = []
    for (let attempt = 0; attempt < 5; attempt += 1) {
      const result = await app.call('session:confirmCode', { code: wrong })
      if (result.status === 'wrongCode') remaining.push(result.remainingAttempts)
    }
    expect(remaining).toEqual([4, 3, 2, 1, 0])
    expect(await app.call('session:confirmCode', { code: pin })).toEqual({ status: 'wrongCode', remainingAttempts: 0 })
    await expect(app.call('session:sendCode', {})).rejects.toMatchObject({
      code: 'VALIDATION',
      message: 'This sign-in is locked after too many wrong codes. Start again to get a new code.'
    })

    await app.call('session:signIn', { username: ada.email, password: ada.password })
    await service.advanceClock(11 * 60)
    await expect(app.call('session:sendCode', {})).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'This sign-in has expired. Start again to get a new code.'
    })
    // The screen stays, saying so, with the way to a fresh start (tests/integration/sign-in-routes.test.ts).
    expect(await app.call('session:get', {})).toEqual({ status: 'verifying', challenge: { smsHint: ada.phoneNumber.slice(-2), spent: 'expired' } })
  })

  it('asks the user to wait after too many wrong passwords', async () => {
    const service = await serviceFor()
    const ada = await service.createUser({ name: 'Ada' })
    const app = launch(service.origin)
    for (let attempt = 0; attempt < 10; attempt += 1) {
      await expect(app.call('session:signIn', { username: ada.email, password: 'wrong password' })).rejects.toMatchObject({ code: 'UNAUTHENTICATED' })
    }
    await expect(app.call('session:signIn', { username: ada.email, password: ada.password })).rejects.toMatchObject({
      code: 'RATE_LIMITED',
      message: 'Too many failed sign-ins. Wait 15 minutes and try again.'
    })
  })
})

describe('history', () => {
  it('pages back through older messages, and catches up more than a page after an outage, each message once', async () => {
    const deployment = await restartableService()
    let service = deployment.service
    const ada = await service.createUser({ name: 'Ada' })
    const bea = await service.signUp({ name: 'Bea' })
    const group = await service.createGroup(bea, { name: 'Busy' })
    await service.call('POST', `/v3/groups/${group.id}/members/add`, {
      token: bea.token,
      attest: true,
      body: { members: [{ user_id: ada.id, nickname: 'Ada' }] }
    })
    for (let n = 1; n <= 120; n += 1) await service.sendGroupMessage(bea, group.id, `old ${n}`)
    const app = launch(service.origin)
    await signInThroughSms(app, service, ada)
    await app.events.waitFor('conversations:changed', (list) => list.length === 1)

    const opened = await app.call('conversations:open', { conversationId: group.id })
    expect(opened.hasOlder).toBe(true)
    const seen = [...opened.messages]
    let hasOlder = opened.hasOlder
    while (hasOlder) {
      const page = await app.call('messages:loadOlder', { conversationId: group.id, beforeId: seen[0]?.id ?? '0' })
      seen.unshift(...page.messages)
      hasOlder = page.hasOlder
    }
    const texts = seen.filter((message) => !message.system).map((message) => message.text)
    expect(texts).toEqual(Array.from({ length: 120 }, (_, index) => `old ${index + 1}`))

    await service.close()
    await app.events.waitFor('push:status', (status) => status !== 'connected')
    service = await deployment.restart()
    const beaAgain = { ...bea, token: await service.signIn(bea) }
    for (let n = 1; n <= 130; n += 1) await service.sendGroupMessage(beaAgain, group.id, `missed ${n}`)

    const missedSoFar = (): number => app.events.all('messages:received').filter((message) => message.text.startsWith('missed ')).length
    await expect.poll(missedSoFar, { timeout: 30_000 }).toBeGreaterThanOrEqual(130)
    await new Promise((resolve) => setTimeout(resolve, 300)) // room for a duplicate to show itself
    // Push delivers what is sent after it re-subscribed while catch-up is still fetching the
    // older ones, so the arrival order is not history's order (the view sorts); each comes once.
    const missed = app.events.all('messages:received').filter((message) => message.text.startsWith('missed '))
    const numbers = missed.map((message) => Number(message.text.slice('missed '.length)))
    expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: 130 }, (_, index) => index + 1))
  })
})

describe('notifications and the window', () => {
  it('notifies of the first message in a new chat, and stays quiet about the conversation on screen', async () => {
    const service = await serviceFor()
    const ada = await service.createUser({ name: 'Ada' })
    const bea = await service.signUp({ name: 'Bea' })
    const cy = await service.signUp({ name: 'Cy' })
    const app = launch(service.origin)
    await signInThroughSms(app, service, ada)

    app.window.focused = false
    await service.sendDirectMessage(bea, ada.id, 'hello, new here')
    await app.events.waitFor('messages:received', (message) => message.text === 'hello, new here')
    expect(app.notifier.shown.map((shown) => [shown.title, shown.body])).toEqual([['Bea', 'hello, new here']])

    // Opening the chat with the window in front: its notification is out of date, and what
    // arrives in it now is seen as it arrives.
    const chatWithBea = app.notifier.shown[0]?.conversationId ?? ''
    app.window.focused = true
    await app.call('conversations:open', { conversationId: chatWithBea })
    expect(app.notifier.closed).toEqual([chatWithBea])
    await service.sendDirectMessage(bea, ada.id, 'you are reading this')
    await app.events.waitFor('messages:received', (message) => message.text === 'you are reading this')
    expect(app.notifier.shown).toHaveLength(1)

    // Another conversation is news even with the window in front.
    await service.sendDirectMessage(cy, ada.id, 'hi from Cy')
    await app.events.waitFor('messages:received', (message) => message.text === 'hi from Cy')
    expect(app.notifier.shown.map((shown) => [shown.title, shown.body])).toEqual([
      ['Bea', 'hello, new here'],
      ['Cy', 'hi from Cy']
    ])
    const list = app.events.all('conversations:changed').at(-1) ?? []
    expect(list.map((conversation) => [conversation.name, conversation.unreadCount])).toEqual([
      ['Cy', 1],
      ['Bea', 0]
    ])
  })

  it('tells a renderer that (re)loads the state of the connection', async () => {
    const service = await serviceFor()
    const ada = await service.createUser({ name: 'Ada' })
    const app = launch(service.origin)
    await signInThroughSms(app, service, ada)
    const before = app.events.all('push:status').length
    await app.call('app:ready', {})
    expect(app.events.all('push:status').slice(before)).toEqual(['connected'])
  })
})
