import { describe, expect, it } from 'vitest'
import { RetryTimer } from './retry-timer'
import { ManualTime } from './testing/manual-time'

function retryTimer(): { time: ManualTime; runs: number[]; retry: RetryTimer } {
  const time = new ManualTime()
  const runs: number[] = []
  const retry = new RetryTimer({ firstMs: 1_000, longestMs: 5_000, timers: time }, () => runs.push(time.now - time.start))
  return { time, runs, retry }
}

describe('RetryTimer', () => {
  it('waits twice as long after each failure, up to the longest wait, one run at a time', async () => {
    const { time, runs, retry } = retryTimer()
    for (let failure = 0; failure < 5; failure++) {
      retry.schedule()
      retry.schedule()
      expect(time.pending).toBe(1)
      await time.next()
    }
    expect(runs).toEqual([1_000, 3_000, 7_000, 12_000, 17_000])
  })

  it('waits the first wait again after a success, and runs nothing once cancelled', async () => {
    const { time, runs, retry } = retryTimer()
    retry.schedule()
    await time.next()
    retry.succeeded()
    retry.schedule()
    await time.next()
    expect(runs).toEqual([1_000, 2_000])

    retry.schedule()
    retry.cancel()
    expect(time.pending).toBe(0)
    retry.schedule()
    expect(time.pending).toBe(1)
  })
})
