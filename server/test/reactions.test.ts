import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { chatIdOf, dmChannelOf, eventsOf, groupMessages, groupWith, listen, settle, updateGroup, waitEvent } from './messaging-support.js'
import { startTestService, type Json, type TestService, type TestUser } from './support.js'

/** RX1–RX5 (§12) and the `favorite` push (§14.4). */

const HEART = '\u2764\uFE0F'
const CODES = [HEART, '👍', '🤣', '🎉', '🔥', '😮', '👀', '😭', '🥺', '🙏', '💀', '🫶', '🤬', '💅', '🫠']

let service: TestService
let alice: TestUser
let bob: TestUser
let carol: TestUser
let outsider: TestUser

beforeAll(async () => {
  service = await startTestService()
  ;[alice, bob, carol, outsider] = await Promise.all([
    service.signUp({ name: 'Alice' }),
    service.signUp({ name: 'Bob' }),
    service.signUp({ name: 'Carol' }),
    service.signUp({ name: 'Outsider' })
  ])
})

afterAll(async () => {
  await service.close()
})

const newGroup = (body: Record<string, unknown> = {}): Promise<string> => groupWith(service, alice, [bob, carol], body)
const like = (user: TestUser, conversation: string, messageId: string, body?: unknown) =>
  service.call('POST', `/v3/messages/${conversation}/${messageId}/like`, { token: user.token, ...(body === undefined ? {} : { body }) })
const unlike = (user: TestUser, conversation: string, messageId: string) =>
  service.call('POST', `/v3/messages/${conversation}/${messageId}/unlike`, { token: user.token })
const show = async (user: TestUser, groupId: string, messageId: string): Promise<Json> =>
  (await service.call('GET', `/v4/groups/${groupId}/messages/${messageId}`, { token: user.token })).body.message
const likes = (user: TestUser, groupId: string, path = '', query: Record<string, string> = {}) =>
  service.call('GET', `/v3/groups/${groupId}/likes${path}`, { token: user.token, query })
const unicode = (code: string) => ({ type: 'unicode', code })

