import { describe, expect, it } from 'vitest'
import { backOffScheduler, backOffSeconds } from './back-off'

const backOff = { initialSeconds: 1, maxSeconds: 30 }

describe('backOffSeconds', () => {
  it('doubles from the first retry up to the ceiling', () => {
    expect([0, 1, 2, 3, 4, 5, 6, 7].map((attempts) => backOffSeconds(backOff, attempts))).toEqual([1, 1, 2, 4, 8, 16, 30, 30])
    expect([1, 2, 3].map((attempts) => backOffSeconds({ initialSeconds: 0.2, maxSeconds: 0.5 }, attempts))).toEqual([0.2, 0.4, 0.5])
  })
})

describe('backOffScheduler', () => {
  it('keeps faye’s timeout and backs off between the tries of one message', () => {
    const Scheduler = backOffScheduler(backOff, () => false)
    const scheduler = new Scheduler({ channel: '/meta/connect' }, { timeout: 60, interval: 1 })
    expect(scheduler.getTimeout()).toBe(60)
    const intervals: number[] = []
    for (let tries = 0; tries < 4; tries += 1) {
      scheduler.send()
      intervals.push(scheduler.getInterval())
    }
    expect(intervals).toEqual([1, 2, 4, 8])
  })

  it('stops after the attempts or past the deadline a message was given', () => {
    let now = 1_000
    const Scheduler = backOffScheduler(backOff, () => false, () => now)
    const once = new Scheduler({ channel: '/group/42' }, { timeout: 60, interval: 1, attempts: 1 })
    expect(once.isDeliverable()).toBe(true)
    once.send()
    expect(once.isDeliverable()).toBe(false)
    const timed = new Scheduler({ channel: '/group/42' }, { timeout: 60, interval: 1, deadline: 2_000 })
    expect(timed.isDeliverable()).toBe(true)
    now = 2_001
    expect(timed.isDeliverable()).toBe(false)
  })

  it('once closed, lets only the goodbye out, and only once', () => {
    let closed = false
    const Scheduler = backOffScheduler(backOff, () => closed)
    const connect = new Scheduler({ channel: '/meta/connect' }, { timeout: 60, interval: 1 })
    const goodbye = new Scheduler({ channel: '/meta/disconnect' }, { timeout: 60, interval: 1 })
    expect(connect.isDeliverable()).toBe(true)
    closed = true
    expect(connect.isDeliverable()).toBe(false)
    expect(goodbye.isDeliverable()).toBe(true)
    goodbye.send()
    expect(goodbye.isDeliverable()).toBe(false)
    expect(new Scheduler('not a message', { timeout: 60, interval: 1 }).isDeliverable()).toBe(false)
  })
})
