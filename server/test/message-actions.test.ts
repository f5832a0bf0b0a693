import { randomUUID } from 'node:crypto'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  chatIdOf,
  dmChannelOf,
  eventsOf,
  expectSystemMessage,
  groupMessages,
  groupWith,
  listen,
  makeAdmin,
  settle,
  updateGroup,
  waitEvent
} from './messaging-support.js'
import { startTestService, type Json, type TestService, type TestUser } from './support.js'

/** MS3–MS8, C4, C5 (§10, §11) and their pushes (§14.4, §14.5). */

let service: TestService
let owner: TestUser
let admin: TestUser
let member: TestUser
let outsider: TestUser

beforeAll(async () => {
  service = await startTestService()
  ;[owner, admin, member, outsider] = await Promise.all([
    service.signUp({ name: 'Owner' }),
    service.signUp({ name: 'Admin' }),
    service.signUp({ name: 'Member' }),
    service.signUp({ name: 'Outsider' })
  ])
})

afterAll(async () => {
  await service.close()
})

async function newGroup(body: Record<string, unknown> = {}): Promise<string> {
  const id = await groupWith(service, owner, [admin, member], body)
  await makeAdmin(service, owner, id, admin)
  return id
}

const show = (user: TestUser, groupId: string, messageId: string) =>
  service.call('GET', `/v4/groups/${groupId}/messages/${messageId}`, { token: user.token })
const edit = (user: TestUser, groupId: string, messageId: string, body: unknown) =>
  service.call('PUT', `/v4/groups/${groupId}/messages/${messageId}`, { token: user.token, body })
const editDm = (user: TestUser, chatId: string, messageId: string, body: unknown) =>
  service.call('PUT', `/v4/direct_messages/${chatId}/messages/${messageId}`, { token: user.token, body })
const remove = (user: TestUser, conversationId: string, messageId: string) =>
  service.call('DELETE', `/v3/conversations/${conversationId}/messages/${messageId}`, { token: user.token })
const pin = (user: TestUser, conversationId: string, messageId: string, action: 'pin' | 'unpin' = 'pin') =>
  service.call('POST', `/v3/conversations/${conversationId}/messages/${messageId}/${action}`, { token: user.token })
const pinnedInGroup = (user: TestUser, groupId: string) => service.call('GET', `/v3/pinned/groups/${groupId}/messages`, { token: user.token })
const pinnedInChat = (user: TestUser, query: Record<string, string>) =>
  service.call('GET', '/v3/pinned/direct_messages', { token: user.token, query })
const like = (user: TestUser, conversationId: string, messageId: string) =>
  service.call('POST', `/v3/messages/${conversationId}/${messageId}/like`, { token: user.token })

describe('MS3 show (v4)', () => {
  it('answers the bare message, the same as MS1 lists it', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(member, group, 'hello')
    const result = await show(owner, group, sent.id)
    expect(result.status).toBe(200)
    expect(result.body).toEqual({ message: sent })
    expect((await groupMessages(service, owner, group))[0]).toEqual(sent)
  })

  it('answers 401 without a token and 404 for outsiders, unknown and foreign messages', async () => {
    const group = await newGroup()
    const other = await newGroup()
    const sent = await service.sendGroupMessage(member, group, 'hello')
    const foreign = await service.sendGroupMessage(member, other, 'elsewhere')
    expect((await service.call('GET', `/v4/groups/${group}/messages/${sent.id}`)).status).toBe(401)
    expect((await show(outsider, group, sent.id)).status).toBe(404)
    expect((await show(owner, '99999999', sent.id)).status).toBe(404)
    expect((await show(owner, group, foreign.id)).status).toBe(404)
    expect((await show(owner, group, '100000000000000000')).status).toBe(404)
    expect((await show(owner, group, 'abc')).status).toBe(404)
    const failure = await show(owner, group, 'abc')
    expect(failure.body).toEqual({ response: null, meta: { code: 404, errors: expect.any(Array) } })
  })
})