describe('RX1 like', () => {
  it('reacts with ❤️ by default and shows it on the message', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(bob, group, 'like me')
    const result = await like(alice, group, sent.id)
    expect(result.status).toBe(200)
    expect(result.body).toEqual({ response: { reactions: [{ type: 'unicode', code: HEART, user_ids: [alice.id] }] }, meta: { code: 200, errors: null } })
    expect(HEART).toHaveLength(2)
    const shown = await show(carol, group, sent.id)
    expect(shown.reactions).toEqual(result.body.response.reactions)
    expect(shown.favorited_by).toEqual([alice.id])
    expect((await groupMessages(service, carol, group)).find((m) => m.id === sent.id)).toEqual(shown)
  })

  it("uses the group's like_icon as the default, and ❤️ in DMs", async () => {
    const group = await newGroup()
    await updateGroup(service, alice, group, { like_icon: { type: 'emoji', pack_id: 3, pack_index: 7 } })
    const sent = await service.sendGroupMessage(bob, group, 'custom')
    expect((await like(carol, group, sent.id, null)).body.response.reactions).toEqual([{ type: 'emoji', pack_id: 3, pack_index: 7, user_ids: [carol.id] }])
    expect((await like(bob, group, sent.id, { like_icon: null })).body.response.reactions).toEqual([
      { type: 'emoji', pack_id: 3, pack_index: 7, user_ids: [carol.id, bob.id] }
    ])
    const dm = await service.sendDirectMessage(bob, carol.id, 'dm')
    const chat = chatIdOf(bob, carol)
    expect((await like(carol, chat, dm.id)).body.response.reactions).toEqual([{ type: 'unicode', code: HEART, user_ids: [carol.id] }])
    expect((await like(bob, chat, dm.id, { like_icon: { type: 'emoji', pack_id: 1, pack_index: 0 } })).body.response.reactions).toEqual([
      { type: 'unicode', code: HEART, user_ids: [carol.id] },
      { type: 'emoji', pack_id: 1, pack_index: 0, user_ids: [bob.id] }
    ])
    const history = await service.call('GET', '/v3/direct_messages', { token: bob.token, query: { other_user_id: carol.id } })
    expect(history.body.response.direct_messages[0].favorited_by).toEqual([carol.id, bob.id])
  })

  it('accepts exactly the 15 codes and emoji with pack_id ≥ 1, pack_index ≥ 0', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(bob, group, 'codes')
    for (const code of CODES) {
      const result = await like(alice, group, sent.id, { like_icon: unicode(code) })
      expect(result.status, code).toBe(200)
      expect(result.body.response.reactions).toEqual([{ type: 'unicode', code, user_ids: [alice.id] }])
    }
    // Unknown keys are ignored.
    expect((await like(alice, group, sent.id, { like_icon: { type: 'unicode', code: '🔥', pack_id: 0, pack_index: 0 } })).body.response.reactions).toEqual([
      { type: 'unicode', code: '🔥', user_ids: [alice.id] }
    ])
    for (const likeIcon of [
      unicode('\u2764'),
      unicode('😀'),
      unicode('👍🏽'),
      unicode(''),
      { type: 'unicode' },
      { type: 'emoji', pack_id: 0, pack_index: 0 },
      { type: 'emoji', pack_id: 1, pack_index: -1 },
      { type: 'emoji', pack_id: 1.5, pack_index: 0 },
      { type: 'emoji', pack_id: '1', pack_index: 0 },
      { type: 'emoji', pack_id: 1 },
      { type: 'sticker', code: HEART },
      'heart',
      5
    ]) {
      expect((await like(alice, group, sent.id, { like_icon: likeIcon })).status, JSON.stringify(likeIcon)).toBe(400)
    }
    expect((await like(alice, group, sent.id, [1])).status).toBe(400)
    // Syntax comes before existence.
    expect((await like(outsider, group, sent.id, { like_icon: unicode('😀') })).status).toBe(400)
  })

  it('keeps one reaction per user: a new one replaces, the same one changes nothing', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(alice, group, 'order')
    await like(bob, group, sent.id, { like_icon: unicode('👍') })
    await like(carol, group, sent.id, { like_icon: unicode('🔥') })
    await like(alice, group, sent.id, { like_icon: unicode('👍') })
    expect((await show(alice, group, sent.id)).reactions).toEqual([
      { type: 'unicode', code: '👍', user_ids: [bob.id, alice.id] },
      { type: 'unicode', code: '🔥', user_ids: [carol.id] }
    ])
    const firstLikedAt = (await likes(bob, group, '/mine')).body.response.messages[0].liked_at
    await service.advanceClock(5)
    // Same reaction again: nothing moves, liked_at stays.
    const same = await like(bob, group, sent.id, { like_icon: unicode('👍') })
    expect(same.body.response.reactions[0].user_ids).toEqual([bob.id, alice.id])
    expect((await likes(bob, group, '/mine')).body.response.messages[0].liked_at).toBe(firstLikedAt)
    // A different one replaces it: bob leaves 👍 and joins 🔥 after carol.
    const replaced = await like(bob, group, sent.id, { like_icon: unicode('🔥') })
    expect(replaced.body.response.reactions).toEqual([
      { type: 'unicode', code: '👍', user_ids: [alice.id] },
      { type: 'unicode', code: '🔥', user_ids: [carol.id, bob.id] }
    ])
    expect((await likes(bob, group, '/mine')).body.response.messages[0].liked_at > firstLikedAt).toBe(true)
    // favorited_by follows reaction time; 👍 keeps its place while it has users.
    expect((await show(alice, group, sent.id)).favorited_by).toEqual([carol.id, alice.id, bob.id])
    // An entry that empties and comes back counts as appearing anew.
    await like(alice, group, sent.id, { like_icon: unicode('🎉') })
    await like(alice, group, sent.id, { like_icon: unicode('👍') })
    expect((await show(alice, group, sent.id)).reactions.map((r: Json) => r.code)).toEqual(['🔥', '👍'])
  })

  it('orders user_ids by reaction time even within one second', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(alice, group, 'fast')
    for (const user of [carol, alice, bob]) await like(user, group, sent.id)
    expect((await show(bob, group, sent.id)).reactions).toEqual([{ type: 'unicode', code: HEART, user_ids: [carol.id, alice.id, bob.id] }])
  })

  it('lets members react to system messages, and answers 404 outside and for deleted messages', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(bob, group, 'x')
    await service.call('POST', `/v3/conversations/${group}/messages/${sent.id}/pin`, { token: bob.token })
    const system = (await groupMessages(service, alice, group)).find((m) => m.system)
    expect((await like(carol, group, system.id)).status).toBe(200)
    expect((await show(carol, group, system.id)).favorited_by).toEqual([carol.id])
    expect((await like(outsider, group, sent.id)).status).toBe(404)
    expect((await like(alice, '99999999', sent.id)).status).toBe(404)
    expect((await like(alice, group, '100000000000000000')).status).toBe(404)
    const dm = await service.sendDirectMessage(bob, carol.id, 'dm')
    const [lo, hi] = chatIdOf(bob, carol).split('+')
    expect((await like(carol, `${hi}+${lo}`, dm.id)).status).toBe(404)
    expect((await like(alice, `${lo}+${hi}`, dm.id)).status).toBe(404)
    expect((await like(carol, group, dm.id)).status).toBe(404)
    expect((await service.call('DELETE', `/v3/conversations/${group}/messages/${sent.id}`, { token: bob.token })).status).toBe(204)
    expect((await like(alice, group, sent.id)).status).toBe(404)
    expect((await service.call('POST', `/v3/messages/${group}/${sent.id}/like`)).status).toBe(401)
  })
})

