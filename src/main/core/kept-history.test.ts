import { describe, expect, it } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Message } from '@shared/messages'
import { KeptHistory, OPEN_AT_CONTEXT, PICTURE_PAGE } from './kept-history'
import type { LocalStore, StoredHistory } from './ports'

const GROUP = 'g1' as ConversationId

function message(id: string, urls: string[]): Message {
  return {
    id,
    conversationId: GROUP,
    sourceGuid: `guid-${id}`,
    senderId: '7',
    senderName: 'Grace',
    senderAvatarUrl: null,
    text: '',
    attachments: [...urls.map((url) => ({ type: 'image' as const, url })), { type: 'location', lat: '1', lng: '2', name: 'Here' }],
    createdAt: 1_700_000_000 + Number(id),
    system: false,
    aboutUserIds: [],
    deleted: false
  }
}

function storeWith(reads: Partial<LocalStore>): () => LocalStore {
  return () => reads as LocalStore
}

describe('a conversation’s pictures', () => {
  it('lists each picture of each message newest first, and where the next page begins when this one is full', async () => {
    const full = Array.from({ length: PICTURE_PAGE }, (_, index) => message(String(1000 - index), [`https://i.example/${index}.png`]))
    full[0] = message('1000', ['https://i.example/a.png', 'https://i.example/b.png'])
    const asked: unknown[] = []
    const kept = new KeptHistory(
      storeWith({
        pictureMessages: async (conversationId, beforeId, limit) => {
          asked.push([conversationId, beforeId, limit])
          return beforeId === null ? full : [message('5', ['https://i.example/last.png'])]
        }
      })
    )
    const first = await kept.pictures(GROUP, null)
    expect(first.pictures.slice(0, 3)).toEqual([
      { messageId: '1000', url: 'https://i.example/a.png', senderName: 'Grace', createdAt: 1_700_001_000 },
      { messageId: '1000', url: 'https://i.example/b.png', senderName: 'Grace', createdAt: 1_700_001_000 },
      { messageId: '999', url: 'https://i.example/1.png', senderName: 'Grace', createdAt: 1_700_000_999 }
    ])
    expect(first.next).toBe(full.at(-1)?.id)
    expect(await kept.pictures(GROUP, first.next)).toEqual({ pictures: [{ messageId: '5', url: 'https://i.example/last.png', senderName: 'Grace', createdAt: 1_700_000_005 }], next: null })
    expect(asked).toEqual([
      [GROUP, null, PICTURE_PAGE],
      [GROUP, first.next, PICTURE_PAGE]
    ])
  })

  it('has none while no store is open', async () => {
    expect(await new KeptHistory(() => null).pictures(GROUP, null)).toEqual({ pictures: [], next: null })
  })
})

describe('opening at a message', () => {
  it('answers the stretch the store keeps from a little before it, and whether more is older', async () => {
    const stretch: StoredHistory = { messages: [message('40', []), message('41', [])], older: 'service' }
    const asked: unknown[] = []
    const kept = new KeptHistory(
      storeWith({
        stretchFrom: async (...args) => {
          asked.push(args)
          return stretch
        }
      })
    )
    expect(await kept.openAt({ conversationId: GROUP, messageId: '41', beforeId: '90' })).toEqual({ found: true, messages: stretch.messages, hasOlder: true })
    expect(asked).toEqual([[GROUP, '41', '90', OPEN_AT_CONTEXT]])
  })

  it('says it found nothing when the store keeps no such stretch, or there is no store', async () => {
    const none = { found: false, messages: [], hasOlder: false }
    expect(await new KeptHistory(storeWith({ stretchFrom: async () => null })).openAt({ conversationId: GROUP, messageId: '41', beforeId: null })).toEqual(none)
    expect(await new KeptHistory(() => null).openAt({ conversationId: GROUP, messageId: '41', beforeId: null })).toEqual(none)
  })
})
