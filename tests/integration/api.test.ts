// The REST client against the real local service on a free port with an in-memory database:
// sign-in through the SMS pin, the account, groups, group messages and direct messages.
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startService, type RunningService } from '../../server/src/index'
import { ApiError } from '../../src/main/api/api-error'
import { listChats, listDirectMessages, sendDirectMessage } from '../../src/main/api/chats'
import { wireGroup, type WireGroup } from '../../src/main/api/decoders'
import { listGroups } from '../../src/main/api/groups'
import { listGroupMessages, sendGroupMessage } from '../../src/main/api/messages'
import { ServiceClient } from '../../src/main/api/service-client'
import { localServiceConfig } from '../../src/main/api/service-config'
import { confirmCode, revokeAtIssuer, sendSmsCode, signIn } from '../../src/main/api/sessions'
import { chatToConversation, groupToConversation, toMessage, tokenResultToMe } from '../../src/main/api/to-domain'
import { getMe } from '../../src/main/api/users'
import { tokenFrom } from '../support/memory-platform'
import { issuerOf } from '@shared/token-issuer'

let service: RunningService

beforeAll(async () => {
  service = await startService({ port: 0, db: ':memory:', dev: true })
})

afterAll(async () => {
  await service.close()
})

interface Account {
  name: string
  email: string
  phone: string
  password: string
}

let accounts = 0

/** A fresh account made through `/dev/users`. */
async function createAccount(name: string): Promise<Account & { id: string }> {
  accounts += 1
  const account = { name, email: `${name.toLowerCase()}${accounts}@example.test`, phone: `+1 55500${String(10000 + accounts)}`, password: 'correct horse' }
  const response = await fetch(`${service.origin}/dev/users`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ name: account.name, email: account.email, phone_number: account.phone, password: account.password })
  })
  expect(response.status).toBe(201)
  const body = (await response.json()) as { user: { id: string } }
  return { ...account, id: body.user.id }
}

/** The last pin texted to `phone`, read from the dev outbox. */
async function lastPin(phone: string): Promise<string> {
  const response = await fetch(`${service.origin}/dev/outbox?to=${encodeURIComponent(phone)}`)
  const messages = (await response.json()) as { text: string }[]
  const pin = /(\d{6})/.exec(messages.at(-1)?.text ?? '')?.[1]
  if (pin === undefined) throw new Error(`no pin texted to ${phone}`)
  return pin
}

/** A client holding its own token, the way core's session does. */
function clientFor(): { client: ServiceClient; setToken: (token: string | null) => void } {
  let token: string | null = null
  const client = new ServiceClient({ config: localServiceConfig(service.origin), getToken: () => tokenFrom(localServiceConfig(service.origin), token) })
  return { client, setToken: (value) => (token = value) }
}

/** Password, SMS pin, then the same sign-in with the verified code, as the app does it. */
async function signInWithPin(account: Account): Promise<{ client: ServiceClient; token: string; setToken: (token: string | null) => void }> {
  const { client, setToken } = clientFor()
  const first = await signIn(client, { username: account.email, password: account.password, deviceId: 'integration-device' })
  if (first.kind !== 'verification') throw new Error('expected a challenge for a new device')
  await sendSmsCode(client, first.verification.code)
  expect(await confirmCode(client, first.verification.code, await lastPin(account.phone))).toEqual({ kind: 'verified' })
  const second = await signIn(client, {
    username: account.email,
    password: account.password,
    deviceId: 'integration-device',
    verificationCode: first.verification.code
  })
  if (second.kind !== 'token') throw new Error('expected a token after verification')
  setToken(second.result.access_token)
  return { client, token: second.result.access_token, setToken }
}

async function createGroup(client: ServiceClient, name: string): Promise<string> {
  const group = await client.call({
    operation: 'G5 create group',
    method: 'POST',
    host: 'base',
    path: '/groups',
    body: { name },
    schema: wireGroup,
    attested: true
  })
  return group.id
}

