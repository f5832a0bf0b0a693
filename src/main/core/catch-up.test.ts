import { describe, expect, it } from 'vitest'
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

function rig(loaded: string[], open: string | null): Rig {
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
      }
    },
    conversations: { markRead: (conversationId) => log.push(`read mark ${conversationId}`) },
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
    expect(log).toEqual(['outbox resumed', 'read g1', 'read g2', 'list fetched', 'read mark g2'])
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
})
