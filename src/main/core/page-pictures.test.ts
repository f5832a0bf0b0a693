import { describe, expect, it } from 'vitest'
import type { Account } from '@shared/account'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import type { Me } from '@shared/session'
import type { GroupDetails, Member } from '@shared/groups'
import { INVOKE_CHANNELS, type EventContract, type EventName, type InvokeChannel, type InvokeHandlers, type InvokeResponse } from '@shared/window-api'
import type { Contact, Profile } from '@shared/people'
import { pagePictureEvents, withPagePictures } from './page-pictures'
import type { EventSink } from './ports'

const SERVICE = 'https://image.example.com'
const LISTED = 'https://pictures.example.com'
/** The origins in force: the image service's and one listed picture origin. */
let origins: string[] = [SERVICE, LISTED]

const ours = `${SERVICE}/i/ours.png`
const listed = `${LISTED}/i/listed.png`
const tracker = 'https://tracker.example.test/pixel.gif?who=ada'

const me: Me = { id: 'u1', name: 'Ada', avatarUrl: tracker }

function message(overrides: Partial<Message> = {}): Message {
  return {
    id: 'm1',
    conversationId: 'g1',
    sourceGuid: 'guid-1',
    senderId: 'u2',
    senderName: 'Grace',
    senderAvatarUrl: tracker,
    text: 'Look',
    attachments: [
      { type: 'image', url: ours },
      { type: 'image', url: tracker },
      { type: 'image', url: listed },
      { type: 'image', url: 'javascript:alert(1)' },
      { type: 'location', lat: '1', lng: '2', name: 'Here' }
    ],
    createdAt: 1_700_000_000,
    system: false,
    aboutUserIds: [],
    deleted: false,
    ...overrides
  }
}

const shown: Message = {
  ...message(),
  senderAvatarUrl: null,
  attachments: [
    { type: 'image', url: ours },
    { type: 'imageLink', url: tracker },
    { type: 'image', url: listed },
    { type: 'location', lat: '1', lng: '2', name: 'Here' }
  ]
}

function conversation(avatarUrl: string | null): Conversation {
  return { id: 'g1', kind: 'group', name: 'Hikers', avatarUrl, lastActivityAt: 0, lastMessageId: null, preview: null, unreadCount: 0, mute: null }
}

function member(avatarUrl: string | null): Member {
  return { membershipId: 'mb1', userId: 'u2', nickname: 'Grace', name: 'Grace', avatarUrl, role: 'user', muted: false }
}

function group(imageUrl: string | null, members: Member[]): GroupDetails {
  return {
    id: 'g1',
    name: 'Hikers',
    description: '',
    imageUrl,
    type: 'private',
    requiresApproval: false,
    joinQuestion: null,
    shareUrl: null,
    deletionMode: ['sender'],
    ownerId: 'u1',
    myRole: 'owner',
    myMembershipId: 'mb0',
    members
  }
}

const account: Account = { id: 'u1', name: 'Ada', email: null, bio: '', avatarUrl: tracker, twoStep: { enabled: false, phoneHint: null } }
const contact: Contact = { id: 'u3', name: 'Alan', avatarUrl: listed, blocked: false, source: 'link' }
const profile: Profile = {
  id: 'u2',
  name: 'Grace',
  avatarUrl: tracker,
  bio: '',
  canMessage: true,
  isContact: false,
  blockedByMe: false,
  sharedGroups: [
    { id: 'g1', name: 'Hikers', avatarUrl: ours },
    { id: 'g2', name: 'Book club', avatarUrl: tracker }
  ]
}

/** Handlers answering what `answers` says per channel. */
function answering(answers: Partial<{ [C in InvokeChannel]: InvokeResponse<C> }>): InvokeHandlers {
  return Object.fromEntries(INVOKE_CHANNELS.map((channel) => [channel, async () => answers[channel] ?? null])) as unknown as InvokeHandlers
}

const page = withPagePictures(
  answering({
    'session:get': { status: 'signedIn', me },
    'conversations:list': [conversation(tracker), conversation(ours)],
    'conversations:open': { conversation: conversation(tracker), messages: [message()], hasOlder: false, pending: [] },
    'messages:mostLiked': { day: [message()], week: [], month: [], mine: [], forMe: [message()] },
    'groups:get': group(tracker, [member(tracker), member(listed)]),
    'members:add': { added: [member(tracker)], notAdded: ['Eve'] },
    'people:profile': profile,
    'contacts:list': [contact, { ...contact, avatarUrl: tracker }],
    'account:updateProfile': { status: 'saved', account },
    'uploads:start': { url: tracker },
    'drafts:list': [
      {
        conversationId: 'g1',
        text: 'Look',
        pictures: [
          { id: 'p1', name: 'ours.png', contentType: 'image/png', url: ours },
          { id: 'p2', name: 'pixel.gif', contentType: 'image/gif', url: tracker }
        ],
        savedAt: 1
      }
    ]
  }),
  () => origins
)

