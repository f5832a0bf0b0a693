import { describe, expect, it } from 'vitest'
import type { Message } from '@shared/messages'
import { MessageFlow, type Arrival, type HistoryPage } from './message-flow'
import { MemoryService } from './testing/memory-service'
import { PAGE_SIZE, Timelines } from './timelines'

const ME = { id: '1', name: 'Ada' }
const GROUP = '42'
const OTHER_GROUP = '43'

interface Setup {
  service: MemoryService
  flow: MessageFlow
  timelines: Timelines
  written: Message[]
  /** Every page the timelines handed to the flow. */
  pages: HistoryPage[]
  /** Runs a catch-up of GROUP and answers what the flow announced of it. */
  caughtUp(): Promise<Message[]>
}

function timelinesOver(history: number): Setup {
  const service = new MemoryService(ME)
  service.addConversation(GROUP)
  service.addConversation(OTHER_GROUP)
  const written = service.writeMany(GROUP, history, '2')
  const flow = new MessageFlow((_event, error) => {
    throw error
  })
  const pages: HistoryPage[] = []
  const arrivals: Arrival[] = []
  flow.on('paged', (page) => pages.push(page))
  flow.on('arrived', (arrival) => arrivals.push(arrival))
  const timelines = new Timelines(service, flow)
  const caughtUp = async (): Promise<Message[]> => {
    const before = arrivals.length
    await timelines.catchUp(GROUP)
    const fresh = arrivals.slice(before)
    expect(fresh.every((arrival) => arrival.source === 'caughtUp')).toBe(true)
    return fresh.map((arrival) => arrival.message)
  }
  return { service, flow, timelines, written, pages, caughtUp }
}

const ids = (messages: Message[]): string[] => messages.map((message) => message.id)

