import { describe, expect, it } from 'vitest'
import { AppError } from './app-error'
import { FIRST_CHECK_DELAY_MS, LONGEST_CHECK_DELAY_MS, TextRoutePoll, VERIFICATION_LIFETIME_MS } from './text-route-poll'
import { ManualTime } from './testing/manual-time'

function pollWith(answers: (() => Promise<boolean>)[], options: { finishes?: boolean[] } = {}) {
  const time = new ManualTime()
  const seen: string[] = []
  const finishes = [...(options.finishes ?? [true])]
  const poll = new TextRoutePoll({
    read: () => (answers.shift() ?? (async () => false))(),
    expiresAt: time.now + VERIFICATION_LIFETIME_MS,
    now: () => time.now,
    timers: time,
    checked: (at) => void seen.push(`checked ${at - time.start}`),
    verified: async () => {
      seen.push('verified')
      return finishes.shift() ?? true
    },
    expired: () => void seen.push('expired'),
    failed: (error) => void seen.push(`failed ${(error as AppError).code}`)
  })
  return { poll, time, seen }
}

const waiting = async (): Promise<boolean> => false
const verified = async (): Promise<boolean> => true
const gone = async (): Promise<boolean> => {
  throw new AppError('NOT_FOUND', 'gone')
}
const unreachable = async (): Promise<boolean> => {
  throw new AppError('NETWORK', 'offline')
}

describe('TextRoutePoll', () => {
  it('checks after a second, then less and less often up to every five seconds, until the text arrives', async () => {
    const { poll, time, seen } = pollWith([waiting, waiting, waiting, waiting, waiting, waiting, verified])
    poll.start()
    for (let check = 0; check < 7; check += 1) await time.next()

    expect(time.delays).toEqual([FIRST_CHECK_DELAY_MS, 1500, 2250, 3375, LONGEST_CHECK_DELAY_MS, LONGEST_CHECK_DELAY_MS, LONGEST_CHECK_DELAY_MS])
    expect(seen).toEqual(['checked 1000', 'checked 2500', 'checked 4750', 'checked 8125', 'checked 13125', 'checked 18125', 'verified'])
    expect(time.pending).toBe(0)
  })

  it('keeps checking when finishing the sign-in failed, and when a check could not reach the service', async () => {
    const { poll, time, seen } = pollWith([unreachable, verified, verified], { finishes: [false, true] })
    poll.start()
    await time.next()
    await time.next()
    await time.next()
    expect(seen).toEqual(['failed NETWORK', 'verified', 'verified'])
    expect(time.pending).toBe(0)
  })

  it('stops at the expiry, having waited no longer than up to it', async () => {
    const { poll, time, seen } = pollWith([])
    poll.start()
    while (!seen.includes('expired')) await time.next()
    expect(time.now - time.start).toBe(VERIFICATION_LIFETIME_MS)
    expect(seen.filter((event) => event !== 'expired').every((event) => event.startsWith('checked'))).toBe(true)
    expect(time.pending).toBe(0)
  })

  it('stops when the service no longer knows the verification', async () => {
    const { poll, time, seen } = pollWith([waiting, gone])
    poll.start()
    await time.next()
    await time.next()
    expect(seen).toEqual(['checked 1000', 'expired'])
    expect(time.pending).toBe(0)
  })

  it('checks no more once stopped, even with an answer on its way', async () => {
    let answer: (verified: boolean) => void = () => undefined
    const { poll, time, seen } = pollWith([() => new Promise<boolean>((resolve) => (answer = resolve))])
    poll.start()
    await time.next()
    poll.stop()
    answer(true)
    for (let turn = 0; turn < 10; turn += 1) await Promise.resolve()
    expect(seen).toEqual([])
    expect(time.pending).toBe(0)
  })
})