describe('MS4 edit (v4)', () => {
  it('edits the text, keeps what is not given, sets updated_at, and answers bare', async () => {
    const group = await newGroup()
    const location = { type: 'location', lat: '1', lng: '2', name: 'Here' }
    const sent = await service.sendGroupMessage(member, group, 'first', { attachments: [location] })
    const result = await edit(member, group, sent.id, { text: 'second' })
    expect(result.status).toBe(200)
    const now = await service.advanceClock(0)
    expect(result.body).toEqual({ message: { ...sent, text: 'second', updated_at: expect.any(Number) } })
    expect(Math.abs(result.body.message.updated_at - now)).toBeLessThanOrEqual(2)
    // A present field replaces even with "" or []; a null one keeps the old value.
    const cleared = await edit(member, group, sent.id, { text: '', attachments: null })
    expect(cleared.body.message).toMatchObject({ text: '', attachments: [location], location: { lat: '1', lng: '2', name: 'Here' } })
    const swapped = await edit(member, group, sent.id, { text: 'back', attachments: [] })
    expect(swapped.body.message).toMatchObject({ text: 'back', attachments: [], location: { lat: '', lng: '', name: null } })
    expect((await show(owner, group, sent.id)).body.message).toEqual(swapped.body.message)
  })

  it('refuses bad bodies with 400, before existence', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(member, group, 'text only')
    for (const body of [
      {},
      { text: null },
      { text: null, attachments: null },
      { message: { text: 'wrapped' } },
      { text: 'x'.repeat(1001) },
      { text: 5 },
      { attachments: [{ type: 'poll', poll_id: '1' }] },
      { attachments: [{ type: 'image', url: 'https://elsewhere.test/a.png' }] },
      { attachments: Array.from({ length: 11 }, () => ({ type: 'location', lat: '1', lng: '2', name: 'x' })) },
      [{ text: 'array' }],
      'text'
    ]) {
      expect((await edit(member, group, sent.id, body)).status, JSON.stringify(body)).toBe(400)
    }
    expect((await edit(member, group, '100000000000000000', {})).status).toBe(400)
    // The result must keep text or an attachment.
    expect((await edit(member, group, sent.id, { text: '' })).status).toBe(400)
    expect((await edit(member, group, sent.id, { attachments: [] })).status).toBe(200)
  })

  it('answers 404 for outsiders, unknown, foreign and deleted messages', async () => {
    const group = await newGroup()
    const other = await newGroup()
    const sent = await service.sendGroupMessage(member, group, 'mine')
    const foreign = await service.sendGroupMessage(member, other, 'elsewhere')
    expect((await edit(outsider, group, sent.id, { text: 'x' })).status).toBe(404)
    expect((await edit(member, group, foreign.id, { text: 'x' })).status).toBe(404)
    expect((await edit(member, group, '100000000000000000', { text: 'x' })).status).toBe(404)
    expect((await remove(member, group, sent.id)).status).toBe(204)
    expect((await edit(member, group, sent.id, { text: 'x' })).status).toBe(404)
  })

  it('answers 403 to others than the sender, for system and poll messages, and after 15 minutes', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(member, group, 'mine')
    expect((await edit(owner, group, sent.id, { text: 'not yours' })).status).toBe(403)
    expect((await pin(owner, group, sent.id)).status).toBe(200)
    const system = (await groupMessages(service, owner, group)).find((m) => m.event?.type === 'message.pinned')
    expect((await edit(owner, group, system.id, { text: 'system' })).status).toBe(403)
    const poll = await service.call('POST', `/v3/poll/${group}`, {
      token: member.token,
      body: { subject: 'Q', options: [{ title: 'a' }, { title: 'b' }], expiration: (await service.advanceClock(0)) + 600, type: 'single', visibility: 'public' }
    })
    expect(poll.status).toBe(201)
    expect((await edit(member, group, poll.body.response.message.id, { text: 'poll' })).status).toBe(403)
    // Within 15 minutes is allowed, past them not (the exact second is not tested: real time moves).
    const late = await service.sendGroupMessage(member, group, 'late')
    const created = late.created_at as number
    const now = await service.advanceClock(0)
    await service.advanceClock(899 - (now - created))
    expect((await edit(member, group, late.id, { text: 'at 14:59' })).status).toBe(200)
    await service.advanceClock(2)
    expect((await edit(member, group, late.id, { text: 'at 15:01' })).status).toBe(403)
  })

  it('pushes message.update on the group channel and a push-only system message to each /user', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(member, group, 'before')
    const watcher = await listen(service, owner, [`/group/${group}`, `/user/${owner.id}`])
    const memberInbox = await listen(service, member, [`/user/${member.id}`])
    try {
      const result = await edit(member, group, sent.id, { text: 'after' })
      const edited = result.body.message
      const update = await waitEvent(watcher, `/group/${group}`, 'message.update')
      expect(update).toEqual({ type: 'message.update', alert: '', subject: edited, received_at: expect.any(Number) })
      const event = {
        type: 'message.update',
        data: { message_id: sent.id, sender_id: member.id, updated_at: edited.updated_at, message: { text: 'after', attachments: [] } }
      }
      for (const [listener, user] of [
        [watcher, owner],
        [memberInbox, member]
      ] as const) {
        const line = await waitEvent(listener, `/user/${user.id}`, 'line.create', (d) => d.subject.event?.type === 'message.update')
        expectSystemMessage(line.subject, event)
        expect(line.subject.group_id).toBe(group)
        expect(line.alert).toBe(line.subject.text)
      }
      // Push-only: not stored.
      expect((await groupMessages(service, owner, group)).some((m) => m.event?.type === 'message.update')).toBe(false)
    } finally {
      watcher.close()
      memberInbox.close()
    }
  })
})

