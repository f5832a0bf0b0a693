import { describe, expect, it } from 'vitest'
import type { ConversationId } from '@shared/conversation-id'
import type { Draft } from '@shared/drafts'
import { DraftKeeper } from './drafts'
import type { LocalStore, LocalStores } from './ports'
import { StoreKeeper, WRITE_FAILED_NOTICE } from './store-keeper'

const GROUP = '7001' as ConversationId
const CHAT = '42+77' as ConversationId
const PICTURE = { id: 'b7d1c3c2-5c5e-4c53-9d43-1f0e4c1d2a10', name: 'quarry.png', contentType: 'image/png' as const, url: 'https://i.example/quarry.png' }

/** The drafts part of a store, in memory; `failing` makes every write throw as a full disk does. */
class DraftsOnly {
  readonly kept = new Map<ConversationId, Draft>()
  failing = false
  /** Holds the read of the drafts until released, as a store that is slow to open would. */
  hold: Promise<void> = Promise.resolve()

  async drafts(): Promise<Draft[]> {
    await this.hold
    return [...this.kept.values()]
  }

  async keepDraft(draft: Draft): Promise<void> {
    this.#write()
    this.kept.set(draft.conversationId, draft)
  }

  async forgetDraft(conversationId: ConversationId): Promise<void> {
    this.#write()
    this.kept.delete(conversationId)
  }

  async close(): Promise<void> {}

  #write(): void {
    if (this.failing) throw Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' })
  }
}

function world(store: DraftsOnly | null = new DraftsOnly()) {
  const notices: string[] = []
  const stores: LocalStores = {
    open: async () => {
      if (store === null) throw new Error('cannot open')
      return { store: store as unknown as LocalStore, setAside: null }
    },
    replaceDamaged: () => Promise.reject(new Error('not here')),
    has: async () => store !== null,
    remove: async () => undefined
  }
  const keeper = new StoreKeeper({ stores, flow: { on: () => () => undefined }, log: { info: () => {}, warn: () => {}, error: () => {} }, now: () => 0, notice: (text) => notices.push(text) })
  let clock = 100
  const drafts = new DraftKeeper({ keeper, now: () => (clock += 1) })
  const signIn = (accountId = '42'): void => {
    void keeper.open(accountId)
    drafts.signedIn(accountId)
  }
  return { keeper, drafts, notices, signIn }
}

describe('drafts', () => {
  it('are read back from the store at sign-in, newest first, and each change is written into it', async () => {
    const store = new DraftsOnly()
    store.kept.set(CHAT, { conversationId: CHAT, text: 'from before', pictures: [], savedAt: 50 })
    const { keeper, drafts, signIn } = world(store)
    signIn()
    drafts.keep(GROUP, 'half a thought', [PICTURE])
    expect(await drafts.list()).toEqual([
      { conversationId: GROUP, text: 'half a thought', pictures: [PICTURE], savedAt: 101 },
      { conversationId: CHAT, text: 'from before', pictures: [], savedAt: 50 }
    ])
    drafts.keep(CHAT, '  ', [])
    await keeper.settled()
    expect([...store.kept.keys()]).toEqual([GROUP])
    expect(await drafts.list()).toHaveLength(1)
  })

  it('never bring back from the store a draft sent or erased while it was opening', async () => {
    const store = new DraftsOnly()
    store.kept.set(GROUP, { conversationId: GROUP, text: 'sent meanwhile', pictures: [], savedAt: 50 })
    let release = (): void => undefined
    store.hold = new Promise((resolve) => (release = resolve))
    const { keeper, drafts, signIn } = world(store)
    signIn()
    drafts.keep(GROUP, '', [])
    release()
    expect(await drafts.list()).toEqual([])
    await keeper.settled()
    expect(store.kept.size).toBe(0)
  })

  it('still hold every draft when the store cannot be written, and the person is told once', async () => {
    const store = new DraftsOnly()
    const { keeper, drafts, notices, signIn } = world(store)
    signIn()
    await drafts.list()
    store.failing = true
    drafts.keep(GROUP, 'typed on a full disk', [PICTURE])
    drafts.keep(CHAT, 'and here', [])
    await keeper.settled()
    expect((await drafts.list()).map((draft) => draft.text).sort()).toEqual(['and here', 'typed on a full disk'])
    expect(store.kept.size).toBe(0)
    await expect.poll(() => notices).toEqual([WRITE_FAILED_NOTICE])
  })

  it('are all written again into a store made anew in place of a damaged one', async () => {
    const store = new DraftsOnly()
    const { keeper, drafts, signIn } = world(store)
    signIn()
    drafts.keep(GROUP, 'half a thought', [PICTURE])
    drafts.keep(CHAT, 'and another', [])
    await keeper.settled()
    // What the new store holds: nothing, until the drafts are written again.
    store.kept.clear()
    drafts.rewrite()
    await keeper.settled()
    expect([...store.kept.values()].map((draft) => draft.text).sort()).toEqual(['and another', 'half a thought'])
  })

  it('last the run in memory when no store can be opened', async () => {
    const { drafts, signIn } = world(null)
    signIn()
    drafts.keep(GROUP, 'nowhere to keep it', [])
    expect((await drafts.list()).map((draft) => draft.text)).toEqual(['nowhere to keep it'])
  })

  it('last the run in memory in an app that keeps nothing on the device', async () => {
    const drafts = new DraftKeeper({ keeper: null, now: () => 1 })
    drafts.signedIn('42')
    drafts.keep(GROUP, 'kept in memory', [])
    expect(await drafts.list()).toEqual([{ conversationId: GROUP, text: 'kept in memory', pictures: [], savedAt: 1 }])
  })

  it("wait for the same account after an expired session, and go when another account or a sign-out by the user comes", async () => {
    const drafts = new DraftKeeper({ keeper: null, now: () => 1 })
    drafts.signedIn('42')
    drafts.keep(GROUP, 'mine', [])
    drafts.signedOut(false)
    expect(await drafts.list()).toEqual([])
    drafts.signedIn('42')
    expect((await drafts.list()).map((draft) => draft.text)).toEqual(['mine'])
    drafts.signedOut(true)
    drafts.signedIn('42')
    expect(await drafts.list()).toEqual([])
    drafts.keep(GROUP, 'mine again', [])
    drafts.signedOut(false)
    drafts.signedIn('77')
    expect(await drafts.list()).toEqual([])
  })
})
