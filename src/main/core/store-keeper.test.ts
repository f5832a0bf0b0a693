import { describe, expect, it } from 'vitest'
import type { Conversation } from '@shared/conversations'
import type { Message } from '@shared/messages'
import { MessageFlow } from './message-flow'
import type { LocalStore, LocalStores, StoreCheck } from './ports'
import { CHECK_AFTER_MS, OPEN_FAILED_NOTICE, StoreKeeper, WRITE_FAILED_NOTICE } from './store-keeper'
import { ManualTime } from './testing/manual-time'

const GROUP = '7'

function message(id: string): Message {
  return { id, conversationId: GROUP, sourceGuid: id, senderId: '2', senderName: 'Bea', senderAvatarUrl: null, text: id, attachments: [], createdAt: 1, system: false, aboutUserIds: [], deleted: false }
}

/** A store that records each write as a line, and can be made to fail them. */
class RecordingStore {
  readonly writes: string[] = []
  failing = false
  closed = false

  async keepRun(_conversationId: string, messages: Message[], joins: { after: string | null; before: string | null; reachesStart: boolean }): Promise<void> {
    this.#write(`run ${messages.map((m) => m.id).join(',')} after ${joins.after} before ${joins.before}${joins.reachesStart ? ' from the start' : ''}`)
  }

  async keepMessages(messages: Message[]): Promise<void> {
    this.#write(`alone ${messages.map((m) => m.id).join(',')}`)
  }

  async changeMessage(_conversationId: string, messageId: string, change: { kind: string; pinnedAt?: number | null }): Promise<void> {
    this.#write(`change ${messageId} ${change.kind}${change.pinnedAt === undefined ? '' : ` ${change.pinnedAt}`}`)
  }

  async keepConversations(list: Conversation[]): Promise<void> {
    this.#write(`list ${list.map((c) => c.id).join(',')}`)
  }

  async close(): Promise<void> {
    this.closed = true
  }

  #write(line: string): void {
    if (this.failing) throw new Error('database or disk is full')
    this.writes.push(line)
  }
}

/** A check that answers when the test says, counting how often it was begun. */
function checkToAnswer(): { check: () => Promise<StoreCheck>; begun: () => number; answer: (check: StoreCheck) => Promise<void> } {
  let answer: (check: StoreCheck) => void = () => undefined
  const checked = new Promise<StoreCheck>((resolve) => (answer = resolve))
  let begun = 0
  return {
    check: () => {
      begun += 1
      return checked
    },
    begun: () => begun,
    answer: async (check) => {
      answer(check)
      await checked
    }
  }
}

function rig(options: { opens?: 'fine' | 'setAside' | 'fails'; check?: () => Promise<StoreCheck> } = {}) {
  const time = new ManualTime()
  const flow = new MessageFlow((_event, error) => {
    throw error
  })
  const stores = new Map<string, RecordingStore>()
  const notices: string[] = []
  /** The stores replaced, in order. */
  const replaced: (RecordingStore | null)[] = []
  let replacements = 0
  const localStores: LocalStores = {
    open: async (accountId) => {
      if (options.opens === 'fails') throw new Error('NODE_MODULE_VERSION mismatch')
      const store = new RecordingStore()
      stores.set(accountId, store)
      return {
        store: store as unknown as LocalStore,
        setAside: options.opens === 'setAside' ? 'set aside' : null,
        ...(options.check === undefined ? {} : { check: options.check })
      }
    },
    replaceDamaged: async (accountId, damaged) => {
      await damaged.close()
      const store = new RecordingStore()
      replaced.push(stores.get(accountId) ?? null)
      stores.set(accountId, store)
      return { store: store as unknown as LocalStore, setAside: 'set aside after its check' }
    },
    has: async () => true,
    remove: async (accountId) => void stores.delete(accountId)
  }
  const keeper = new StoreKeeper({
    stores: localStores,
    flow,
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    now: () => time.now,
    notice: (text) => notices.push(text),
    replaced: () => (replacements += 1),
    timers: time
  })
  return { keeper, flow, stores, notices, time, replaced, replacements: () => replacements }
}