describe('sign-in', () => {
  it('challenges a new device, verifies the SMS pin, and then issues a token for the account', async () => {
    const ada = await createAccount('Ada')
    const { client, setToken } = clientFor()
    const challenge = await signIn(client, { username: ada.email, password: ada.password, deviceId: 'laptop' })
    expect(challenge.kind).toBe('verification')
    if (challenge.kind !== 'verification') return
    expect(challenge.verification).toMatchObject({ status: 'unverified', type: 'force' })

    const mfaId = challenge.verification.code
    expect(await sendSmsCode(client, mfaId)).toEqual({ hint: ada.phone.slice(-2) })
    const pin = await lastPin(ada.phone)
    const wrong = pin === '000000' ? '111111' : '000000'
    expect(await confirmCode(client, mfaId, wrong)).toEqual({ kind: 'wrongCode', remainingAttempts: 4 })
    expect(await confirmCode(client, mfaId, pin)).toEqual({ kind: 'verified' })
    // Confirming again is "already verified": the standard failure body, not remaining attempts.
    await expect(confirmCode(client, mfaId, pin)).rejects.toMatchObject({ status: 400 })

    const signedIn = await signIn(client, { username: ada.email, password: ada.password, deviceId: 'laptop', verificationCode: mfaId })
    if (signedIn.kind !== 'token') throw new Error('expected a token')
    expect(signedIn.result.access_token).toMatch(/^[A-Za-z0-9]{40}$/)
    expect(tokenResultToMe(signedIn.result)).toEqual({ id: ada.id, name: 'Ada', avatarUrl: null })

    // The device is now known: the next sign-in is not challenged.
    const again = await signIn(client, { username: ada.email, password: ada.password, deviceId: 'laptop' })
    expect(again.kind).toBe('token')

    setToken(signedIn.result.access_token)
    expect(await getMe(client)).toMatchObject({ id: ada.id, name: 'Ada', email: ada.email })
  })

  it('refuses a wrong password with 401, without calling it a lost session', async () => {
    const ada = await createAccount('Ada')
    const { client } = clientFor()
    let lost = 0
    client.onUnauthorized(() => (lost += 1))
    await expect(signIn(client, { username: ada.email, password: 'wrong', deviceId: 'x' })).rejects.toMatchObject({ status: 401 })
    expect(lost).toBe(0)
  })

  it('signs out: the token stops working and the unauthorized hook fires', async () => {
    const grace = await createAccount('Grace')
    const { client, token } = await signInWithPin(grace)
    const lost: string[] = []
    client.onUnauthorized((operation) => lost.push(operation))
    await revokeAtIssuer({ token, issuer: issuerOf(localServiceConfig(service.origin)) })
    const error = await getMe(client).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ status: 401 })
    expect(lost).toEqual(['U1 show me'])
  })

  it('revokes a token at its issuer: that one stops working, the one in use goes on, and no session is called lost', async () => {
    const grace = await createAccount('Grace')
    const { client } = await signInWithPin(grace)
    // A second token for the same account, as M4 issues one the app may end up not keeping.
    const other = await signIn(clientFor().client, { username: grace.email, password: grace.password, deviceId: 'integration-device' })
    if (other.kind !== 'token') throw new Error('expected a token for a known device')
    const { client: otherClient, setToken } = clientFor()
    setToken(other.result.access_token)
    const lost: string[] = []
    client.onUnauthorized((operation) => lost.push(operation))

    await revokeAtIssuer({ token: other.result.access_token, issuer: issuerOf(localServiceConfig(service.origin)) })

    await expect(getMe(otherClient)).rejects.toMatchObject({ status: 401 })
    expect(await getMe(client)).toMatchObject({ id: grace.id })
    expect(lost).toEqual([])
  })
})