describe('MS5 delete', () => {
  it('leaves the exact tombstone in listings, removes the pin and the reactions', async () => {
    const group = await newGroup()
    const upload = await service.call('POST', '/image/pictures', {
      token: member.token,
      body: Buffer.from('GIF89a'),
      headers: { 'content-type': 'image/gif' }
    })
    const url = upload.body.payload.url as string
    const sent = await service.sendGroupMessage(member, group, 'doomed', { attachments: [{ type: 'image', url }] })
    expect((await like(owner, group, sent.id)).status).toBe(200)
    expect((await pin(owner, group, sent.id)).status).toBe(200)
    const before = await groupMessages(service, owner, group)
    const result = await remove(member, group, sent.id)
    expect(result.status).toBe(204)
    expect(result.text).toBe('')
    const tombstone = (await show(owner, group, sent.id)).body.message
    expect(tombstone).toEqual({
      ...sent,
      text: 'This message was deleted',
      attachments: [],
      reactions: [],
      favorited_by: [],
      picture_url: null,
      deleted_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/),
      deletion_actor: 'sender',
      pinned_at: null,
      pinned_by: null
    })
    const after = await groupMessages(service, owner, group)
    expect(after.find((m) => m.id === sent.id)).toEqual(tombstone)
    // Listed and counted still; the pin and its list entry are gone.
    const count = (await service.call('GET', `/v3/groups/${group}/messages`, { token: owner.token })).body.response.count
    expect(count).toBe(before.length) // a delete stores nothing
    expect((await pinnedInGroup(owner, group)).body.response).toEqual({ count: 0, messages: [] })
  })

  it('counts a deleted message as nonexistent for like, unlike, edit, pin, unpin and delete', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(member, group, 'gone')
    expect((await remove(member, group, sent.id)).status).toBe(204)
    expect((await remove(member, group, sent.id)).status).toBe(404)
    expect((await pin(member, group, sent.id)).status).toBe(404)
    expect((await pin(member, group, sent.id, 'unpin')).status).toBe(404)
    expect((await like(member, group, sent.id)).status).toBe(404)
    expect((await service.call('POST', `/v3/messages/${group}/${sent.id}/unlike`, { token: member.token })).status).toBe(404)
    expect((await edit(member, group, sent.id, { text: 'x' })).status).toBe(404)
    expect((await show(member, group, sent.id)).status).toBe(200)
  })

  it('applies the deletion modes in order: sender, then admin', async () => {
    const group = await newGroup()
    const actor = async (user: TestUser, author: TestUser): Promise<string | number> => {
      const sent = await service.sendGroupMessage(author, group, 'x')
      const result = await remove(user, group, sent.id)
      if (result.status !== 204) return result.status
      return (await show(owner, group, sent.id)).body.message.deletion_actor
    }
    // Default ["admin","sender"].
    expect(await actor(member, member)).toBe('sender')
    expect(await actor(admin, member)).toBe('admin')
    expect(await actor(owner, member)).toBe('admin')
    expect(await actor(admin, admin)).toBe('sender')
    expect(await actor(member, admin)).toBe(403)
    await updateGroup(service, owner, group, { message_deletion_mode: ['admin'] })
    expect(await actor(member, member)).toBe(403)
    expect(await actor(admin, admin)).toBe('admin')
    expect(await actor(owner, member)).toBe('admin')
    await updateGroup(service, owner, group, { message_deletion_mode: ['sender'] })
    expect(await actor(admin, member)).toBe(403)
    expect(await actor(owner, owner)).toBe('sender')
    await updateGroup(service, owner, group, { message_deletion_mode: [] })
    expect(await actor(owner, owner)).toBe(403)
    expect(await actor(owner, member)).toBe(403)
    expect(await actor(member, member)).toBe(403)
  })

  it('never deletes system messages, and answers 404 outside the conversation', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(member, group, 'x')
    await pin(member, group, sent.id)
    const system = (await groupMessages(service, owner, group)).find((m) => m.system)
    expect((await remove(owner, group, system.id)).status).toBe(403)
    expect((await remove(outsider, group, sent.id)).status).toBe(404)
    expect((await remove(owner, '99999999', sent.id)).status).toBe(404)
    expect((await remove(owner, group, '100000000000000000')).status).toBe(404)
    expect((await service.call('DELETE', `/v3/conversations/${group}/messages/${sent.id}`)).status).toBe(401)
  })

  it('in DMs lets only the sender delete', async () => {
    const dm = await service.sendDirectMessage(member, outsider.id, 'psst')
    const chat = chatIdOf(member, outsider)
    expect((await remove(outsider, chat, dm.id)).status).toBe(403)
    expect((await remove(admin, chat, dm.id)).status).toBe(404)
    const [lo, hi] = chat.split('+')
    expect((await remove(member, `${hi}+${lo}`, dm.id)).status).toBe(404)
    expect((await remove(member, chat.replace('+', '%2B'), dm.id)).status).toBe(204)
    const history = await service.call('GET', '/v3/direct_messages', { token: outsider.token, query: { other_user_id: member.id } })
    expect(history.body.response.direct_messages[0]).toMatchObject({ id: dm.id, text: 'This message was deleted', deletion_actor: 'sender' })
  })

  it('pushes message.deleted on the group channel and a push-only system message to each /user', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(member, group, 'bye')
    const watcher = await listen(service, owner, [`/group/${group}`, `/user/${owner.id}`, `/user/${owner.id}`])
    const adminInbox = await listen(service, admin, [`/user/${admin.id}`])
    try {
      expect((await remove(owner, group, sent.id)).status).toBe(204)
      const tombstone = (await show(owner, group, sent.id)).body.message
      const deleted = await waitEvent(watcher, `/group/${group}`, 'message.deleted')
      expect(deleted).toEqual({ type: 'message.deleted', alert: '', subject: tombstone, received_at: expect.any(Number) })
      for (const [listener, user] of [
        [watcher, owner],
        [adminInbox, admin]
      ] as const) {
        const line = await waitEvent(listener, `/user/${user.id}`, 'line.create', (d) => d.subject.event?.type === 'message.deleted')
        expectSystemMessage(line.subject, {
          type: 'message.deleted',
          data: { message_id: sent.id, deleted_at: expect.any(Number), deletion_actor: 'admin' }
        })
        expect(line.subject.event.data.deleted_at).toBe(Math.floor(Date.parse(tombstone.deleted_at) / 1000))
      }
      expect((await groupMessages(service, owner, group)).some((m) => m.event?.type === 'message.deleted')).toBe(false)
    } finally {
      watcher.close()
      adminInbox.close()
    }
  })

  it('in DMs pushes message.deleted on the DM channel and a direct_message.create system message to both', async () => {
    const dm = await service.sendDirectMessage(admin, outsider.id, 'oops')
    const chat = chatIdOf(admin, outsider)
    const a = await listen(service, admin, [dmChannelOf(admin, outsider), `/user/${admin.id}`])
    const b = await listen(service, outsider, [`/user/${outsider.id}`])
    try {
      expect((await remove(admin, chat, dm.id)).status).toBe(204)
      const deleted = await waitEvent(a, dmChannelOf(admin, outsider), 'message.deleted')
      expect(deleted.subject).toMatchObject({ id: dm.id, chat_id: chat, text: 'This message was deleted', deletion_actor: 'sender' })
      const ids = new Set<string>()
      for (const [listener, user] of [
        [a, admin],
        [b, outsider]
      ] as const) {
        const line = await waitEvent(listener, `/user/${user.id}`, 'direct_message.create', (d) => d.subject.event?.type === 'message.deleted')
        expectSystemMessage(line.subject, { type: 'message.deleted', data: { message_id: dm.id, deleted_at: expect.any(Number), deletion_actor: 'sender' } })
        expect(line.subject).toMatchObject({ chat_id: chat, conversation_id: chat, recipient_id: user.id })
        ids.add(line.subject.id)
      }
      expect(ids.size).toBe(1)
      const history = await service.call('GET', '/v3/direct_messages', { token: admin.token, query: { other_user_id: outsider.id } })
      expect(history.body.response.direct_messages.some((m: Json) => m.system)).toBe(false)
    } finally {
      a.close()
      b.close()
    }
  })
})

