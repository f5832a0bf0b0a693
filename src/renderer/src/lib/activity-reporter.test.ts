import { fireEvent, screen } from '@testing-library/svelte'
import { afterEach, describe, expect, it } from 'vitest'
import { FakeApi, me } from '../testing/fake-api'
import { startApp } from '../testing/start-app'
import { ACTIVITY_REPORT_INTERVAL_MS, reportActivity } from './activity-reporter'

let visibility: DocumentVisibilityState = 'visible'
Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility })

function setVisibility(state: DocumentVisibilityState): void {
  visibility = state
  document.dispatchEvent(new Event('visibilitychange'))
}

let stop = (): void => {}

afterEach(() => {
  stop()
  visibility = 'visible'
})

function started(): { reports: number[]; advance: (ms: number) => void } {
  let time = 1_000_000
  const reports: number[] = []
  stop = reportActivity({ report: () => reports.push(time), now: () => time })
  return { reports, advance: (ms) => (time += ms) }
}

describe('activity for automatic away', () => {
  it('reports input of every kind', async () => {
    for (const fire of [
      () => fireEvent.keyDown(document.body, { key: 'a' }),
      () => fireEvent.pointerDown(document.body),
      () => fireEvent.pointerMove(document.body),
      () => fireEvent.wheel(document.body),
      () => fireEvent.touchStart(document.body)
    ]) {
      const { reports } = started()
      await fire()
      expect(reports).toHaveLength(1)
      stop()
    }
  })

  it('reports at most once every 30 s', async () => {
    const { reports, advance } = started()

    await fireEvent.keyDown(document.body, { key: 'a' })
    advance(ACTIVITY_REPORT_INTERVAL_MS - 1)
    await fireEvent.keyDown(document.body, { key: 'b' })
    expect(reports).toHaveLength(1)

    advance(1)
    await fireEvent.keyDown(document.body, { key: 'c' })
    expect(reports).toHaveLength(2)
  })

  it('ignores input while the page is hidden, and counts coming back to it', async () => {
    const { reports } = started()
    visibility = 'hidden'

    await fireEvent.pointerDown(document.body)
    expect(reports).toHaveLength(0)

    setVisibility('visible')
    expect(reports).toHaveLength(1)
  })

  it('stops listening when stopped', async () => {
    const { reports } = started()
    stop()
    await fireEvent.keyDown(document.body, { key: 'a' })
    expect(reports).toHaveLength(0)
  })

  it('tells main through presence:activity', async () => {
    const fake = new FakeApi().returns('session:get', { status: 'signedIn', me })
    await startApp(fake)
    await screen.findByRole('button', { name: 'Status' })

    await fireEvent.keyDown(document.body, { key: 'a' })
    await fireEvent.keyDown(document.body, { key: 'b' })

    expect(fake.callsTo('presence:activity')).toEqual([{}])
  })
})
