import { describe, expect, it } from 'vitest'
import type { Message } from '@shared/messages'
import type { EventName } from '@shared/window-api'
import { EventQueue, MAX_HELD_MESSAGES } from './event-queue'

function message(id: number): Message {
  return {
    id: String(id),
    conversationId: '42',
    sourceGuid: `guid-${id}`,
    senderId: '2',
    senderName: 'Bea',
    senderAvatarUrl: null,
    text: `message ${id}`,
    attachments: [],
    createdAt: 1_700_000_000 + id,
    system: false,
    aboutUserIds: [],
    deleted: false
  }
}

function drain(queue: EventQueue): { event: EventName; payload: unknown }[] {
  const delivered: { event: EventName; payload: unknown }[] = []
  queue.attach((event, payload) => delivered.push({ event, payload }))
  return delivered
}

describe('EventQueue', () => {
  it('holds events until the renderer is ready, then delivers them in order and the rest at once', () => {
    const queue = new EventQueue()
    queue.emit('push:status', 'connecting')
    queue.emit('messages:received', message(1))
    const delivered = drain(queue)
    expect(delivered.map((entry) => entry.event)).toEqual(['push:status', 'messages:received'])
    queue.emit('push:status', 'connected')
    expect(delivered.at(-1)).toEqual({ event: 'push:status', payload: 'connected' })
  })

  it('keeps only the latest statement of each state while nobody listens', () => {
    const queue = new EventQueue()
    queue.emit('push:status', 'connecting')
    queue.emit('outbox:changed', { conversationId: '1', pending: [] })
    queue.emit('outbox:changed', { conversationId: '2', pending: [] })
    queue.emit('push:status', 'connected')
    queue.emit('conversations:changed', [])
    queue.emit('outbox:changed', { conversationId: '1', pending: [] })
    expect(drain(queue)).toEqual([
      { event: 'outbox:changed', payload: { conversationId: '2', pending: [] } },
      { event: 'push:status', payload: 'connected' },
      { event: 'conversations:changed', payload: [] },
      { event: 'outbox:changed', payload: { conversationId: '1', pending: [] } }
    ])
  })

  it('holds every message up to a limit, then drops the oldest', () => {
    const queue = new EventQueue()
    for (let id = 1; id <= MAX_HELD_MESSAGES + 3; id += 1) queue.emit('messages:received', message(id))
    const ids = drain(queue).map((entry) => (entry.payload as Message).id)
    expect(ids).toHaveLength(MAX_HELD_MESSAGES)
    expect(ids[0]).toBe('4')
    expect(ids.at(-1)).toBe(String(MAX_HELD_MESSAGES + 3))
  })

  it('holds again after the renderer goes away', () => {
    const queue = new EventQueue()
    const first = drain(queue)
    queue.detach()
    queue.emit('push:status', 'reconnecting')
    expect(first).toEqual([])
    expect(drain(queue)).toEqual([{ event: 'push:status', payload: 'reconnecting' }])
  })
})
