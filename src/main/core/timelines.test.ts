import { describe, expect, it } from 'vitest'
import type { Message } from '@shared/messages'
import { compareIds } from '@shared/conversation-id'
import { KeptPageCheck, tombstoneOf } from './kept-page-check'
import { MessageFlow, type Arrival, type HistoryPage } from './message-flow'
import { MemoryService } from './testing/memory-service'
import type { LocalStore } from './ports'
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
    expect(pages).toEqual([{ conversationId: GROUP, messages: page.messages, end: 'newest', before: null, after: null, atStart: false }])
  })

  it('says there is nothing older when the whole history fits on the first page', async () => {
    const { timelines, written, pages } = timelinesOver(3)
    expect(await timelines.load(GROUP)).toEqual({ messages: written, hasOlder: false, fromDevice: false })
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
      { conversationId: GROUP, messages: middle.messages, end: 'older', before: middleBefore, after: null, atStart: false },
      { conversationId: GROUP, messages: oldest.messages, end: 'older', before: oldestBefore, after: null, atStart: true }
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
    expect(await timelines.load(GROUP)).toEqual({ messages: [], hasOlder: false, fromDevice: false })
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

describe('Timelines over what this device keeps', () => {
  /** A store holding `kept` as one stretch, with `older` beyond it; `failing`: every read throws. */
  function keeping(kept: Message[], older: 'stored' | 'service' | 'none', failing = false): Pick<LocalStore, 'newest' | 'before'> {
    const fail = async (): Promise<never> => {
      throw new Error('the disk went away')
    }
    return {
      newest: failing ? fail : async (_conversationId, limit) => ({ messages: kept.slice(-limit), older: kept.length > limit ? 'stored' : older }),
      before: failing
        ? fail
        : async (_conversationId, beforeId, limit) => {
            const earlier = kept.filter((message) => compareIds(message.id, beforeId) < 0)
            return { messages: earlier.slice(-limit), older: earlier.length > limit ? 'stored' : older }
          }
    }
  }

  function over(setup: Setup, store: Pick<LocalStore, 'newest' | 'before'>): Setup & { calls: () => number } {
    let calls = 0
    const service = new Proxy(setup.service, {
      get(target, property, receiver) {
        const value = Reflect.get(target, property, receiver) as unknown
        if (typeof value !== 'function') return value
        return (...args: unknown[]) => {
          calls += 1
          return (value as (...a: unknown[]) => unknown).apply(target, args)
        }
      }
    })
    const timelines = new Timelines(service, setup.flow, () => store as LocalStore)
    return { ...setup, timelines, calls: () => calls }
  }

  it('opens from the store without asking the service, and catches up from the newest message it kept', async () => {
    const setup = timelinesOver(120)
    const kept = setup.written.slice(0, 100)
    const { timelines, calls, flow } = over(setup, keeping(kept, 'none'))
    const arrived: Message[] = []
    flow.on('arrived', ({ message }) => arrived.push(message))

    const page = await timelines.load(GROUP)
    expect(page).toMatchObject({ fromDevice: true, hasOlder: true })
    expect(ids(page.messages)).toEqual(ids(kept.slice(-PAGE_SIZE)))
    expect(calls()).toBe(0)
    await timelines.catchUp(GROUP)
    expect(arrived.map((message) => message.text)).toEqual(setup.written.slice(100).map((message) => message.text))
  })

  it('reads older pages from the store while it holds them, then from the service', async () => {
    const setup = timelinesOver(120)
    const { timelines, calls } = over(setup, keeping(setup.written.slice(60), 'service'))
    const newest = await timelines.load(GROUP)
    const stored = await timelines.older(GROUP, newest.messages[0]?.id ?? '')
    expect(ids(stored.messages)).toEqual(ids(setup.written.slice(60, 70)))
    expect(stored.hasOlder).toBe(true)
    expect(calls()).toBe(0)
    const fromService = await timelines.older(GROUP, stored.messages[0]?.id ?? '')
    expect(fromService.messages.map((message) => message.text)).toEqual(setup.written.slice(10, 60).map((message) => message.text))
    expect(calls()).toBe(1)
  })

  it('asks the service when the store cannot be read', async () => {
    const setup = timelinesOver(20)
    const { timelines, calls } = over(setup, keeping([], 'none', true))
    const page = await timelines.load(GROUP)
    expect(page.fromDevice).toBe(false)
    expect(page.messages.map((message) => message.text)).toEqual(setup.written.map((message) => message.text))
    expect(calls()).toBe(1)
  })
})

describe('Timelines checking what the store served against the service', () => {
  function checked(history: number, keptCount: number): Setup & { check: KeptPageCheck; heard: Message[] } {
    const setup = timelinesOver(history)
    const kept = setup.written.slice(0, keptCount)
    const store: Pick<LocalStore, 'newest' | 'before'> = {
      newest: async (_conversationId, limit) => ({ messages: kept.slice(-limit), older: kept.length > limit ? 'stored' : 'none' }),
      before: async (_conversationId, beforeId, limit) => {
        const earlier = kept.filter((message) => compareIds(message.id, beforeId) < 0)
        return { messages: earlier.slice(-limit), older: earlier.length > limit ? 'stored' : 'none' }
      }
    }
    const log = { info: () => undefined, warn: () => undefined, error: () => undefined }
    const check = new KeptPageCheck({ service: setup.service, flow: setup.flow, log })
    const heard: Message[] = []
    setup.flow.on('changed', (change) => {
      if (change.kind === 'replaced') heard.push(change.message)
    })
    const timelines = new Timelines(setup.service, setup.flow, () => store as LocalStore, check)
    return { ...setup, timelines, check, heard }
  }

  it('checks the newest page it showed from the store once the conversation has caught up, and only once', async () => {
    const { service, timelines, check, heard } = checked(60, 60)
    const page = await timelines.load(GROUP)
    const gone = page.messages[3] as Message
    service.remove(GROUP, gone.id)
    await check.settled()
    expect(service.calls).toEqual([])

    await timelines.catchUp(GROUP)
    await check.settled()
    expect(heard).toEqual([tombstoneOf(gone)])
    expect(service.callsOf('messagesAfter')).toHaveLength(2)

    await timelines.catchUp(GROUP)
    await check.settled()
    expect(service.callsOf('messagesAfter')).toHaveLength(3)
    expect(heard).toHaveLength(1)
  })

  it('checks no newest page the service gave', async () => {
    const { service, timelines, check, heard } = checked(20, 0)
    await timelines.load(GROUP)
    await timelines.catchUp(GROUP)
    await check.settled()
    expect(service.callsOf('messagesAfter')).toHaveLength(1)
    expect(heard).toEqual([])
  })

  it('shows an older page from the store at once, and checks it against the service behind it', async () => {
    const { service, timelines, check, heard } = checked(120, 120)
    const newest = await timelines.load(GROUP)
    const edited = { ...(service.messagesIn(GROUP)[40] as Message), text: 'edited while away', editedAt: 1 }
    service.replace(edited)
    const release = service.holdNext('messagesBefore')
    const older = await timelines.older(GROUP, newest.messages[0]?.id ?? '')
    // Shown as kept, before the service has answered.
    expect(older.messages.map((message) => message.text)).toContain((service.messagesIn(GROUP)[39] as Message).text)
    expect(older.messages.some((message) => message.text === 'edited while away')).toBe(false)
    expect(heard).toEqual([])
    release()
    await check.settled()
    expect(heard).toEqual([edited])
    expect(service.callsOf('messagesBefore')).toEqual([[GROUP, newest.messages[0]?.id, PAGE_SIZE]])
  })

  it('hands on nothing a check read for a conversation cleared meanwhile', async () => {
    const { service, timelines, check, heard } = checked(120, 120)
    const newest = await timelines.load(GROUP)
    service.remove(GROUP, (service.messagesIn(GROUP)[30] as Message).id)
    const release = service.holdNext('messagesBefore')
    await timelines.older(GROUP, newest.messages[0]?.id ?? '')
    timelines.clear()
    release()
    await check.settled()
    expect(heard).toEqual([])
  })
})
