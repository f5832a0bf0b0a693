import { describe, expect, it } from 'vitest'
import type { Message } from '@shared/messages'
import type { Poll } from '@shared/polls'
import { MessageFlow, type Arrival, type HistoryPage, type MessageChange } from './message-flow'

function message(id: string, conversationId = 'g1'): Message {
  return {
    id,
    conversationId,
    sourceGuid: `s-${id}`,
    senderId: '2',
    senderName: 'Bea',
    senderAvatarUrl: null,
    text: `message ${id}`,
    attachments: [],
    createdAt: 1_700_000_000,
    system: false,
    aboutUserIds: [],
    deleted: false
  }
}

function heard(flow: MessageFlow): { arrivals: Arrival[]; pages: HistoryPage[]; changes: MessageChange[]; polls: Poll[] } {
  const heard = { arrivals: [] as Arrival[], pages: [] as HistoryPage[], changes: [] as MessageChange[], polls: [] as Poll[] }
  flow.on('arrived', (arrival) => heard.arrivals.push(arrival))
  flow.on('paged', (page) => heard.pages.push(page))
  flow.on('changed', (change) => heard.changes.push(change))
  flow.on('pollUpdated', (poll) => heard.polls.push(poll))
  return heard
}

const quiet = (): MessageFlow => new MessageFlow(() => undefined)

describe('the message flow', () => {
  it('announces a message once, by the first source that brings it', () => {
    const flow = quiet()
    const { arrivals } = heard(flow)
    flow.arrive(message('5'), 'sent')
    flow.arrive(message('5'), 'pushed')
    flow.arrive(message('5'), 'caughtUp')
    expect(arrivals).toEqual([{ message: message('5'), source: 'sent' }])
  })

  it('tells messages of different conversations apart, though their ids may match', () => {
    const flow = quiet()
    const { arrivals } = heard(flow)
    flow.arrive(message('5', 'g1'), 'pushed')
    flow.arrive(message('5', 'g2'), 'pushed')
    expect(arrivals.map((arrival) => arrival.message.conversationId)).toEqual(['g1', 'g2'])
  })

  it('passes every page on, and a late copy of a paged message arrives as nothing new', () => {
    const flow = quiet()
    const { arrivals, pages } = heard(flow)
    const page: HistoryPage = { conversationId: 'g1', messages: [message('3'), message('4')], end: 'newest', before: null, after: null, atStart: true }
    flow.paged(page)
    flow.arrive(message('4'), 'caughtUp')
    flow.arrive(message('6'), 'caughtUp')
    expect(pages).toEqual([page])
    expect(arrivals.map((arrival) => arrival.message.id)).toEqual(['6'])
  })

  it('passes every change and every poll on as it comes, for each holder of a copy to apply', () => {
    const flow = quiet()
    const { changes, polls } = heard(flow)
    const edited: MessageChange = { kind: 'replaced', message: { ...message('5'), text: 'better', editedAt: 1_700_000_100 } }
    flow.changed(edited)
    flow.changed({ kind: 'pinned', conversationId: 'g1', messageId: '5', pinned: true })
    const poll = { id: 'p1', conversationId: 'g1' } as Poll
    flow.pollUpdated(poll)
    expect(changes).toEqual([edited, { kind: 'pinned', conversationId: 'g1', messageId: '5', pinned: true }])
    expect(polls).toEqual([poll])
  })

  it('takes a forgotten conversation, or every one after a sign-out, from a new start', () => {
    const flow = quiet()
    const { arrivals } = heard(flow)
    flow.arrive(message('5', 'g1'), 'pushed')
    flow.arrive(message('7', 'g2'), 'pushed')
    flow.forget('g1')
    flow.arrive(message('5', 'g1'), 'caughtUp')
    flow.arrive(message('7', 'g2'), 'caughtUp')
    flow.clear()
    flow.arrive(message('7', 'g2'), 'pushed')
    expect(arrivals.map(({ message, source }) => `${message.conversationId}/${message.id} ${source}`)).toEqual([
      'g1/5 pushed',
      'g2/7 pushed',
      'g1/5 caughtUp',
      'g2/7 pushed'
    ])
  })

  it('keeps telling the other listeners when one of them throws, and reports the failure', () => {
    const failures: string[] = []
    const flow = new MessageFlow((event, error) => failures.push(`${event}: ${(error as Error).message}`))
    flow.on('arrived', () => {
      throw new Error('full disk')
    })
    const { arrivals } = heard(flow)
    flow.arrive(message('5'), 'pushed')
    expect(arrivals).toHaveLength(1)
    expect(failures).toEqual(['arrived: full disk'])
  })

  it('stops telling a listener that stopped listening', () => {
    const flow = quiet()
    const arrivals: Arrival[] = []
    const stop = flow.on('arrived', (arrival) => arrivals.push(arrival))
    flow.arrive(message('5'), 'pushed')
    stop()
    flow.arrive(message('6'), 'pushed')
    expect(arrivals).toHaveLength(1)
  })
})