describe('RX2 unlike', () => {
  it('removes the caller’s reaction; no change without one', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(alice, group, 'x')
    await like(bob, group, sent.id)
    await like(carol, group, sent.id, { like_icon: unicode('🎉') })
    const none = await unlike(alice, group, sent.id)
    expect(none.status).toBe(200)
    expect(none.body.response.reactions).toHaveLength(2)
    const result = await unlike(bob, group, sent.id)
    expect(result.body.response).toEqual({ reactions: [{ type: 'unicode', code: '🎉', user_ids: [carol.id] }] })
    expect((await show(alice, group, sent.id)).favorited_by).toEqual([carol.id])
    expect((await unlike(outsider, group, sent.id)).status).toBe(404)
    expect((await unlike(alice, group, '100000000000000000')).status).toBe(404)
  })
})

describe('favorite push', () => {
  it('goes on the group channel and, for someone else’s message, to the author', async () => {
    const group = await newGroup()
    const sent = await service.sendGroupMessage(bob, group, 'push me')
    const channel = await listen(service, carol, [`/group/${group}`])
    const author = await listen(service, bob, [`/user/${bob.id}`])
    try {
      await like(alice, group, sent.id, { like_icon: unicode('🔥') })
      const event = await waitEvent(channel, `/group/${group}`, 'favorite')
      const now = await service.advanceClock(0)
      const reactions = [{ type: 'unicode', code: '🔥', user_ids: [alice.id] }]
      expect(event).toEqual({
        type: 'favorite',
        alert: '',
        subject: { line: { ...(await show(bob, group, sent.id)), favorited_at: expect.any(Number) }, reactions, user_id: alice.id },
        received_at: expect.any(Number)
      })
      expect(Number.isInteger(event.subject.line.favorited_at)).toBe(true)
      expect(Math.abs(event.subject.line.favorited_at - now)).toBeLessThanOrEqual(2)
      expect((await waitEvent(author, `/user/${bob.id}`, 'favorite')).subject).toEqual(event.subject)
      // The author reacting to their own message: no /user push. Unlike pushes too.
      await like(bob, group, sent.id)
      await unlike(alice, group, sent.id)
      const unliked = await waitEvent(channel, `/group/${group}`, 'favorite', (d) => d.subject.user_id === alice.id && d.subject.reactions[0]?.code === HEART)
      expect(unliked.subject.reactions).toEqual([{ type: 'unicode', code: HEART, user_ids: [bob.id] }])
      expect(unliked.subject.line.favorited_by).toEqual([bob.id])
      await waitEvent(author, `/user/${bob.id}`, 'favorite', (d) => d.subject.user_id === alice.id && d.subject.reactions[0]?.code === HEART)
      await settle()
      expect(eventsOf(author, `/user/${bob.id}`, 'favorite', (d) => d.subject.user_id === bob.id)).toEqual([])
      expect(eventsOf(channel, `/group/${group}`, 'favorite')).toHaveLength(3)
    } finally {
      channel.close()
      author.close()
    }
  })

  it('in DMs carries the message under direct_message', async () => {
    const dm = await service.sendDirectMessage(alice, carol.id, 'dm')
    const chat = chatIdOf(alice, carol)
    const listener = await listen(service, alice, [dmChannelOf(alice, carol), `/user/${alice.id}`])
    try {
      await like(carol, chat, dm.id)
      const onChannel = await waitEvent(listener, dmChannelOf(alice, carol), 'favorite')
      expect(onChannel.subject).toEqual({
        direct_message: { ...dm, reactions: [{ type: 'unicode', code: HEART, user_ids: [carol.id] }], favorited_by: [carol.id], favorited_at: expect.any(Number) },
        reactions: [{ type: 'unicode', code: HEART, user_ids: [carol.id] }],
        user_id: carol.id
      })
      expect(onChannel.alert).toBe('')
      expect((await waitEvent(listener, `/user/${alice.id}`, 'favorite')).subject).toEqual(onChannel.subject)
    } finally {
      listener.close()
    }
  })
})