describe('withPagePictures', () => {
  it("turns a message's picture on another origin into a link, keeps those on the picture origins, and leaves out one that is no web address", async () => {
    const opened = await page['conversations:open']({ conversationId: 'g1' })
    expect(opened.messages).toEqual([shown])
    expect(opened.conversation.avatarUrl).toBeNull()
    expect(await page['messages:mostLiked']({ conversationId: 'g1' })).toEqual({ day: [shown], week: [], month: [], mine: [], forMe: [shown] })
  })

  it('gives the page no avatar or group picture on another origin, in every shape that carries one', async () => {
    expect(await page['session:get']({})).toEqual({ status: 'signedIn', me: { ...me, avatarUrl: null } })
    expect((await page['conversations:list']({})).map((item) => item.avatarUrl)).toEqual([null, ours])
    expect(await page['groups:get']({ groupId: 'g1' })).toMatchObject({ imageUrl: null, members: [{ avatarUrl: null }, { avatarUrl: listed }] })
    expect(await page['members:add']({ groupId: 'g1', candidates: [] })).toEqual({ added: [member(null)], notAdded: ['Eve'] })
    expect(await page['people:profile']({ userId: 'u2' })).toMatchObject({
      avatarUrl: null,
      sharedGroups: [{ avatarUrl: ours }, { avatarUrl: null }]
    })
    expect((await page['contacts:list']({})).map((item) => item.avatarUrl)).toEqual([listed, null])
    expect(await page['account:updateProfile']({ changes: {} })).toEqual({ status: 'saved', account: { ...account, avatarUrl: null } })
  })

  it('hands back the URL an upload answered, which the page sends and never draws', async () => {
    expect(await page['uploads:start']({ uploadId: 'up-1', contentType: 'image/png', bytes: new Uint8Array(1) })).toEqual({ url: tracker })
  })

  it("gives the page a draft's pictures it may load, and leaves out the others", async () => {
    expect(await page['drafts:list']({})).toEqual([{ conversationId: 'g1', text: 'Look', pictures: [{ id: 'p1', name: 'ours.png', contentType: 'image/png', url: ours }], savedAt: 1 }])
  })

  it('judges each answer by the origins in force when it leaves', async () => {
    origins = [SERVICE]
    try {
      expect((await page['contacts:list']({})).map((item) => item.avatarUrl)).toEqual([null, null])
      origins = [SERVICE, LISTED, 'https://tracker.example.test']
      expect((await page['contacts:list']({})).map((item) => item.avatarUrl)).toEqual([listed, tracker])
    } finally {
      origins = [SERVICE, LISTED]
    }
  })
})

describe('pagePictureEvents', () => {
  function recording(): EventSink & { emitted: [EventName, unknown][] } {
    const emitted: [EventName, unknown][] = []
    return {
      emitted,
      emit<E extends EventName>(event: E, payload: EventContract[E]): void {
        emitted.push([event, payload])
      }
    }
  }

  it('filters the messages, the list and the session it passes on, and passes the rest as they are', () => {
    const sink = recording()
    const events = pagePictureEvents(sink, () => origins)
    events.emit('messages:received', message())
    events.emit('messages:updated', message({ attachments: [] }))
    events.emit('conversations:changed', [conversation(tracker)])
    events.emit('session:changed', { status: 'signedIn', me })
    events.emit('push:status', 'connected')
    expect(sink.emitted).toEqual([
      ['messages:received', shown],
      ['messages:updated', { ...message({ attachments: [] }), senderAvatarUrl: null }],
      ['conversations:changed', [conversation(null)]],
      ['session:changed', { status: 'signedIn', me: { ...me, avatarUrl: null } }],
      ['push:status', 'connected']
    ])
  })
})

describe('pictures kept on this device', () => {
  /** Keeps the picture on our image service only, and even "keeps" the tracker's: its copy must never get through. */
  const kept = (url: string): string | null => (url === ours || url === tracker ? `parley-picture://kept/?url=${encodeURIComponent(url)}` : null)

  it("gives the page a kept picture's local address, and judges every other as before", async () => {
    const pictures = withPagePictures(answering({ 'conversations:open': { conversation: conversation(ours), messages: [message()], hasOlder: false, pending: [] } }), () => origins, kept)
    const opened = await pictures['conversations:open']({ conversationId: 'g1' })
    expect(opened.messages[0]?.attachments).toEqual([
      { type: 'image', url: `parley-picture://kept/?url=${encodeURIComponent(ours)}` },
      { type: 'imageLink', url: tracker },
      { type: 'image', url: listed },
      { type: 'location', lat: '1', lng: '2', name: 'Here' }
    ])
    // A kept avatar comes from this device too.
    expect(opened.conversation.avatarUrl).toBe(`parley-picture://kept/?url=${encodeURIComponent(ours)}`)
  })

  it('does so for events too', () => {
    const emitted: unknown[] = []
    const events = pagePictureEvents({ emit: (_event, payload) => void emitted.push(payload) }, () => origins, kept)
    events.emit('messages:received', message({ attachments: [{ type: 'image', url: ours }] }))
    expect(emitted).toEqual([expect.objectContaining({ attachments: [{ type: 'image', url: `parley-picture://kept/?url=${encodeURIComponent(ours)}` }] })])
  })
})
