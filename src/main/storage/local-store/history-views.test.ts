// The store's reads of whole histories: a conversation's pictures, the stretch to open it at one of
// its messages, and everything it keeps of it for an export.
import Sqlite from 'better-sqlite3-multiple-ciphers'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Attachment, Message } from '@shared/messages'
import type { Poll } from '@shared/polls'
import { migrate } from './migrations'
import { SqliteStore } from './sqlite-store'

const GROUP = '7001' as ConversationId
const OTHER = '7002' as ConversationId

function message(id: string, attachments: Attachment[] = [], conversationId: ConversationId = GROUP): Message {
  return {
    id,
    conversationId,
    sourceGuid: `guid-${id}`,
    senderId: '42',
    senderName: 'Ada',
    senderAvatarUrl: null,
    text: `message ${id}`,
    attachments,
    createdAt: 1_700_000_000 + Number(id),
    system: false,
    aboutUserIds: [],
    deleted: false
  }
}

const picture = (id: string): Attachment => ({ type: 'image', url: `https://i.example/${id}.png` })
const ids = (messages: Message[] | undefined): string[] => messages?.map((m) => m.id) ?? []
const range = (from: number, to: number): string[] => Array.from({ length: to - from + 1 }, (_, index) => String(from + index))
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

describe('a conversation’s pictures', () => {
  it('reads the messages with pictures newest first, a page at a time, whatever stretch each is in, and leaves out the deleted', async () => {
    await store.keepRun(GROUP, [message('10', [picture('10')]), message('11'), message('12', [picture('12a'), picture('12b')])], NO_JOINS)
    // Known alone (pushed, say), apart from every stretch.
    await store.keepMessages([message('20', [picture('20')]), { ...message('21', [picture('21')]), deleted: true }])
    // The pattern is an attachment's type, never the words of a message.
    await store.keepMessages([{ ...message('22'), text: 'a "type":"image" in words' }, message('23', [picture('23')], OTHER)])

    expect(ids(await store.pictureMessages(GROUP, null, 2))).toEqual(['20', '12'])
    expect(ids(await store.pictureMessages(GROUP, '12', 2))).toEqual(['10'])
    expect((await store.pictureMessages(GROUP, null, 10))[1]?.attachments).toEqual([picture('12a'), picture('12b')])
  })
})

describe('the stretch to open a conversation at', () => {
  it('reads from a few messages before one up to what the page shows, in one piece', async () => {
    await store.keepRun(GROUP, range(100, 199).map((id) => message(id)), NO_JOINS)
    const stretch = await store.stretchFrom(GROUP, '120', '180', 5)
    expect(ids(stretch?.messages)).toEqual(range(115, 179))
    expect(stretch?.older).toBe('stored')
  })

  it('reads through the newest of the stretch when the page shows nothing, and says what lies beyond', async () => {
    await store.keepRun(GROUP, range(100, 110).map((id) => message(id)), { ...NO_JOINS, reachesStart: true })
    const stretch = await store.stretchFrom(GROUP, '102', null, 5)
    expect(ids(stretch?.messages)).toEqual(range(100, 110))
    expect(stretch?.older).toBe('none')
  })

  it('has nothing when a gap lies between, the message is not kept, or it is newer than what is shown', async () => {
    await store.keepRun(GROUP, range(100, 110).map((id) => message(id)), NO_JOINS)
    await store.keepRun(GROUP, range(150, 160).map((id) => message(id)), NO_JOINS)
    expect(await store.stretchFrom(GROUP, '105', '155', 5)).toBeNull()
    expect(await store.stretchFrom(GROUP, '130', '155', 5)).toBeNull()
    expect(await store.stretchFrom(GROUP, '158', '155', 5)).toBeNull()
    expect(await store.stretchFrom(OTHER, '105', '108', 5)).toBeNull()
  })
})

describe('everything kept of a conversation', () => {
  it('reads every message oldest first, a slice at a time, across stretches', async () => {
    await store.keepRun(GROUP, range(100, 104).map((id) => message(id)), NO_JOINS)
    await store.keepMessages([message('300'), message('301', [], OTHER)])
    expect(ids(await store.messagesFrom(GROUP, null, 3))).toEqual(['100', '101', '102'])
    expect(ids(await store.messagesFrom(GROUP, '102', 3))).toEqual(['103', '104', '300'])
    expect(ids(await store.messagesFrom(GROUP, '300', 3))).toEqual([])
  })

  it('reads the conversation’s polls', async () => {
    const poll: Poll = {
      id: '5',
      conversationId: GROUP,
      subject: 'Lunch?',
      ownerId: '42',
      expiresAt: 1_800_000_000,
      ended: false,
      multiple: false,
      anonymous: false,
      options: [{ id: '1', title: 'Yes', votes: 1, voters: [{ id: '42', name: 'Ada' }] }],
      myVotes: ['1'],
      canEnd: true
    }
    await store.keepPoll(poll)
    await store.keepPoll({ ...poll, id: '6', conversationId: OTHER })
    expect(await store.pollsOf(GROUP)).toEqual([poll])
  })
})
