import { describe, expect, it } from 'vitest'
import { message } from '../testing/fake-api'
import { layoutHistory } from './message-groups'

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
