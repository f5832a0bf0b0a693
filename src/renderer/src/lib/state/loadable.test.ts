import { describe, expect, it } from 'vitest'
import type { BlockedUser } from '@shared/people'
import { FakeApi } from '../../testing/fake-api'
import { call } from '../main-process'
import { Loadable } from './loadable.svelte'

const grace: BlockedUser = { id: 'u2', name: 'Grace Hopper', avatarUrl: null, blockedAt: 1_700_000_000 }
const alan: BlockedUser = { id: 'u3', name: 'Alan Turing', avatarUrl: null, blockedAt: 1_700_000_100 }

function blocked(options: { status?: 'idle' | 'loading'; describe?: (error: unknown) => string; whenBack?: (() => void) | null } = {}): Loadable<BlockedUser[]> {
  return new Loadable({ initial: [], fetch: () => call('people:blocked', {}), ...options })
}

/** Lets the answers already given settle, and the model with them. */
const settled = (): Promise<void> => new Promise((resolve) => setTimeout(resolve, 0))

describe('Loadable', () => {
  it('starts with its initial value, idle unless told it loads as it opens', () => {
    new FakeApi().install()
    expect(blocked()).toMatchObject({ value: [], status: 'idle', error: null })
    expect(blocked({ status: 'loading' }).status).toBe('loading')
  })

  it('says it is loading, then shows the answer', async () => {
    const fake = new FakeApi().install()
    const held = fake.holds('people:blocked')
    const list = blocked()
    const loading = list.load()
    expect(list.status).toBe('loading')
    held.resolve([grace])
    expect(await loading).toBe(true)
    expect(list).toMatchObject({ value: [grace], status: 'ready', error: null })
  })

  it('says why a load failed, in the service’s words or its own, and keeps what it had', async () => {
    const fake = new FakeApi().returns('people:blocked', [grace]).install()
    const list = blocked()
    await list.load()
    fake.fails('people:blocked', 'FORBIDDEN', 'You may not see this.')
    expect(await list.load()).toBe(false)
    expect(list).toMatchObject({ value: [grace], status: 'error', error: 'You may not see this.' })

    const worded = blocked({ describe: () => 'The blocked users could not be loaded.' })
    await worded.load()
    expect(worded.error).toBe('The blocked users could not be loaded.')
  })

  it('clears the failure when it loads again', async () => {
    const fake = new FakeApi().fails('people:blocked', 'INTERNAL', 'Broken.').install()
    const list = blocked()
    await list.load()
    fake.returns('people:blocked', [alan])
    await list.load()
    expect(list).toMatchObject({ value: [alan], status: 'ready', error: null })
  })

  it('drops the answer of a load that a later one overtook', async () => {
    const fake = new FakeApi().install()
    const slow = fake.holds('people:blocked')
    const list = blocked()
    const first = list.load()
    fake.returns('people:blocked', [alan])
    await list.load()
    slow.resolve([grace])
    expect(await first).toBe(false)
    expect(list.value).toEqual([alan])
  })

  it('hands a fresh answer to its owner before showing it, and not one that was overtaken', async () => {
    const fake = new FakeApi().install()
    const taken: { users: BlockedUser[]; shown: BlockedUser[] }[] = []
    const list: Loadable<BlockedUser[]> = new Loadable({
      initial: [],
      fetch: () => call('people:blocked', {}),
      onLoaded: (users) => {
        taken.push({ users, shown: list.value })
      }
    })
    const slow = fake.holds('people:blocked')
    const first = list.load()
    fake.returns('people:blocked', [alan])
    await list.load()
    slow.resolve([grace])
    await first
    expect(taken).toEqual([{ users: [alan], shown: [] }])
  })

  it('keeps a value it was given over a load still on its way', async () => {
    const fake = new FakeApi().install()
    const slow = fake.holds('people:blocked')
    const list = blocked()
    const loading = list.load()
    list.set([alan])
    expect(list.status).toBe('ready')
    slow.resolve([grace])
    await loading
    expect(list.value).toEqual([alan])
  })

  it('lets what is shown be edited, and a load on its way still brings what the service says', async () => {
    const fake = new FakeApi().returns('people:blocked', [grace, alan]).install()
    const list = blocked()
    await list.load()
    const held = fake.holds('people:blocked')
    const loading = list.load()
    list.edit((users) => users.filter((user) => user.id !== grace.id))
    expect(list.value).toEqual([alan])
    held.resolve([grace])
    expect(await loading).toBe(true)
    expect(list).toMatchObject({ value: [grace], status: 'ready' })
  })

  it('refreshes behind what it shows, and says Loading… only while nothing is shown', async () => {
    const fake = new FakeApi().install()
    let held = fake.holds('people:blocked')
    const list = blocked()
    const first = list.refresh()
    expect(list.status).toBe('loading')
    held.resolve([grace])
    await first

    held = fake.holds('people:blocked')
    const second = list.refresh()
    expect(list.status).toBe('ready')
    expect(list.value).toEqual([grace])
    held.resolve([alan])
    await second
    expect(list.value).toEqual([alan])
  })

  it('goes back to how it started on reset, and an answer still on its way does not change that', async () => {
    const fake = new FakeApi().install()
    const held = fake.holds('people:blocked')
    const list = blocked()
    const loading = list.load()
    list.reset()
    held.resolve([grace])
    expect(await loading).toBe(false)
    expect(list).toMatchObject({ value: [], status: 'idle', error: null })
  })

  it('loads again by itself once the service is back, when it was out of reach', async () => {
    const fake = new FakeApi().fails('people:blocked', 'NETWORK', 'The service cannot be reached.').install()
    const list = blocked()
    await list.load()
    fake.returns('people:blocked', [grace])
    fake.emit('push:status', 'reconnecting')
    expect(fake.callsTo('people:blocked')).toHaveLength(1)
    fake.emit('push:status', 'connected')
    await settled()
    expect(fake.callsTo('people:blocked')).toHaveLength(2)
    expect(list).toMatchObject({ value: [grace], status: 'ready' })
    // Once only: the next reconnect asks for nothing.
    fake.emit('push:status', 'connected')
    expect(fake.callsTo('people:blocked')).toHaveLength(2)
  })

  it('does not ask again after a refusal, nor once stopped, nor when told not to', async () => {
    const fake = new FakeApi().fails('people:blocked', 'FORBIDDEN', 'No.').install()
    const refused = blocked()
    await refused.load()

    fake.fails('people:blocked', 'NETWORK', 'The service cannot be reached.')
    const stopped = blocked()
    await stopped.load()
    stopped.stop()
    const manual = blocked({ whenBack: null })
    await manual.load()

    fake.emit('push:status', 'connected')
    await settled()
    expect(fake.callsTo('people:blocked')).toHaveLength(3)
    expect(fake.listenerCount('push:status')).toBe(0)
  })

  it('hands the reconnect to its owner where the owner says so', async () => {
    const fake = new FakeApi().fails('people:blocked', 'NETWORK', 'The service cannot be reached.').install()
    let called = 0
    const list = blocked({ whenBack: () => called++ })
    await list.load()
    fake.emit('push:status', 'connected')
    expect(called).toBe(1)
    expect(fake.callsTo('people:blocked')).toHaveLength(1)
  })
})
