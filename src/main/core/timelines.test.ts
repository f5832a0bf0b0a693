import { describe, expect, it } from 'vitest'
import type { Message } from '../../shared/domain'
import { MemoryService } from './testing/memory-service'
import { PAGE_SIZE, Timelines } from './timelines'

const ME = { id: '1', name: 'Ada' }
const GROUP = '42'
const OTHER_GROUP = '43'

function timelinesOver(history: number): { service: MemoryService; timelines: Timelines; written: Message[] } {
  const service = new MemoryService(ME)
  service.addConversation(GROUP)
  service.addConversation(OTHER_GROUP)
  const written = service.writeMany(GROUP, history, '2')
  return { service, timelines: new Timelines(service), written }
}

const ids = (messages: Message[]): string[] => messages.map((message) => message.id)

describe('Timelines', () => {
  it('opens a conversation on its newest page, oldest first, saying whether there is more', async () => {
    const { timelines, written } = timelinesOver(PAGE_SIZE + 5)
    const page = await timelines.load(GROUP)
    expect(ids(page.messages)).toEqual(ids(written.slice(-PAGE_SIZE)))
    expect(page.hasOlder).toBe(true)
    expect(timelines.isLoaded(GROUP)).toBe(true)
    expect(timelines.loadedConversations()).toEqual([GROUP])
  })

  it('says there is nothing older when the whole history fits on the first page', async () => {
    const { timelines, written } = timelinesOver(3)
    expect(await timelines.load(GROUP)).toEqual({ messages: written, hasOlder: false })
  })

  it('pages back through older messages until the beginning', async () => {
    const { timelines, written } = timelinesOver(PAGE_SIZE * 2 + 10)
    const newest = await timelines.load(GROUP)
    const middle = await timelines.older(GROUP, newest.messages[0]?.id ?? '')
    expect(ids(middle.messages)).toEqual(ids(written.slice(10, 10 + PAGE_SIZE)))
    expect(middle.hasOlder).toBe(true)
    const oldest = await timelines.older(GROUP, middle.messages[0]?.id ?? '')
    expect(oldest).toEqual({ messages: written.slice(0, 10), hasOlder: false })
  })

  it('lets a message through once, whether it comes by push, by catch-up or as the answer to an own send', async () => {
    const { service, timelines, written } = timelinesOver(3)
    await timelines.load(GROUP)
    expect(timelines.accept(written[2] as Message)).toBe(false)

    const sent = await service.sendMessage(GROUP, 'mine', 'c1')
    expect(timelines.accept(sent)).toBe(true)
    // Push echoes our own message back.
    expect(timelines.accept(sent)).toBe(false)

    const pushed = service.write(GROUP, { senderId: '2' })
    expect(timelines.accept(pushed)).toBe(true)
    expect(timelines.accept(pushed)).toBe(false)
    expect(await timelines.catchUp(GROUP)).toEqual([])
  })

  it('older pages count as shown, so a late copy of one of them is not let through', async () => {
    const { timelines, written } = timelinesOver(PAGE_SIZE + 1)
    await timelines.load(GROUP)
    await timelines.older(GROUP, written[1]?.id ?? '')
    expect(timelines.accept(written[0] as Message)).toBe(false)
  })

  it('does not take a conversation cleared while an older page was on its way for loaded', async () => {
    const { service, timelines, written } = timelinesOver(PAGE_SIZE + 10)
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
    expect(await timelines.catchUp(GROUP)).toEqual([])
  })

  it('lets every message of a conversation it has not loaded through, keeping no record of them', () => {
    const { service, timelines } = timelinesOver(0)
    const message = service.write(OTHER_GROUP, { senderId: '2' })
    expect(timelines.accept(message)).toBe(true)
    expect(timelines.accept(message)).toBe(true)
    expect(timelines.isLoaded(OTHER_GROUP)).toBe(false)
  })

  it('catches up on everything after the last page read, over as many pages as it takes', async () => {
    const { service, timelines } = timelinesOver(5)
    const shown = await timelines.load(GROUP)
    const missed = service.writeMany(GROUP, 250, '2')

    const caughtUp = await timelines.catchUp(GROUP)
    expect(ids(caughtUp)).toEqual(ids(missed))
    const anchors = service.callsOf('messagesAfter').map(([, afterId, limit]) => [afterId, limit])
    expect(anchors).toEqual([
      [shown.messages.at(-1)?.id, 100],
      [missed[99]?.id, 100],
      [missed[199]?.id, 100]
    ])

    // Read through now: the next catch-up asks from the newest and finds nothing.
    expect(await timelines.catchUp(GROUP)).toEqual([])
    expect(service.callsOf('messagesAfter').at(-1)?.[1]).toBe(missed.at(-1)?.id)
  })

  it('catches up on the messages missed before a pushed one, leaving out the pushed one already shown', async () => {
    const { service, timelines } = timelinesOver(5)
    await timelines.load(GROUP)
    // Push was down for these two ...
    const missed = service.writeMany(GROUP, 2, '2')
    // ... and back for this one (or it is our own send, accepted just after a reconnect).
    const pushed = service.write(GROUP, { senderId: '2' })
    expect(timelines.accept(pushed)).toBe(true)

    expect(ids(await timelines.catchUp(GROUP))).toEqual(ids(missed))
  })

  it('reads again what a catch-up had fetched when a later page of it failed', async () => {
    const { service, timelines } = timelinesOver(5)
    await timelines.load(GROUP)
    const missed = service.writeMany(GROUP, 150, '2')
    service.failNext('messagesAfter', 'NETWORK', { after: 1 })

    await expect(timelines.catchUp(GROUP)).rejects.toMatchObject({ code: 'NETWORK' })
    // Nothing of the first page reached the caller, so the next catch-up starts where the last one did.
    expect(ids(await timelines.catchUp(GROUP))).toEqual(ids(missed))
  })

  it('reads a conversation that was empty when opened from its very beginning', async () => {
    const { service, timelines } = timelinesOver(0)
    expect(await timelines.load(GROUP)).toEqual({ messages: [], hasOlder: false })
    const arrived = service.writeMany(GROUP, 3, '2')
    expect(await timelines.catchUp(GROUP)).toEqual(arrived)
    expect(service.callsOf('messagesAfter')[0]?.[1]).toBe('0')
  })

  it('does not catch up on a conversation it has not loaded', async () => {
    const { service, timelines } = timelinesOver(3)
    expect(await timelines.catchUp(GROUP)).toEqual([])
    expect(service.callsOf('messagesAfter')).toEqual([])
  })

  it('passes a failure to load on, and knows the conversation no better for it', async () => {
    const { service, timelines } = timelinesOver(3)
    service.failNext('latestMessages', 'NETWORK')
    await expect(timelines.load(GROUP)).rejects.toMatchObject({ code: 'NETWORK' })
    expect(timelines.isLoaded(GROUP)).toBe(false)
  })

  it('forgets every conversation on clear', async () => {
    const { service, timelines, written } = timelinesOver(3)
    await timelines.load(GROUP)
    timelines.clear()
    expect(timelines.isLoaded(GROUP)).toBe(false)
    expect(timelines.loadedConversations()).toEqual([])
    expect(timelines.accept(written[0] as Message)).toBe(true)
    service.write(GROUP, { senderId: '2' })
    expect(await timelines.catchUp(GROUP)).toEqual([])
  })
})
