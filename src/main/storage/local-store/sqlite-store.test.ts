import Sqlite from 'better-sqlite3-multiple-ciphers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import { migrate } from './migrations'
import { SqliteStore } from './sqlite-store'

const GROUP = '7001' as ConversationId
const OTHER = '7002' as ConversationId
/** Beyond 2^53: a JS number would round it to 180000000000000000. */
const HUGE_ID = '180000000000000001'

function message(id: string, conversationId: ConversationId = GROUP): Message {
  return {
    id,
    conversationId,
    sourceGuid: `guid-${id}`,
    senderId: '42',
    senderName: 'Ada',
    senderAvatarUrl: null,
    text: `message ${id}`,
    attachments: [{ type: 'image', url: `https://i.example/${id}.png` }],
    createdAt: 1_700_000_000,
    system: false,
    aboutUserIds: [],
    deleted: false,
    reactions: [{ emoji: '❤️', userIds: ['7'] }]
  }
}

const ids = (history: { messages: Message[] } | null): string[] => history?.messages.map((m) => m.id) ?? []
const NO_JOINS = { after: null, before: null, reachesStart: false }

let store: SqliteStore

beforeEach(() => {
  const db = new Sqlite(':memory:')
  migrate(db)
  store = new SqliteStore(db, null)
})

afterEach(async () => {
  await store.close()
})

