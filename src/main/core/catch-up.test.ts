import { describe, expect, it, vi } from 'vitest'
import type { Conversation } from '@shared/conversations'
import { AppError } from './app-error'
import { CatchUp } from './catch-up'
import { ManualTime } from './testing/manual-time'

interface Rig {
  time: ManualTime
  catchUp: CatchUp
  /** What happened, in order. */
  log: string[]
  /** Conversations whose next read fails. */
  failing: Set<string>
  signedIn: { now: boolean }
}

/** A conversation of the list: its id and newest message. */
type Listed = { id: string; lastMessageId: string | null }

function rig(loaded: string[], open: string | null, kept: { list: Listed[]; points: Map<string, string> } | null = null): Rig {
  const time = new ManualTime()
  const log: string[] = []
  const failing = new Set<string>()
  const signedIn = { now: true }
  const catchUp = new CatchUp({
    timelines: {
      loadedConversations: () => loaded,
      catchUp: async (conversationId) => {
        log.push(`read ${conversationId}`)
        if (failing.delete(conversationId)) throw new AppError('NETWORK', 'lost on the way')
      },
      upToDate: (conversationId, keptThrough) => log.push(`up to date ${conversationId} at ${keptThrough}`),
      catchUpKept: async (conversationId, keptThrough) => {
        log.push(`read kept ${conversationId} after ${keptThrough}`)
        if (failing.delete(conversationId)) throw new AppError('NETWORK', 'lost on the way')
      }
    },
    conversations: {
      markRead: (conversationId) => log.push(`read mark ${conversationId}`),
      list: () => (kept?.list ?? []) as Conversation[]
    },
    kept: () => (kept === null ? null : { syncPoints: async () => kept.points }),
    caughtUp: () => log.push('caught up'),
    opened: { id: open },
    outbox: { resume: () => log.push('outbox resumed') },
    signedIn: () => signedIn.now,
    refreshConversations: async () => log.push('list fetched'),
    log: { info: () => undefined, warn: () => undefined, error: () => undefined },
    timers: time
  })
  return { time, catchUp, log, failing, signedIn }
}

describe('catching up', () => {
  it('sends the outbox on, reads every loaded conversation, fetches the list and marks the open one read', async () => {
    const { catchUp, log, time } = rig(['g1', 'g2'], 'g2')
    await catchUp.run()
    expect(log).toEqual(['outbox resumed', 'read g1', 'read g2', 'list fetched', 'read mark g2', 'caught up'])
    expect(time.pending).toBe(0)
  })

  it('reads again on a timer when a read failed, and not once cancelled', async () => {
    const { catchUp, log, time, failing } = rig(['g1'], null)
    failing.add('g1')
    await catchUp.run()
    expect(time.pending).toBe(1)
    log.length = 0
    await time.next()
    await Promise.resolve()
    expect(log[0]).toBe('outbox resumed')
    expect(log).toContain('read g1')

    failing.add('g1')
    await catchUp.run()
    catchUp.cancel()
    expect(time.pending).toBe(0)
  })

  it('does nothing while nobody is signed in, and schedules nothing for one who signed out meanwhile', async () => {
    const { catchUp, log, time, failing, signedIn } = rig(['g1'], null)
    signedIn.now = false
    await catchUp.run()
    expect(log).toEqual([])

    signedIn.now = true
    failing.add('g1')
    const running = catchUp.run()
    signedIn.now = false
    await running
    expect(time.pending).toBe(0)
  })

  it('then reads, newest listed first and one at a time, each kept conversation the list says has news, from its newest kept message, and says the others are up to date', async () => {
    const list = [
      { id: 'g3', lastMessageId: '90' },
      { id: 'g1', lastMessageId: '50' },
      { id: 'g2', lastMessageId: '70' },
      { id: 'g4', lastMessageId: '20' },
      { id: 'g5', lastMessageId: null }
    ]
    const points = new Map([
      ['g1', '50'],
      ['g2', '60'],
      ['g3', '80'],
      ['g5', '5']
    ])
    const { catchUp, log } = rig(['g9'], null, { list, points })
    await catchUp.run()
    expect(log).toEqual(['outbox resumed', 'read g9', 'list fetched', 'read kept g3 after 80', 'up to date g1 at 50', 'read kept g2 after 60', 'caught up'])
  })

  it('leaves a conversation open this run to its own catch-up', async () => {
    const { catchUp, log } = rig(['g1'], 'g1', { list: [{ id: 'g1', lastMessageId: '9' }], points: new Map([['g1', '3']]) })
    await catchUp.run()
    expect(log.filter((line) => line.startsWith('read kept'))).toEqual([])
  })

  it('tries a kept conversation again later when it could not be read, and says nothing is caught up', async () => {
    const { catchUp, log, time, failing } = rig([], null, { list: [{ id: 'g1', lastMessageId: '9' }], points: new Map([['g1', '3']]) })
    failing.add('g1')
    await catchUp.run()
    expect(log).not.toContain('caught up')
    expect(time.pending).toBe(1)
    await time.next()
    await vi.waitFor(() => expect(log.at(-1)).toBe('caught up'))
  })
})