describe('Timelines', () => {
  it('opens a conversation on its newest page, oldest first, saying whether there is more', async () => {
    const { timelines, written, pages } = timelinesOver(PAGE_SIZE + 5)
    const page = await timelines.load(GROUP)
    expect(ids(page.messages)).toEqual(ids(written.slice(-PAGE_SIZE)))
    expect(page.hasOlder).toBe(true)
    expect(timelines.isLoaded(GROUP)).toBe(true)
    expect(timelines.loadedConversations()).toEqual([GROUP])
    expect(pages).toEqual([{ conversationId: GROUP, messages: page.messages, end: 'newest', before: null, atStart: false }])
  })

  it('says there is nothing older when the whole history fits on the first page', async () => {
    const { timelines, written, pages } = timelinesOver(3)
    expect(await timelines.load(GROUP)).toEqual({ messages: written, hasOlder: false })
    expect(pages[0]).toMatchObject({ end: 'newest', atStart: true })
  })

  it('pages back through older messages until the beginning, each page saying where it ends', async () => {
    const { timelines, written, pages } = timelinesOver(PAGE_SIZE * 2 + 10)
    const newest = await timelines.load(GROUP)
    const middleBefore = newest.messages[0]?.id ?? ''
    const middle = await timelines.older(GROUP, middleBefore)
    expect(ids(middle.messages)).toEqual(ids(written.slice(10, 10 + PAGE_SIZE)))
    expect(middle.hasOlder).toBe(true)
    const oldestBefore = middle.messages[0]?.id ?? ''
    const oldest = await timelines.older(GROUP, oldestBefore)
    expect(oldest).toEqual({ messages: written.slice(0, 10), hasOlder: false })
    expect(pages.slice(1)).toEqual([
      { conversationId: GROUP, messages: middle.messages, end: 'older', before: middleBefore, atStart: false },
      { conversationId: GROUP, messages: oldest.messages, end: 'older', before: oldestBefore, atStart: true }
    ])
  })

  it('does not take a conversation cleared while an older page was on its way for loaded', async () => {
    const { service, timelines, written, caughtUp } = timelinesOver(PAGE_SIZE + 10)
    await timelines.load(GROUP)
    const release = service.holdNext('messagesBefore')
    const paging = timelines.older(GROUP, written[10]?.id ?? '')
    // Signed out meanwhile.
    timelines.clear()
    release()
    expect((await paging).messages).toEqual(written.slice(0, 10))

    // Else the next catch-up would hand over the whole history, read from its very beginning.
    expect(timelines.isLoaded(GROUP)).toBe(false)
    expect(timelines.loadedConversations()).toEqual([])
    expect(await caughtUp()).toEqual([])
  })

  it('catches up on everything after the last page read, over as many pages as it takes', async () => {
    const { service, timelines, caughtUp } = timelinesOver(5)
    const shown = await timelines.load(GROUP)
    const missed = service.writeMany(GROUP, 250, '2')

    expect(ids(await caughtUp())).toEqual(ids(missed))
    const anchors = service.callsOf('messagesAfter').map(([, afterId, limit]) => [afterId, limit])
    expect(anchors).toEqual([
      [shown.messages.at(-1)?.id, 100],
      [missed[99]?.id, 100],
      [missed[199]?.id, 100]
    ])

    // Read through now: the next catch-up asks from the newest and finds nothing.
    expect(await caughtUp()).toEqual([])
    expect(service.callsOf('messagesAfter').at(-1)?.[1]).toBe(missed.at(-1)?.id)
  })

  it('catches up on the messages missed before a pushed one, leaving out the pushed one already shown', async () => {
    const { service, flow, timelines, caughtUp } = timelinesOver(5)
    await timelines.load(GROUP)
    // Push was down for these two ...
    const missed = service.writeMany(GROUP, 2, '2')
    // ... and back for this one (or it is our own send, accepted just after a reconnect).
    flow.arrive(service.write(GROUP, { senderId: '2' }), 'pushed')

    expect(ids(await caughtUp())).toEqual(ids(missed))
  })

  it('reads again what a catch-up had fetched when a later page of it failed', async () => {
    const { service, timelines, caughtUp } = timelinesOver(5)
    await timelines.load(GROUP)
    const missed = service.writeMany(GROUP, 150, '2')
    service.failNext('messagesAfter', 'NETWORK', { after: 1 })

    await expect(caughtUp()).rejects.toMatchObject({ code: 'NETWORK' })
    // Nothing of the first page went on, so the next catch-up starts where the last one did.
    expect(ids(await caughtUp())).toEqual(ids(missed))
  })

  it('reads a conversation that was empty when opened from its very beginning', async () => {
    const { service, timelines, caughtUp } = timelinesOver(0)
    expect(await timelines.load(GROUP)).toEqual({ messages: [], hasOlder: false })
    const arrived = service.writeMany(GROUP, 3, '2')
    expect(await caughtUp()).toEqual(arrived)
    expect(service.callsOf('messagesAfter')[0]?.[1]).toBe('0')
  })

  it('does not catch up on a conversation it has not loaded', async () => {
    const { service, caughtUp } = timelinesOver(3)
    expect(await caughtUp()).toEqual([])
    expect(service.callsOf('messagesAfter')).toEqual([])
  })

  it('passes a failure to load on, and knows the conversation no better for it', async () => {
    const { service, timelines, pages } = timelinesOver(3)
    service.failNext('latestMessages', 'NETWORK')
    await expect(timelines.load(GROUP)).rejects.toMatchObject({ code: 'NETWORK' })
    expect(timelines.isLoaded(GROUP)).toBe(false)
    expect(pages).toEqual([])
  })

  it('forgets every conversation on clear', async () => {
    const { service, timelines, caughtUp } = timelinesOver(3)
    await timelines.load(GROUP)
    timelines.clear()
    expect(timelines.isLoaded(GROUP)).toBe(false)
    expect(timelines.loadedConversations()).toEqual([])
    service.write(GROUP, { senderId: '2' })
    expect(await caughtUp()).toEqual([])
  })
})