describe('the history kept', () => {
  it('keeps every field of a message, and its id exactly', async () => {
    const kept = { ...message(HUGE_ID), editedAt: 1_700_000_100, pinnedAt: 1_700_000_200 }
    await store.keepRun(GROUP, [kept], NO_JOINS)
    expect((await store.newest(GROUP, 10))?.messages).toEqual([kept])
  })

  it('orders by the ids as numbers, not as text', async () => {
    await store.keepRun(GROUP, [message('9'), message('10'), message('100')], NO_JOINS)
    expect(ids(await store.newest(GROUP, 10))).toEqual(['9', '10', '100'])
  })

  it('reads the newest of a stretch, then older ones from it, and says when the service has the rest', async () => {
    await store.keepRun(GROUP, ['11', '12', '13', '14', '15'].map((id) => message(id)), NO_JOINS)
    const newest = await store.newest(GROUP, 2)
    expect(newest).toMatchObject({ older: 'stored' })
    expect(ids(newest)).toEqual(['14', '15'])
    expect(ids(await store.before(GROUP, '14', 2))).toEqual(['12', '13'])
    const oldest = await store.before(GROUP, '12', 2)
    expect(ids(oldest)).toEqual(['11'])
    expect(oldest.older).toBe('service')
  })

  it('reads what follows a message within its stretch, and nothing past a gap', async () => {
    await store.keepRun(GROUP, ['11', '12', '13', '14'].map((id) => message(id)), NO_JOINS)
    await store.keepMessages([message('20')])
    const ofIds = (messages: Message[] | null): string[] | null => messages?.map((m) => m.id) ?? null
    expect(ofIds(await store.after(GROUP, '11', 2))).toEqual(['12', '13'])
    expect(ofIds(await store.after(GROUP, '12', 10))).toEqual(['13', '14'])
    expect(ofIds(await store.after(GROUP, '14', 10))).toEqual([])
    // 20 was pushed alone: nothing says what lies between it and the stretch.
    expect(await store.after(GROUP, '20', 10)).toBeNull()
    expect(await store.after(GROUP, '5', 10)).toBeNull()
    expect(await store.after(OTHER, '12', 10)).toBeNull()
  })

  it('says nothing is older once a page reached the start of the conversation', async () => {
    await store.keepRun(GROUP, [message('1'), message('2')], { after: null, before: null, reachesStart: true })
    expect(await store.newest(GROUP, 10)).toMatchObject({ older: 'none' })
  })

  it('never reads across a gap: an older page joins the stretch it was read before, a distant one does not', async () => {
    await store.keepRun(GROUP, [message('50'), message('51')], NO_JOINS)
    await store.keepRun(GROUP, [message('10'), message('11')], NO_JOINS)
    expect(ids(await store.before(GROUP, '50', 10))).toEqual([])
    expect((await store.before(GROUP, '50', 10)).older).toBe('service')

    // The page just older than 50, as the service answers "before 50": it reaches down to 11.
    await store.keepRun(GROUP, [message('30'), message('40')], { after: null, before: '50', reachesStart: false })
    expect(ids(await store.before(GROUP, '50', 10))).toEqual(['30', '40'])
    await store.keepRun(GROUP, [message('20')], { after: null, before: '30', reachesStart: false })
    await store.keepRun(GROUP, [], { after: null, before: '20', reachesStart: false })
    expect(ids(await store.before(GROUP, '50', 10))).toEqual(['20', '30', '40'])
  })

  it('joins a catch-up to the stretch it went on from', async () => {
    await store.keepRun(GROUP, [message('1'), message('2')], { after: null, before: null, reachesStart: true })
    await store.keepRun(GROUP, [message('5'), message('6')], { after: '2', before: null, reachesStart: false })
    const all = await store.newest(GROUP, 10)
    expect(ids(all)).toEqual(['1', '2', '5', '6'])
    expect(all?.older).toBe('none')
  })

  it('keeps a pushed message but does not pass it off as following the stretch before it', async () => {
    await store.keepRun(GROUP, [message('1'), message('2')], NO_JOINS)
    await store.keepMessages([message('9')])
    expect(ids(await store.newest(GROUP, 10))).toEqual(['1', '2'])
    expect(await store.syncPoints()).toEqual(new Map([[GROUP, '2']]))
    await store.keepRun(GROUP, [message('3'), message('9')], { after: '2', before: null, reachesStart: false })
    expect(ids(await store.newest(GROUP, 10))).toEqual(['1', '2', '3', '9'])
  })

  it('replaces a message kept again, and applies changes the service answered without it', async () => {
    await store.keepRun(GROUP, [message('1'), message('2')], NO_JOINS)
    await store.keepMessages([{ ...message('1'), text: 'edited', editedAt: 1_700_000_500 }])
    await store.changeMessage(GROUP, '1', { kind: 'reactions', reactions: [] })
    await store.changeMessage(GROUP, '2', { kind: 'pinned', pinnedAt: 1_700_000_900 })
    let [first, second] = (await store.newest(GROUP, 10))?.messages ?? []
    expect(first).toMatchObject({ text: 'edited', editedAt: 1_700_000_500, reactions: [] })
    expect(second?.pinnedAt).toBe(1_700_000_900)

    await store.changeMessage(GROUP, '2', { kind: 'pinned', pinnedAt: null })
    await store.changeMessage(GROUP, '1', { kind: 'deleted' })
    ;[first, second] = (await store.newest(GROUP, 10))?.messages ?? []
    expect(second).not.toHaveProperty('pinnedAt')
    expect(first).toMatchObject({ id: '1', deleted: true, text: '', attachments: [] })
    expect(first).not.toHaveProperty('reactions')
  })

  it('ignores a change to a message it does not keep', async () => {
    await store.changeMessage(GROUP, '404', { kind: 'deleted' })
    expect(await store.newest(GROUP, 10)).toBeNull()
  })

  it('keeps each conversation apart, and says where each one goes on from', async () => {
    await store.keepRun(GROUP, [message('1'), message('2')], NO_JOINS)
    await store.keepRun(OTHER, [message('3', OTHER)], NO_JOINS)
    await store.keepRun(GROUP, [message('8')], NO_JOINS)
    expect(ids(await store.newest(OTHER, 10))).toEqual(['3'])
    expect(await store.syncPoints()).toEqual(
      new Map([
        [GROUP, '8'],
        [OTHER, '3']
      ])
    )
    expect(await store.usage()).toEqual({ messages: 4, conversations: 2, bytes: 0 })
  })
})