describe('MS6 pin, MS7 unpin, MS8 pinned list', () => {
  it('lets any member pin and unpin, with pinned_at / pinned_by of the current pin', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(owner, group, 'important')
    const result = await pin(member, group, sent.id)
    expect(result.status).toBe(200)
    expect(result.body).toEqual({ response: {}, meta: { code: 200, errors: null } })
    const now = await service.advanceClock(0)
    const pinned = (await show(owner, group, sent.id)).body.message
    expect(pinned.pinned_by).toBe(member.id)
    expect(Math.abs(pinned.pinned_at - now)).toBeLessThanOrEqual(2)
    expect((await pin(admin, group, sent.id)).status).toBe(400)
    expect((await pin(admin, group, sent.id, 'unpin')).status).toBe(200)
    expect((await show(owner, group, sent.id)).body.message).toMatchObject({ pinned_at: null, pinned_by: null })
    expect((await pin(admin, group, sent.id, 'unpin')).status).toBe(400)
    expect((await pin(outsider, group, sent.id)).status).toBe(404)
    expect((await pin(owner, group, '100000000000000000')).status).toBe(404)
  })

  it('stores a message.pinned system message per pin and unpin in groups', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(owner, group, 'x')
    const watcher = await listen(service, member, [`/user/${member.id}`])
    try {
      await pin(member, group, sent.id)
      await pin(admin, group, sent.id, 'unpin')
      const stored = (await groupMessages(service, owner, group)).filter((m) => m.event?.type === 'message.pinned')
      expect(stored).toHaveLength(2)
      const [unpinned, pinned] = stored
      expectSystemMessage(pinned, { type: 'message.pinned', data: { message_id: sent.id, pinned: true, pinned_at: expect.any(Number), pinned_by: member.id } })
      expectSystemMessage(unpinned, { type: 'message.pinned', data: { message_id: sent.id, pinned: false, pinned_at: expect.any(Number), pinned_by: admin.id } })
      expect(pinned.group_id).toBe(group)
      const line = await waitEvent(watcher, `/user/${member.id}`, 'line.create', (d) => d.subject.id === pinned.id)
      expect(line.subject).toEqual(pinned)
    } finally {
      watcher.close()
    }
  })

  it('lists pinned messages latest pin first, also within one second', async () => {
    const group = await newGroup()
    const a = await service.sendGroupMessage(owner, group, 'a')
    const b = await service.sendGroupMessage(owner, group, 'b')
    const c = await service.sendGroupMessage(owner, group, 'c')
    expect((await pinnedInGroup(member, group)).body.response).toEqual({ count: 0, messages: [] })
    await pin(member, group, b.id)
    await pin(member, group, c.id)
    await pin(member, group, a.id)
    const list = await pinnedInGroup(member, group)
    expect(list.status).toBe(200)
    expect(list.body.response.count).toBe(3)
    expect(list.body.response.messages.map((m: Json) => m.text)).toEqual(['a', 'c', 'b'])
    expect(list.body.response.messages[0]).toEqual((await show(owner, group, a.id)).body.message)
    await pin(member, group, c.id, 'unpin')
    expect((await pinnedInGroup(member, group)).body.response.messages.map((m: Json) => m.text)).toEqual(['a', 'b'])
    expect((await pinnedInGroup(outsider, group)).status).toBe(404)
  })

  it('pins in DMs: push-only system message, C5 lists them', async () => {
    const first = await service.sendDirectMessage(owner, member.id, 'one')
    const second = await service.sendDirectMessage(member, owner.id, 'two')
    const chat = chatIdOf(owner, member)
    const watcher = await listen(service, owner, [`/user/${owner.id}`])
    try {
      expect((await pin(member, chat, first.id)).status).toBe(200)
      expect((await pin(owner, chat, second.id)).status).toBe(200)
      expect((await pin(owner, chat, second.id)).status).toBe(400)
      const line = await waitEvent(watcher, `/user/${owner.id}`, 'direct_message.create', (d) => d.subject.event?.type === 'message.pinned')
      expectSystemMessage(line.subject, { type: 'message.pinned', data: { message_id: first.id, pinned: true, pinned_at: expect.any(Number), pinned_by: member.id } })
      expect(line.subject.recipient_id).toBe(owner.id)
      const list = await pinnedInChat(owner, { other_user_id: member.id })
      expect(list.status).toBe(200)
      expect(list.body.response.count).toBe(2)
      expect(list.body.response.messages.map((m: Json) => m.text)).toEqual(['two', 'one'])
      expect(list.body.response.messages[0]).toMatchObject({ pinned_by: owner.id, chat_id: chat })
      const history = await service.call('GET', '/v3/direct_messages', { token: owner.token, query: { other_user_id: member.id } })
      expect(history.body.response.count).toBe(2)
      expect((await pinnedInChat(owner, {})).status).toBe(400)
      expect((await pinnedInChat(owner, { other_user_id: 'x' })).status).toBe(400)
      expect((await pinnedInChat(owner, { other_user_id: '99999999' })).status).toBe(404)
      expect((await pinnedInChat(admin, { other_user_id: member.id })).body.response).toEqual({ count: 0, messages: [] })
      expect((await pin(admin, chat, first.id)).status).toBe(404)
    } finally {
      watcher.close()
    }
  })
})

