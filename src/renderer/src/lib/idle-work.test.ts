import { describe, expect, it } from 'vitest'
import { IdleWork, type IdleDeadline } from './idle-work'

/** An idle scheduler run by hand: each `idle(ms)` runs the waiting callback with that much time left, spent by `spend`. */
function manualIdle() {
  let waiting: ((deadline: IdleDeadline) => void) | null = null
  let left = 0
  return {
    schedule: (callback: (deadline: IdleDeadline) => void) => {
      waiting = callback
    },
    get scheduled() {
      return waiting !== null
    },
    idle(ms: number) {
      const callback = waiting
      waiting = null
      left = ms
      callback?.({ timeRemaining: () => left })
    },
    spend(ms: number) {
      left = Math.max(0, left - ms)
    }
  }
}

describe('IdleWork', () => {
  it('runs nothing until the page is idle, then the jobs in the order they came', () => {
    const idle = manualIdle()
    const work = new IdleWork({ schedule: idle.schedule })
    const ran: number[] = []
    for (const n of [1, 2, 3]) work.add(() => ran.push(n))

    expect(ran).toEqual([])
    idle.idle(50)
    expect(ran).toEqual([1, 2, 3])
    expect(work.pending).toBe(0)
    expect(idle.scheduled).toBe(false)
  })

  it('stops when little time is left and goes on in the next idle time, a couple of jobs at least each time', () => {
    const idle = manualIdle()
    const work = new IdleWork({ schedule: idle.schedule })
    const ran: number[] = []
    for (let n = 0; n < 10; n++)
      work.add(() => {
        ran.push(n)
        idle.spend(4)
      })

    idle.idle(10)
    // 10 ms: two jobs leave 2 ms, too little for a third.
    expect(ran).toEqual([0, 1])
    expect(idle.scheduled).toBe(true)
    idle.idle(0)
    expect(ran).toEqual([0, 1, 2, 3])
    idle.idle(100)
    expect(ran).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9])
  })

  it('drops a job taken back before it ran, and only that one', () => {
    const idle = manualIdle()
    const work = new IdleWork({ schedule: idle.schedule })
    const ran: string[] = []
    const job = (): void => void ran.push('same')
    work.add(job)
    const cancel = work.add(job)
    work.add(() => ran.push('last'))

    cancel()
    idle.idle(50)
    expect(ran).toEqual(['same', 'last'])
  })

  it('hands over after each job, so that what it changed is drawn within the idle time', () => {
    const idle = manualIdle()
    const events: string[] = []
    const work = new IdleWork({ schedule: idle.schedule, afterJobs: () => events.push('flush') })
    work.add(() => events.push('a'))
    work.add(() => events.push('b'))

    idle.idle(50)
    expect(events).toEqual(['a', 'flush', 'b', 'flush'])
  })

  it('holds every job back while postponed, however idle the page, and runs them once the time is up', () => {
    const idle = manualIdle()
    let now = 1_000
    const timers: { at: number; callback: () => void }[] = []
    const work = new IdleWork({ schedule: idle.schedule, now: () => now, setTimer: (callback, ms) => timers.push({ at: now + ms, callback }) })
    const ran: number[] = []
    work.add(() => ran.push(1))
    work.postpone(400)
    work.postpone(100)

    idle.idle(50)
    expect(ran).toEqual([])
    expect(idle.scheduled).toBe(false)
    expect(timers.map((timer) => timer.at)).toEqual([1_400])

    now = 1_400
    timers.shift()?.callback()
    expect(idle.scheduled).toBe(true)
    idle.idle(50)
    expect(ran).toEqual([1])
  })

  it('runs its jobs in a browser without idle callbacks too', async () => {
    const work = new IdleWork()
    const done = new Promise<void>((resolve) => work.add(resolve))
    await expect(done).resolves.toBeUndefined()
  })
})
