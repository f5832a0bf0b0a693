import { describe, expect, it } from 'vitest'
import { ArrivalAnnouncer, arrivalText, type Arrival } from './arrival-announcer'

const from = (senderName: string, text = 'Hello'): Arrival => ({ senderName, text, system: false })
const line = (text: string): Arrival => ({ senderName: 'GroupMe', text, system: true })

describe('arrivalText', () => {
  it('reads one message with its sender, a service line as it is', () => {
    expect(arrivalText([from('Grace', 'Lunch?')])).toBe('Grace: Lunch?')
    expect(arrivalText([line('Alan joined the group')])).toBe('Alan joined the group')
    expect(arrivalText([from('Grace', '')])).toBe('New message from Grace')
    expect(arrivalText([])).toBe('')
  })

  it('counts several and names their senders once each, in the order they wrote', () => {
    expect(arrivalText([from('Grace'), from('Alan'), from('Grace')])).toBe('3 new messages from Grace and Alan')
    expect(arrivalText([from('Grace'), from('Grace')])).toBe('2 new messages from Grace')
    expect(arrivalText([from('Grace'), from('Alan'), from('Ada')])).toBe('3 new messages from Grace, Alan and Ada')
    expect(arrivalText([from('Grace'), from('Alan'), from('Ada'), from('Edsger'), from('Barbara')])).toBe(
      '5 new messages from Grace, Alan and 3 others'
    )
  })

  it('leaves service lines out of the senders', () => {
    expect(arrivalText([from('Grace'), line('Alan joined the group')])).toBe('2 new messages from Grace')
    expect(arrivalText([line('Alan joined the group'), line('Ada left the group')])).toBe('2 new messages')
  })
})

/** A clock and timers run by hand. */
function manualTime() {
  let now = 0
  let timers: { at: number; run: () => void; id: number }[] = []
  let nextId = 1
  return {
    now: () => now,
    setTimer: (run: () => void, ms: number) => {
      const id = nextId++
      timers.push({ at: now + ms, run, id })
      return id
    },
    clearTimer: (id: unknown) => {
      timers = timers.filter((timer) => timer.id !== id)
    },
    advance(ms: number) {
      now += ms
      const due = timers.filter((timer) => timer.at <= now)
      timers = timers.filter((timer) => timer.at > now)
      for (const timer of due) timer.run()
    },
    get pending() {
      return timers.length
    }
  }
}

describe('ArrivalAnnouncer', () => {
  function started() {
    const time = manualTime()
    const said: string[] = []
    const announcer = new ArrivalAnnouncer({ say: (text) => said.push(text), everyMs: 3_000, ...time })
    return { time, said, announcer }
  }

  it('says the first arrival at once', () => {
    const { said, announcer } = started()
    announcer.add([from('Grace', 'Lunch?')])
    expect(said).toEqual(['Grace: Lunch?'])
  })

  it('gathers what arrives within the interval and says it together once the interval is up', () => {
    const { time, said, announcer } = started()
    announcer.add([from('Grace', 'One')])
    time.advance(500)
    announcer.add([from('Alan', 'Two')])
    time.advance(500)
    announcer.add([from('Grace', 'Three'), from('Ada', 'Four')])
    expect(said).toEqual(['Grace: One'])
    time.advance(1_999)
    expect(said).toEqual(['Grace: One'])
    time.advance(1)
    expect(said).toEqual(['Grace: One', '3 new messages from Alan, Grace and Ada'])
  })

  it('never says more than once an interval in a steady stream', () => {
    const time = manualTime()
    const saidAt: number[] = []
    const announcer = new ArrivalAnnouncer({ say: () => saidAt.push(time.now()), everyMs: 3_000, ...time })
    for (let ms = 0; ms < 30_000; ms += 250) {
      announcer.add([from('Grace', `At ${ms}`)])
      time.advance(250)
    }
    expect(saidAt).toEqual(Array.from({ length: 11 }, (_, index) => index * 3_000))
    for (let index = 1; index < saidAt.length; index++) expect((saidAt[index] ?? 0) - (saidAt[index - 1] ?? 0)).toBeGreaterThanOrEqual(3_000)
  })

  it('says a lone arrival at once again after a quiet interval', () => {
    const { time, said, announcer } = started()
    announcer.add([from('Grace', 'One')])
    time.advance(3_000)
    announcer.add([from('Alan', 'Two')])
    expect(said).toEqual(['Grace: One', 'Alan: Two'])
  })

  it('says nothing of what waited once stopped', () => {
    const { time, said, announcer } = started()
    announcer.add([from('Grace', 'One')])
    announcer.add([from('Alan', 'Two')])
    announcer.stop()
    expect(time.pending).toBe(0)
    time.advance(10_000)
    expect(said).toEqual(['Grace: One'])
  })
})