describe('C4 edit a direct message (v4)', () => {
  it('edits with the MS4 rules and pushes message.update on the DM channel', async () => {
    const dm = await service.sendDirectMessage(member, admin.id, 'draft')
    const chat = chatIdOf(member, admin)
    const watcher = await listen(service, admin, [dmChannelOf(member, admin), `/user/${admin.id}`])
    try {
      const result = await editDm(member, chat, dm.id, { text: 'final' })
      expect(result.status).toBe(200)
      expect(result.body).toEqual({ message: { ...dm, text: 'final', updated_at: expect.any(Number) } })
      const update = await waitEvent(watcher, dmChannelOf(member, admin), 'message.update')
      expect(update.subject).toEqual(result.body.message)
      const line = await waitEvent(watcher, `/user/${admin.id}`, 'direct_message.create', (d) => d.subject.event?.type === 'message.update')
      expectSystemMessage(line.subject, {
        type: 'message.update',
        data: { message_id: dm.id, sender_id: member.id, updated_at: result.body.message.updated_at, message: { text: 'final', attachments: [] } }
      })
      expect(line.subject.recipient_id).toBe(admin.id)
    } finally {
      watcher.close()
    }
  })

  it('answers 400, 404 (hi+lo, outsiders, unknown) and 403 (not the sender)', async () => {
    const dm = await service.sendDirectMessage(member, admin.id, 'draft')
    const chat = chatIdOf(member, admin)
    const [lo, hi] = chat.split('+')
    expect((await editDm(member, chat, dm.id, {})).status).toBe(400)
    expect((await editDm(member, chat, dm.id, { text: '' })).status).toBe(400)
    expect((await editDm(member, `${hi}+${lo}`, dm.id, { text: 'x' })).status).toBe(404)
    expect((await editDm(owner, chat, dm.id, { text: 'x' })).status).toBe(404)
    expect((await editDm(member, `${lo}+99999999`, dm.id, { text: 'x' })).status).toBe(404)
    expect((await editDm(member, chat, '100000000000000000', { text: 'x' })).status).toBe(404)
    expect((await editDm(admin, chat, dm.id, { text: 'x' })).status).toBe(403)
    expect((await editDm(member, chat.replace('+', '%2B'), dm.id, { text: 'encoded' })).status).toBe(200)
    await service.advanceClock(901)
    expect((await editDm(member, chat, dm.id, { text: 'late' })).status).toBe(403)
  })
})