describe('what a download of older history goes on from', () => {
  it('names the oldest message of each conversation\'s newest stretch, and whether it reaches the start', async () => {
    expect(await store.historyStarts()).toEqual(new Map())
    await store.keepRun(GROUP, [message('10'), message('11')], NO_JOINS)
    await store.keepRun(GROUP, [message('50'), message('51')], NO_JOINS)
    await store.keepRun(OTHER, [message('3', OTHER), message('4', OTHER)], { after: null, before: null, reachesStart: true })
    expect(await store.historyStarts()).toEqual(
      new Map([
        [GROUP, { oldestId: '50', reachesStart: false }],
        [OTHER, { oldestId: '3', reachesStart: true }]
      ])
    )

    // An older page read before 50 joins it; an empty one before that says nothing is older.
    await store.keepRun(GROUP, [message('40')], { after: null, before: '50', reachesStart: false })
    expect((await store.historyStarts()).get(GROUP)).toEqual({ oldestId: '40', reachesStart: false })
    await store.keepRun(GROUP, [], { after: null, before: '40', reachesStart: true })
    expect((await store.historyStarts()).get(GROUP)).toEqual({ oldestId: '40', reachesStart: true })
  })

  it('keeps the ids exactly, beyond what a JS number holds', async () => {
    await store.keepRun(GROUP, [message(HUGE_ID)], NO_JOINS)
    expect((await store.historyStarts()).get(GROUP)?.oldestId).toBe(HUGE_ID)
  })

  it('counts the messages kept of each conversation', async () => {
    await store.keepRun(GROUP, [message('1'), message('2')], NO_JOINS)
    await store.keepMessages([message('9'), message('2')])
    await store.keepRun(OTHER, [message('3', OTHER)], NO_JOINS)
    expect(await store.messageCount(GROUP)).toBe(3)
    expect(await store.messageCount(OTHER)).toBe(1)
    expect(await store.messageCount('404' as ConversationId)).toBe(0)
  })
})

describe('the rest kept', () => {
  it('keeps the conversation list in its order, replacing the one before', async () => {
    const conversation = (id: string): Conversation => ({ id, name: `Group ${id}` }) as unknown as Conversation
    await store.keepConversations([conversation('2'), conversation('1')])
    await store.keepConversations([conversation('3'), conversation('2')])
    expect((await store.conversations()).map((c) => c.id)).toEqual(['3', '2'])
  })

  it('forgets every message, stretch, poll and the list when the history is cleared, and keeps the outbox', async () => {
    const pending = { clientId: 'a', conversationId: GROUP, text: 'not sent yet', queuedAt: 1, state: 'sending' as const, error: null }
    await store.keepConversations([{ id: GROUP, name: 'Trail' } as unknown as Conversation])
    await store.keepRun(GROUP, [message('1'), message('2')], { after: null, before: null, reachesStart: true })
    await store.keepOutbox([pending])
    await store.clearHistory()
    expect(await store.conversations()).toEqual([])
    expect(await store.newest(GROUP, 10)).toBeNull()
    expect(await store.historyStarts()).toEqual(new Map())
    expect(await store.usage()).toEqual({ messages: 0, conversations: 0, bytes: 0 })
    expect(await store.outbox()).toEqual([pending])
    // A page read afresh is kept as before.
    await store.keepRun(GROUP, [message('2')], NO_JOINS)
    expect(ids(await store.newest(GROUP, 10))).toEqual(['2'])
  })

  it('keeps the outbox in the order written, replacing the one before', async () => {
    const pending = (clientId: string) => ({ clientId, conversationId: GROUP, text: clientId, queuedAt: 1, state: 'sending' as const, error: null })
    await store.keepOutbox([pending('a'), pending('b')])
    await store.keepOutbox([pending('b'), pending('c')])
    expect((await store.outbox()).map((p) => p.clientId)).toEqual(['b', 'c'])
  })
})
