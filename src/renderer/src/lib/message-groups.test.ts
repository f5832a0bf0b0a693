import { describe, expect, it } from 'vitest'
import { message } from '../testing/fake-api'
import { layoutHistory, StableHistoryLayout } from './message-groups'

const noon = new Date(2026, 2, 3, 12, 0).getTime() / 1000

describe('layoutHistory', () => {
  it('groups one sender’s messages a few minutes apart, but not across a system message or a day', () => {
    const rows = layoutHistory([
      message({ conversationId: 'g', text: 'a', createdAt: noon }),
      message({ conversationId: 'g', text: 'b', createdAt: noon + 60 }),
      message({ conversationId: 'g', text: 'joined', createdAt: noon + 120, system: true }),
      message({ conversationId: 'g', text: 'c', createdAt: noon + 180 }),
      message({ conversationId: 'g', text: 'd', createdAt: noon + 180 + 6 * 60 }),
      message({ conversationId: 'g', text: 'e', createdAt: noon + 86_400 })
    ])
    expect(rows.map((r) => r.continues)).toEqual([false, true, false, false, false, false])
    expect(rows.map((r) => r.startsDay)).toEqual([true, false, false, false, false, true])
  })

  it('starts a new block when the sender changes', () => {
    const rows = layoutHistory([
      message({ conversationId: 'g', text: 'a', createdAt: noon }),
      message({ conversationId: 'g', text: 'b', createdAt: noon + 10, senderId: 'u9' })
    ])
    expect(rows.map((r) => r.continues)).toEqual([false, false])
  })
})

describe('StableHistoryLayout', () => {
  const a = message({ conversationId: 'g', text: 'a', createdAt: noon })
  const b = message({ conversationId: 'g', text: 'b', createdAt: noon + 60 })

  it('hands back the same row objects while their messages keep their place', () => {
    const layout = new StableHistoryLayout()
    const [rowA, rowB] = layout.layout([a, b])
    const again = layout.layout([a, b, message({ conversationId: 'g', text: 'c', createdAt: noon + 120 })])
    expect(again[0]).toBe(rowA)
    expect(again[1]).toBe(rowB)
    expect(again[2]?.message.text).toBe('c')
  })

  it('makes a new row when a message changes or its place in a block does', () => {
    const layout = new StableHistoryLayout()
    const [, rowB] = layout.layout([a, b])
    const [movedB] = layout.layout([b])
    expect(movedB).not.toBe(rowB)
    expect(movedB?.continues).toBe(false)
    const editedB = { ...b, text: 'b, edited' }
    expect(layout.layout([a, editedB])[1]).toEqual({ message: editedB, startsDay: false, continues: true })
  })

  it('lays out a stretch after the message before it, and hands back the same array while nothing in it changed', () => {
    const layout = new StableHistoryLayout()
    const stretch = layout.layout([a, b], 1, 2)
    expect(stretch).toEqual([{ message: b, startsDay: false, continues: true }])
    // A page of older messages put in above: the same rows, so the same array.
    const older = message({ conversationId: 'g', text: 'older', createdAt: noon - 86_400 })
    expect(layout.layout([older, a, b], 2, 3)).toBe(stretch)
    expect(layout.layout([older, a, b], 1, 3)).not.toBe(stretch)
  })
})
