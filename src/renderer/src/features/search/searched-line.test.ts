import { describe, expect, it } from 'vitest'
import { calendarDay } from '$lib/time-format'
import { searchedLine } from './searched-line'

const march2024 = Date.UTC(2024, 2, 3, 12) / 1000

describe('searchedLine', () => {
  it('says how many messages were searched, back to when, and that the history is whole', () => {
    expect(searchedLine({ messages: 12345, oldestAt: march2024, history: 'complete', conversationsPartial: 0 }, null)).toBe(
      `Searched ${(12345).toLocaleString()} messages kept on this device, back to ${calendarDay(march2024)}. Every conversation is kept from its first message.`
    )
  })

  it('says when older history is still downloading, and for how many conversations', () => {
    expect(searchedLine({ messages: 1, oldestAt: march2024, history: 'downloading', conversationsPartial: 1 }, null)).toMatch(
      /^Searched 1 message kept on this device, back to .+\. Older history is still downloading for 1 conversation\.$/
    )
  })

  it('says when Keep full history is off', () => {
    expect(searchedLine({ messages: 40, oldestAt: march2024, history: 'off', conversationsPartial: 3 }, null)).toMatch(
      /Keep full history is off, so the older messages of 3 conversations are not searched\.$/
    )
  })

  it('names the one conversation searched in', () => {
    expect(searchedLine({ messages: 40, oldestAt: march2024, history: 'complete', conversationsPartial: 0 }, 'Launch Team')).toMatch(
      /^Searched the messages of Launch Team kept on this device, back to /
    )
  })

  it('says when nothing is kept yet', () => {
    expect(searchedLine({ messages: 0, oldestAt: null, history: 'downloading', conversationsPartial: 2 }, null)).toBe('No messages are kept on this device yet.')
  })
})
