import { describe, expect, it } from 'vitest'
import { DownloadPace } from './download-pace'

/** The gaps between the next `count` pages asked for as soon as the pace lets them, from `from`. */
function gaps(pace: DownloadPace, from: number, count: number): number[] {
  const apart: number[] = []
  let at = from
  while (apart.length < count) {
    const wait = pace.untilNext(at)
    at += wait
    pace.asked(at)
    apart.push(wait)
  }
  return apart
}

const pace = (): DownloadPace => new DownloadPace({ intervalMs: 200, fastestMs: 150, longestMakeUpMs: 1_000 })

describe('the history download’s pace', () => {
  it('lets the first page go at once, then one an interval, the time each page took counted in', () => {
    const download = pace()
    expect(download.untilNext(0)).toBe(0)
    download.asked(0)
    expect(download.untilNext(120)).toBe(80)
    download.asked(200)
    expect(download.untilNext(200)).toBe(200)
  })

  it('makes up time given to something else at the fastest interval, until it is on pace again', () => {
    const download = pace()
    download.asked(0)
    // Held up for 500 ms: the next pages go 150 ms apart, each making up 50, until they are where
    // the pace would have them.
    download.asked(700)
    expect(gaps(download, 700, 12)).toEqual([...Array.from({ length: 10 }, () => 150), 200, 200])
  })

  it('forgets time owed beyond the longest it makes up', () => {
    const download = pace()
    download.asked(0)
    download.asked(5_000)
    // Owed 4,800 ms, of which it makes up 1,000: twenty pages at the fastest interval, then the pace.
    expect(gaps(download, 5_000, 22)).toEqual([...Array.from({ length: 20 }, () => 150), 200, 200])
  })

  it('owes nothing after a restart: a service that said it was busy is never asked faster than the pace', () => {
    const download = pace()
    download.asked(0)
    download.restart()
    expect(download.untilNext(10_000)).toBe(0)
    download.asked(10_000)
    expect(download.untilNext(10_000)).toBe(200)
    download.asked(10_200)
    expect(download.untilNext(10_200)).toBe(200)
  })
})