describe('groups and messages', () => {
  it('lists a new group, sends to it and pages its messages', async () => {
    const ada = await createAccount('Ada')
    const { client } = await signInWithPin(ada)
    const groupId = await createGroup(client, 'Analytical engines')

    const listed = async (): Promise<WireGroup> => {
      const group = (await listGroups(client, { perPage: 10, omitMembers: true })).find((candidate) => candidate.id === groupId)
      if (group === undefined) throw new Error(`group ${groupId} is not listed`)
      return group
    }
    const shown = await listed()
    expect(shown.members).toBeNull()
    expect(groupToConversation(shown, ada.id)).toMatchObject({ id: groupId, kind: 'group', name: 'Analytical engines', lastMessageId: null })

    // An empty conversation answers 304.
    expect(await listGroupMessages(client, groupId)).toEqual({ count: null, messages: [] })

    const one = await sendGroupMessage(client, groupId, { sourceGuid: `guid-one-${groupId}`, text: 'one' })
    await sendGroupMessage(client, groupId, { sourceGuid: `guid-two-${groupId}`, text: 'two' })
    const three = await sendGroupMessage(client, groupId, { sourceGuid: `guid-three-${groupId}`, text: 'three' })
    expect(toMessage(one, groupId)).toMatchObject({ conversationId: groupId, text: 'one', senderId: ada.id, system: false, deleted: false })

    const newest = await listGroupMessages(client, groupId, { limit: 2 })
    expect(newest.count).toBe(3)
    expect(newest.messages.map((m) => m.text)).toEqual(['three', 'two'])
    const older = await listGroupMessages(client, groupId, { anchor: { before: newest.messages[1]?.id ?? '' } })
    expect(older.messages.map((m) => m.text)).toEqual(['one'])
    const after = await listGroupMessages(client, groupId, { anchor: { after: one.id } })
    expect(after.messages.map((m) => m.text)).toEqual(['two', 'three'])
    expect(await listGroupMessages(client, groupId, { anchor: { since: three.id } })).toEqual({ count: null, messages: [] })

    const conversation = groupToConversation(await listed(), ada.id)
    expect(conversation).toMatchObject({ lastMessageId: three.id, preview: { senderName: 'Ada', text: 'three' } })
  })

  it('sends attachments and reads them back', async () => {
    const ada = await createAccount('Ada')
    const { client } = await signInWithPin(ada)
    const groupId = await createGroup(client, 'Places')
    const sent = await sendGroupMessage(client, groupId, {
      sourceGuid: 'with-location',
      text: '',
      attachments: [{ type: 'location', lat: '51.5', lng: '-0.12', name: 'London' }]
    })
    expect(toMessage(sent, groupId)).toMatchObject({ text: '', attachments: [{ type: 'location', lat: '51.5', lng: '-0.12', name: 'London' }] })
  })

  it('refuses a repeated source_guid with 409', async () => {
    const ada = await createAccount('Ada')
    const { client } = await signInWithPin(ada)
    const groupId = await createGroup(client, 'Once only')
    await sendGroupMessage(client, groupId, { sourceGuid: 'same-guid', text: 'first' })
    await expect(sendGroupMessage(client, groupId, { sourceGuid: 'same-guid', text: 'first' })).rejects.toMatchObject({ status: 409 })
  })

  it('sends a direct message and finds the chat on both sides', async () => {
    const ada = await createAccount('Ada')
    const bob = await createAccount('Bob')
    const { client: adaClient } = await signInWithPin(ada)
    const { client: bobClient } = await signInWithPin(bob)

    const sent = await sendDirectMessage(adaClient, bob.id, { sourceGuid: 'dm-1', text: 'hello Bob' })
    const chatId = Number(ada.id) < Number(bob.id) ? `${ada.id}+${bob.id}` : `${bob.id}+${ada.id}`
    expect(sent).toMatchObject({ text: 'hello Bob', recipient_id: bob.id, chat_id: chatId })

    const chats = await listChats(bobClient, { perPage: 20 })
    expect(chats).toHaveLength(1)
    const [chat] = chats
    if (chat === undefined) throw new Error('no chat')
    expect(chatToConversation(chat, bob.id)).toMatchObject({ id: chatId, kind: 'dm', name: 'Ada', lastMessageId: sent.id })

    const page = await listDirectMessages(bobClient, ada.id)
    expect(page.messages.map((m) => toMessage(m, chatId).text)).toEqual(['hello Bob'])
    expect(await listDirectMessages(bobClient, ada.id, { anchor: { since: sent.id } })).toEqual({ count: null, messages: [] })
  })
})
