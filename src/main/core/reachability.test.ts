import { describe, expect, it } from 'vitest'
import { AppError } from './app-error'
import { OFFLINE_AFTER_MS, Reachability, watchingReach } from './reachability'
import { ManualTime } from './testing/manual-time'

const unreachable = new AppError('NETWORK', 'Cannot reach the service.')

function watched(): { time: ManualTime; told: boolean[]; reach: Reachability } {
  const time = new ManualTime()
  const told: boolean[] = []
  const reach = new Reachability({ changed: (offline) => told.push(offline), timers: time })
  return { time, told, reach }
}

describe('Reachability', () => {
  it('counts as offline at once when the service cannot be reached before push ever connected, and online once it connects', () => {
    const { told, reach } = watched()
    reach.pushChanged('connecting')
    expect(reach.offline).toBe(false)
    reach.requestSettled(unreachable)
    expect(reach.offline).toBe(true)
    reach.pushChanged('connected')
    expect(told).toEqual([true, false])
  })

  it('counts as offline when push has not connected within the wait, even with no request failing (a service that does not answer)', async () => {
    const { time, told, reach } = watched()
    reach.pushChanged('connecting')
    expect(time.delays).toEqual([OFFLINE_AFTER_MS])
    await time.next()
    expect(reach.offline).toBe(true)
    expect(told).toEqual([true])
  })

  it('stays reconnecting through a brief drop, failed requests and all, and counts as offline once the drop lasts', async () => {
    const { time, told, reach } = watched()
    reach.pushChanged('connecting')
    reach.pushChanged('connected')
    reach.pushChanged('reconnecting')
    reach.requestSettled(unreachable)
    expect(reach.offline).toBe(false)
    await time.next()
    expect(reach.offline).toBe(true)
    reach.pushChanged('connected')
    expect(told).toEqual([true, false])
  })

  it('is never offline while push is connected, nor once it stops', () => {
    const { told, reach } = watched()
    reach.pushChanged('connected')
    reach.requestSettled(unreachable)
    expect(reach.offline).toBe(false)
    reach.pushChanged('connecting')
    reach.requestSettled(unreachable)
    reach.pushChanged('offline')
    expect(told).toEqual([true, false])
  })

  it('takes an answer from the service, a refusal too, as the service being there: push gets the wait again', async () => {
    const { time, reach } = watched()
    reach.pushChanged('connecting')
    reach.requestSettled(unreachable)
    expect(reach.offline).toBe(true)
    reach.requestSettled(new AppError('FORBIDDEN', 'No.'))
    expect(reach.offline).toBe(false)
    expect(time.pending).toBe(1)
    await time.next()
    expect(reach.offline).toBe(true)
  })

  it('hears of every call of a watched service, and passes its answer or failure on as it was', async () => {
    const { reach } = watched()
    reach.pushChanged('connecting')
    const service = watchingReach({ fails: () => Promise.reject(unreachable), answers: () => Promise.resolve(7) }, reach)
    await expect(service.fails()).rejects.toBe(unreachable)
    expect(reach.offline).toBe(true)
    await expect(service.answers()).resolves.toBe(7)
    expect(reach.offline).toBe(false)
  })
})
