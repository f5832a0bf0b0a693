import { describe, expect, it } from 'vitest'
import type { Message } from '@shared/messages'
import { KeptPageCheck, pageDifferences, tombstoneOf } from './kept-page-check'
import { MessageFlow, type MessageChange } from './message-flow'
import { MemoryService } from './testing/memory-service'

const ME = { id: '1', name: 'Ada' }
const GROUP = '42'

const ids = (messages: readonly Message[]): string[] => messages.map((message) => message.id)

function at<T>(list: readonly T[], index: number): T {
  const item = list.at(index)
  if (item === undefined) throw new Error(`nothing at ${index}`)
  return item
}

describe('pageDifferences', () => {
  const service = new MemoryService(ME)
  service.addConversation(GROUP)
  const kept = service.writeMany(GROUP, 8, '2')
  const [m0, m1, m2, m3, m4, m5, m6, m7] = [0, 1, 2, 3, 4, 5, 6, 7].map((index) => at(kept, index)) as [Message, Message, Message, Message, Message, Message, Message, Message]
  const cover = { from: m0.id, through: m7.id }

  it('takes the service’s copy of a message edited, reacted to, pinned or deleted, and leaves the rest', () => {
    const edited = { ...m1, text: 'edited', editedAt: m1.createdAt + 60 }
    const reacted = { ...m2, reactions: [{ emoji: '🔥', userIds: ['3'] }] }
    const pinned = { ...m3, pinnedAt: m3.createdAt + 5 }
    const deleted = { ...m4, text: 'This message was deleted', deleted: true }
    const served = [m0, edited, reacted, pinned, deleted, m5, m6, m7]
    expect(pageDifferences(kept, served, cover)).toEqual({ changed: [edited, reacted, pinned, deleted], gone: [] })
  })

  it('takes a reaction taken back, an unpin, and a picture dropped from an edit for changes too', () => {
    const keptState = [{ ...m1, reactions: [{ emoji: '🔥', userIds: ['3'] }] }, { ...m2, pinnedAt: 5 }, { ...m3, attachments: [{ type: 'image' as const, url: 'https://i.example/a' }] }]
    expect(pageDifferences(keptState, [m1, m2, m3], cover).changed).toEqual([m1, m2, m3])
  })

  it('counts a kept tombstone and the service’s as the same, whatever text stands in for what was said', () => {
    const keptTombstone = tombstoneOf(m1)
    const servedTombstone = { ...m1, text: 'This message was deleted', deleted: true }
    expect(pageDifferences([keptTombstone], [servedTombstone], cover)).toEqual({ changed: [], gone: [] })
  })

  it('makes a tombstone of a message the service no longer has, inside what its page covers only', () => {
    const served = [m0, m1, m3, m4, m5]
    // m2 is gone; m6 and m7 are newer than the page reaches, and say nothing.
    expect(pageDifferences(kept, served, { from: m0.id, through: m5.id })).toEqual({ changed: [], gone: [tombstoneOf(m2)] })
    // Nothing older than m3 is covered: m2 is left as it is.
    expect(pageDifferences(kept, [m3, m4, m5], { from: m3.id, through: m5.id }).gone).toEqual([])
  })

  it('covers everything older than a page at the start, up to where it reaches', () => {
    expect(pageDifferences(kept, [m4, m5], { from: null, through: m6.id }).gone).toEqual([m0, m1, m2, m3, m6].map(tombstoneOf))
  })

  it('judges neither a system message (chats list none) nor a tombstone already kept as gone', () => {
    const system = { ...m1, system: true, senderId: 'system' }
    const tombstone = tombstoneOf(m2)
    expect(pageDifferences([m0, system, tombstone, m3], [m0, m3], cover).gone).toEqual([])
  })

  it('keeps where a tombstone was, and nothing of what it said, reacted or pinned', () => {
    const full: Message = { ...m1, attachments: [{ type: 'image', url: 'https://i.example/a' }], reactions: [{ emoji: '🔥', userIds: ['3'] }], pinnedAt: 9, editedAt: 8 }
    const tombstone = tombstoneOf(full)
    expect(tombstone).toEqual({ ...m1, text: '', attachments: [], deleted: true })
    expect(tombstone).not.toHaveProperty('reactions')
    expect(tombstone).not.toHaveProperty('pinnedAt')
  })
})

interface Setup {
  service: MemoryService
  flow: MessageFlow
  check: KeptPageCheck
  /** What the service held when the page was kept. */
  kept: Message[]
  heard: MessageChange[]
  warnings: string[]
}