describe('RX3 likes by period, RX4 mine, RX5 for me', () => {
  it('RX3: messages of the period with reactions, most reacted first, then newest', async () => {
    const group = await newGroup()
    const old = await service.sendGroupMessage(bob, group, 'old')
    await like(alice, group, old.id)
    await like(carol, group, old.id)
    await service.advanceClock(2 * 86_400)
    const a = await service.sendGroupMessage(bob, group, 'a')
    const b = await service.sendGroupMessage(bob, group, 'b')
    const c = await service.sendGroupMessage(bob, group, 'c')
    await service.sendGroupMessage(bob, group, 'unliked')
    const gone = await service.sendGroupMessage(bob, group, 'gone')
    await like(alice, group, a.id)
    await like(alice, group, b.id)
    await like(carol, group, b.id)
    await like(carol, group, c.id)
    await like(alice, group, gone.id)
    await like(carol, group, gone.id)
    await like(bob, group, gone.id)
    await service.call('DELETE', `/v3/conversations/${group}/messages/${gone.id}`, { token: bob.token })
    const day = await likes(carol, group, '', { period: 'day' })
    expect(day.status).toBe(200)
    expect(day.body.response.messages.map((m: Json) => m.text)).toEqual(['b', 'c', 'a'])
    expect(day.body.response.messages[0]).toEqual(await show(alice, group, b.id))
    expect((await likes(carol, group, '', { period: 'week' })).body.response.messages.map((m: Json) => m.text)).toEqual(['b', 'old', 'c', 'a']) // b and old tie at 2: id descending
    expect((await likes(carol, group, '', { period: 'month' })).body.response.messages).toHaveLength(4)
    for (const query of [{}, { period: 'year' }, { period: 'Day' }]) expect((await likes(carol, group, '', query)).status).toBe(400)
    expect((await likes(outsider, group, '', { period: 'day' })).status).toBe(404)
    expect((await likes(outsider, group, '', { period: 'x' })).status).toBe(400)
  })

  it('RX3 answers at most 100', async () => {
    const group = await newGroup()
    for (let i = 0; i < 101; i++) {
      const sent = await service.sendGroupMessage(bob, group, `n${i}`)
      await like(alice, group, sent.id)
    }
    const day = await likes(carol, group, '', { period: 'day' })
    expect(day.body.response.messages).toHaveLength(100)
    expect(day.body.response.messages[0].text).toBe('n100')
  })

  it('RX4: what the caller reacted to, latest reaction first, with liked_at', async () => {
    const group = await newGroup()
    const first = await service.sendGroupMessage(bob, group, 'first')
    const second = await service.sendGroupMessage(bob, group, 'second')
    const third = await service.sendGroupMessage(carol, group, 'third')
    expect((await likes(alice, group, '/mine')).body.response).toEqual({ messages: [] })
    await like(alice, group, second.id)
    await like(alice, group, first.id)
    await like(alice, group, third.id)
    await like(bob, group, third.id)
    await service.call('DELETE', `/v3/conversations/${group}/messages/${third.id}`, { token: carol.token })
    const mine = await likes(alice, group, '/mine')
    expect(mine.status).toBe(200)
    const messages = mine.body.response.messages
    expect(messages.map((m: Json) => m.text)).toEqual(['first', 'second'])
    expect(messages[0]).toEqual({ ...(await show(alice, group, first.id)), liked_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{6}Z$/) })
    expect(messages[0].liked_at >= messages[1].liked_at).toBe(true)
    expect((await likes(outsider, group, '/mine')).status).toBe(404)
  })

  it('RX5: the caller’s messages that someone else reacted to, newest first', async () => {
    const group = await newGroup()
    const one = await service.sendGroupMessage(bob, group, 'one')
    const self = await service.sendGroupMessage(bob, group, 'self-liked')
    const two = await service.sendGroupMessage(bob, group, 'two')
    const others = await service.sendGroupMessage(carol, group, 'carol')
    await like(alice, group, two.id)
    await like(carol, group, one.id)
    await like(bob, group, self.id)
    await like(alice, group, others.id)
    const forMe = await likes(bob, group, '/for_me')
    expect(forMe.status).toBe(200)
    expect(forMe.body.response.messages.map((m: Json) => m.text)).toEqual(['two', 'one'])
    expect(forMe.body.response.messages[0]).toEqual(await show(bob, group, two.id))
    expect((await likes(alice, group, '/for_me')).body.response).toEqual({ messages: [] })
    expect((await likes(outsider, group, '/for_me')).status).toBe(404)
  })
})
