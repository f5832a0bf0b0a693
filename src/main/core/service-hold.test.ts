import { describe, expect, it } from 'vitest'
import { KEPT_FIRST_MS, ServiceHold } from './service-hold'
import type { Timers } from './timers'

/** Timers run by hand: `elapse` runs those due. */
class HandTimers implements Timers {
  now = 0
  #waiting: { at: number; task: () => void }[] = []

  after(delayMs: number, task: () => void): () => void {
    const entry = { at: this.now + delayMs, task }
    this.#waiting.push(entry)
    return () => {
      this.#waiting = this.#waiting.filter((waiting) => waiting !== entry)
    }
  }

  elapse(ms: number): void {
    this.now += ms
    const due = this.#waiting.filter((waiting) => waiting.at <= this.now)
    this.#waiting = this.#waiting.filter((waiting) => waiting.at > this.now)
    for (const { task } of due) task()
  }
}

function world() {
  const timers = new HandTimers()
  const hold = new ServiceHold(timers)
  const asked: string[] = []
  const service = hold.holding({ me: async (label: string) => asked.push(label) })
  const settle = () => new Promise((resolve) => setTimeout(resolve, 0))
  return { timers, hold, asked, service, settle }
}

describe('the service held at a start from the device', () => {
  it('goes unheld when nothing holds it', async () => {
    const { asked, service } = world()
    await service.me('at once')
    expect(asked).toEqual(['at once'])
  })

  it(`answers nothing until ${KEPT_FIRST_MS} ms after the kept list is shown, then every call held, in order`, async () => {
    const { timers, hold, asked, service, settle } = world()
    let shown: (kept: boolean) => void = () => {}
    hold.holdWhileShowing(new Promise<boolean>((resolve) => (shown = resolve)))
    const calls = [service.me('first'), service.me('second')]
    await settle()
    expect(asked).toEqual([])

    shown(true)
    await settle()
    timers.elapse(KEPT_FIRST_MS - 1)
    await settle()
    expect(asked).toEqual([])

    timers.elapse(1)
    await Promise.all(calls)
    expect(asked).toEqual(['first', 'second'])
  })

  it('lets calls go as soon as showing finds nothing kept, or fails', async () => {
    for (const showing of [Promise.resolve(false), Promise.reject(new Error('the store could not be read'))]) {
      const { hold, asked, service } = world()
      hold.holdWhileShowing(showing)
      await service.me('after showing')
      expect(asked).toEqual(['after showing'])
    }
  })

  it('lets go at once when asked to, and a hold replaced leaves no timer behind to end the new one early', async () => {
    const { timers, hold, asked, service, settle } = world()
    hold.holdWhileShowing(Promise.resolve(true))
    await settle()
    hold.holdWhileShowing(new Promise<boolean>(() => {}))
    const call = service.me('held again')
    timers.elapse(KEPT_FIRST_MS)
    await settle()
    expect(asked).toEqual([])

    hold.releaseNow()
    await call
    expect(asked).toEqual(['held again'])
  })
})