function checkOver(count: number): Setup {
  const service = new MemoryService(ME)
  service.addConversation(GROUP)
  const kept = service.writeMany(GROUP, count, '2')
  const flow = new MessageFlow((_event, error) => {
    throw error
  })
  const heard: MessageChange[] = []
  flow.on('changed', (change) => heard.push(change))
  const warnings: string[] = []
  const log = { info: () => undefined, warn: (message: string) => warnings.push(message), error: (message: string) => expect.fail(`logged an error: ${message}`) }
  return { service, flow, check: new KeptPageCheck({ service, flow, log }), kept, heard, warnings }
}

const replacedIn = (heard: MessageChange[]): Message[] => heard.flatMap((change) => (change.kind === 'replaced' ? [change.message] : []))

describe('KeptPageCheck', () => {
  it('reads a newest page again from its first message on, once, and hands on the service’s copy of what changed and tombstones of what is gone', async () => {
    const { service, check, kept, heard } = checkOver(10)
    const newer = service.writeMany(GROUP, 3, '2')
    const edited = { ...at(kept, 2), text: 'edited', editedAt: 1 }
    service.replace(edited)
    service.remove(GROUP, at(kept, 5).id)

    check.newest(GROUP, kept, () => true)
    await check.settled()
    expect(service.callsOf('messagesAfter')).toEqual([[GROUP, (BigInt(at(kept, 0).id) - 1n).toString(), 100]])
    expect(replacedIn(heard)).toEqual([edited, tombstoneOf(at(kept, 5))])
    expect(heard.every((change) => change.kind === 'replaced')).toBe(true)
    expect(ids(replacedIn(heard))).not.toContain(at(newer, 0).id)
  })

  it('leaves the newest kept message alone when the service’s page ends before it: nothing says it is gone rather than not yet listed', async () => {
    const { service, check, kept, heard } = checkOver(5)
    service.remove(GROUP, at(kept, -1).id)
    check.newest(GROUP, kept, () => true)
    await check.settled()
    expect(heard).toEqual([])
  })

  it('reads an older page just older than where it ends, and a short answer makes a tombstone of what is gone from the start', async () => {
    const { service, check, kept, heard } = checkOver(12)
    const page = kept.slice(0, 10)
    const before = at(kept, 10).id
    service.remove(GROUP, at(kept, 0).id)
    const reacted = { ...at(kept, 4), reactions: [{ emoji: '👍', userIds: ['1'] }] }
    service.replace(reacted)

    check.older(GROUP, before, page, 50, () => true)
    await check.settled()
    expect(service.callsOf('messagesBefore')).toEqual([[GROUP, before, 50]])
    expect(replacedIn(heard)).toEqual([reacted, tombstoneOf(at(kept, 0))])
  })

  it('judges nothing older than a full answer reaches', async () => {
    const { service, check, kept, heard } = checkOver(12)
    service.remove(GROUP, at(kept, 0).id)
    // A page of four from the service reaches back to kept[6] only.
    check.older(GROUP, at(kept, 10).id, kept.slice(0, 10), 4, () => true)
    await check.settled()
    expect(heard).toEqual([])
  })

  it('lets a change heard while the read was on its way stand, since it may be newer than the read', async () => {
    const { service, flow, check, kept, heard } = checkOver(6)
    service.replace({ ...at(kept, 1), text: 'first edit', editedAt: 1 })
    service.replace({ ...at(kept, 2), text: 'edited too', editedAt: 1 })
    const release = service.holdNext('messagesAfter')
    check.newest(GROUP, kept, () => true)
    const pushed = { ...at(kept, 1), text: 'second edit', editedAt: 2 }
    flow.changed({ kind: 'replaced', message: pushed })
    release()
    await check.settled()
    expect(replacedIn(heard).map((message) => message.text)).toEqual(['second edit', 'edited too'])
  })

  it('changes nothing, and only warns, when the service is out of reach', async () => {
    const { service, check, kept, heard, warnings } = checkOver(6)
    service.remove(GROUP, at(kept, 2).id)
    service.failNext('messagesAfter', 'NETWORK')
    check.newest(GROUP, kept, () => true)
    await check.settled()
    expect(heard).toEqual([])
    expect(warnings).toEqual([`could not check the kept messages of ${GROUP} against the service`])
  })

  it('hands on nothing once the answer no longer matters (signed out meanwhile)', async () => {
    const { service, check, kept, heard } = checkOver(6)
    service.remove(GROUP, at(kept, 2).id)
    let wanted = true
    const release = service.holdNext('messagesAfter')
    check.newest(GROUP, kept, () => wanted)
    wanted = false
    release()
    await check.settled()
    expect(heard).toEqual([])
  })
})