describe('MS1 and C2 against the contract', () => {
  it('includes tombstones and stored system messages, and since_id gives the newest above X', async () => {
    const group = await newGroup()
    const start = await service.sendGroupMessage(owner, group, 'start')
    const ids = [start.id]
    for (let i = 0; i < 4; i++) ids.push((await service.sendGroupMessage(owner, group, `m${i}`)).id)
    await remove(owner, group, ids[1] ?? '')
    await pin(owner, group, ids[2] ?? '')
    const list = await service.call('GET', `/v3/groups/${group}/messages`, { token: member.token, query: { since_id: start.id, limit: '2' } })
    const [pinEvent, newest] = list.body.response.messages
    expect(pinEvent.event.type).toBe('message.pinned')
    expect(newest.text).toBe('m3')
    const all = await groupMessages(service, member, group)
    expect(all.find((m) => m.id === ids[1]).text).toBe('This message was deleted')
    expect(all.map((m) => m.id)).toEqual([...all.map((m) => m.id)].sort().reverse())
  })

  it('answers 403 to non-admin posters in announcement groups', async () => {
    const group = await newGroup()
    await updateGroup(service, owner, group, { group_type: 'announcement' })
    const result = await service.call('POST', `/v3/groups/${group}/messages`, {
      token: member.token,
      body: { message: { source_guid: randomUUID(), text: 'may I?' } }
    })
    expect(result.status).toBe(403)
    expect((await service.sendGroupMessage(admin, group, 'yes')).text).toBe('yes')
  })
})

describe('settling pushes', () => {
  it('sends no favorite, update or delete events for a pin', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(owner, group, 'quiet')
    const watcher = await listen(service, owner, [`/group/${group}`])
    try {
      await pin(owner, group, sent.id)
      await settle()
      expect(eventsOf(watcher, `/group/${group}`, 'favorite')).toEqual([])
      expect(watcher.inbox.received).toEqual([])
    } finally {
      watcher.close()
    }
  })
})