describe('StoreKeeper', () => {
  it('keeps what the flow says, in order, waiting for the store to open', async () => {
    const { keeper, flow, stores } = rig()
    const opening = keeper.open('1')
    flow.paged({ conversationId: GROUP, messages: [message('5'), message('6')], end: 'newest', before: null, after: null, atStart: false })
    flow.paged({ conversationId: GROUP, messages: [message('3')], end: 'older', before: '5', after: null, atStart: true })
    flow.changed({ kind: 'deleted', conversationId: GROUP, messageId: '5' })
    await opening
    await keeper.settled()
    expect(stores.get('1')?.writes).toEqual(['run 5,6 after null before null', 'run 3 after null before 5 from the start', 'change 5 deleted'])
  })

  it('joins a pushed message to the history only while push has been live since the history was read', async () => {
    const { keeper, flow, stores } = rig()
    await keeper.open('1')
    keeper.pushLive(true)
    flow.paged({ conversationId: GROUP, messages: [message('5')], end: 'newest', before: null, after: null, atStart: false })
    flow.arrive(message('6'), 'pushed')
    keeper.pushLive(false)
    keeper.pushLive(true)
    flow.arrive(message('8'), 'pushed')
    flow.paged({ conversationId: GROUP, messages: [message('7'), message('8')], end: 'newer', before: null, after: '6', atStart: false })
    flow.arrive(message('9'), 'sent')
    await keeper.settled()
    expect(stores.get('1')?.writes).toEqual(['run 5 after null before null', 'run 6 after 5 before null', 'alone 8', 'alone 7', 'run 7,8 after 6 before null', 'run 9 after 8 before null'])
  })

  it('joins what is sent or pushed next to a history a catch-up found up to date, writing nothing for the catch-up itself', async () => {
    const { keeper, flow, stores } = rig()
    await keeper.open('1')
    keeper.pushLive(true)
    // Opened from the store (no page read) and caught up from its newest kept message, 5: nothing newer.
    flow.paged({ conversationId: GROUP, messages: [], end: 'newer', before: null, after: '5', atStart: false })
    flow.arrive(message('6'), 'sent')
    flow.arrive(message('7'), 'pushed')
    // Found up to date while push was down: what push brings after may follow a gap.
    keeper.pushLive(false)
    flow.paged({ conversationId: GROUP, messages: [], end: 'newer', before: null, after: '7', atStart: false })
    keeper.pushLive(true)
    flow.arrive(message('9'), 'pushed')
    await keeper.settled()
    expect(stores.get('1')?.writes).toEqual(['run 6 after 5 before null', 'run 7 after 6 before null', 'alone 9'])
  })

  it('lets a read of a history wait for the messages kept a moment ago, and not for the list waiting its turn', async () => {
    const { keeper, flow, stores, time } = rig()
    await keeper.open('1')
    keeper.keepConversations([{ id: 'a' } as Conversation])
    flow.arrive(message('7'), 'pushed')
    await keeper.historySettled()
    expect(stores.get('1')?.writes).toEqual(['alone 7'])
    await time.next()
    await keeper.historySettled()
    expect(stores.get('1')?.writes).toEqual(['alone 7', 'list a'])
  })

  it('writes the list a moment after it changes, with whatever came since, and at once when it closes', async () => {
    const { keeper, stores, time } = rig()
    await keeper.open('1')
    keeper.keepConversations([{ id: 'a' } as Conversation])
    keeper.keepConversations([{ id: 'b' } as Conversation])
    await Promise.resolve()
    expect(stores.get('1')?.writes).toEqual([])
    await time.next()
    await keeper.settled()
    keeper.keepConversations([{ id: 'c' } as Conversation])
    await keeper.close()
    expect(stores.get('1')?.writes).toEqual(['list b', 'list c'])
    expect(stores.get('1')?.closed).toBe(true)
  })

  it('keeps a pin with the time it was made here', async () => {
    const { keeper, flow, stores, time } = rig()
    await keeper.open('1')
    flow.changed({ kind: 'pinned', conversationId: GROUP, messageId: '5', pinned: true })
    flow.changed({ kind: 'pinned', conversationId: GROUP, messageId: '5', pinned: false })
    await keeper.settled()
    expect(stores.get('1')?.writes).toEqual([`change 5 pinned ${Math.floor(time.now / 1000)}`, 'change 5 pinned null'])
  })

  it('tells once that writes fail, and goes on', async () => {
    const { keeper, flow, stores, notices } = rig()
    await keeper.open('1')
    const store = stores.get('1')
    if (store) store.failing = true
    flow.arrive(message('1'), 'pushed')
    flow.arrive(message('2'), 'pushed')
    await keeper.settled()
    expect(notices).toEqual([WRITE_FAILED_NOTICE])
  })

  it('tells that nothing will be kept when the store cannot be opened, and that one was set aside', async () => {
    const failing = rig({ opens: 'fails' })
    expect(await failing.keeper.open('1')).toBeNull()
    expect(failing.notices).toEqual([OPEN_FAILED_NOTICE])
    const setAside = rig({ opens: 'setAside' })
    await setAside.keeper.open('1')
    expect(setAside.notices).toEqual(['set aside'])
  })

  it('writes nothing of one account into another’s store, and nothing once closed', async () => {
    const { keeper, flow, stores } = rig()
    await keeper.open('1')
    flow.arrive(message('1'), 'pushed')
    const closing = keeper.close()
    flow.arrive(message('2'), 'pushed')
    await closing
    await keeper.open('2')
    flow.arrive(message('3'), 'pushed')
    await keeper.settled()
    expect(stores.get('1')?.writes).toEqual(['alone 1'])
    expect(stores.get('2')?.writes).toEqual(['alone 3'])
  })

  it('lets what was written while it opened land in it when closed before it opened, then closes it', async () => {
    const { keeper, flow, stores, notices } = rig({ opens: 'setAside' })
    const opening = keeper.open('1')
    flow.arrive(message('1'), 'pushed')
    await keeper.close()
    await opening
    expect(stores.get('1')?.writes).toEqual(['alone 1'])
    expect(stores.get('1')?.closed).toBe(true)
    expect(keeper.store).toBeNull()
    // Nobody is signed in to be told of it any more.
    expect(notices).toEqual([])
  })

  describe('with a store whose check answers after it opens', () => {
    it('replaces a damaged one in turn: what was written since it began to open goes to the new one, then what follows', async () => {
      const check = checkToAnswer()
      const { keeper, flow, stores, notices, replaced, replacements, time } = rig({ check: check.check })
      const opening = keeper.open('1')
      flow.paged({ conversationId: GROUP, messages: [message('5'), message('6')], end: 'newest', before: null, after: null, atStart: false })
      const damaged = await opening
      flow.arrive(message('7'), 'pushed')
      keeper.keepConversations([{ id: 'a' } as Conversation])
      await keeper.settled()
      await time.next()
      await check.answer('damaged')
      flow.arrive(message('8'), 'pushed')
      await keeper.settled()

      expect(replaced).toEqual([damaged])
      expect((damaged as unknown as RecordingStore).closed).toBe(true)
      expect((damaged as unknown as RecordingStore).writes).toEqual(['run 5,6 after null before null', 'alone 7', 'list a'])
      expect(keeper.store).toBe(stores.get('1'))
      expect(stores.get('1')?.writes).toEqual(['run 5,6 after null before null', 'alone 7', 'list a', 'alone 8'])
      expect(notices).toEqual(['set aside after its check'])
      expect(replacements()).toBe(1)
      // Once replaced, nothing more is held back: a later close closes the new store.
      await keeper.close()
      expect(stores.get('1')?.closed).toBe(true)
    })

    it('keeps a store whose check passes, and holds nothing back after it', async () => {
      const check = checkToAnswer()
      const { keeper, flow, stores, notices, replaced, time } = rig({ check: check.check })
      await keeper.open('1')
      flow.arrive(message('1'), 'pushed')
      await time.next()
      await check.answer('whole')
      flow.arrive(message('2'), 'pushed')
      await keeper.settled()
      expect(replaced).toEqual([])
      expect(stores.get('1')?.writes).toEqual(['alone 1', 'alone 2'])
      expect(notices).toEqual([])
    })

    it('tells writes that failed on the damage as the store set aside, not as a full disk', async () => {
      const check = checkToAnswer()
      const { keeper, flow, stores, notices, time } = rig({ check: check.check })
      await keeper.open('1')
      const damaged = stores.get('1')
      if (damaged) damaged.failing = true
      flow.arrive(message('1'), 'pushed')
      await keeper.settled()
      expect(notices).toEqual([])
      await time.next()
      await check.answer('damaged')
      await keeper.settled()
      expect(notices).toEqual(['set aside after its check'])
      expect(stores.get('1')?.writes).toEqual(['alone 1'])
    })

    it('tells writes that failed before a check that passes as failed writes, once', async () => {
      const check = checkToAnswer()
      const { keeper, flow, stores, notices, time } = rig({ check: check.check })
      await keeper.open('1')
      const store = stores.get('1')
      if (store) store.failing = true
      flow.arrive(message('1'), 'pushed')
      flow.arrive(message('2'), 'pushed')
      await keeper.settled()
      await time.next()
      await check.answer('whole')
      await keeper.settled()
      expect(notices).toEqual([WRITE_FAILED_NOTICE])
    })

    it('begins the check CHECK_AFTER_MS after the store opened, not while the start draws its first screen', async () => {
      const check = checkToAnswer()
      const { keeper, time } = rig({ check: check.check })
      await keeper.open('1')
      expect(check.begun()).toBe(0)
      expect(time.delays).toEqual([CHECK_AFTER_MS])
      await time.next()
      expect(check.begun()).toBe(1)
    })

    it('replaces nothing once the store is closed (signed out before its check answered)', async () => {
      const check = checkToAnswer()
      const { keeper, flow, stores, notices, replaced, time } = rig({ check: check.check })
      await keeper.open('1')
      flow.arrive(message('1'), 'pushed')
      await time.next()
      await keeper.close()
      await check.answer('damaged')
      await keeper.settled()
      expect(replaced).toEqual([])
      expect(stores.get('1')?.closed).toBe(true)
      expect(notices).toEqual([])
    })

    it('begins no check of a store closed before its time came', async () => {
      const check = checkToAnswer()
      const { keeper, stores, notices, time } = rig({ check: check.check })
      await keeper.open('1')
      await keeper.close()
      await time.next()
      expect(check.begun()).toBe(0)
      expect(stores.get('1')?.closed).toBe(true)
      expect(notices).toEqual([])
    })
  })
})
