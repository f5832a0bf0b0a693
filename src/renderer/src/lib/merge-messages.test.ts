import { describe, expect, it } from 'vitest'
import { message } from '../testing/fake-api'
import { mergeMessages } from './merge-messages'

describe('mergeMessages', () => {
  it('keeps each id once, oldest first, with the later copy winning', () => {
    const a = message({ conversationId: 'g', text: 'a', createdAt: 10 })
    const b = message({ conversationId: 'g', text: 'b', createdAt: 20 })
    const deletedB = { ...b, deleted: true }
    const c = message({ conversationId: 'g', text: 'c', createdAt: 5 })

    expect(mergeMessages([a, b], [deletedB, c])).toEqual([c, a, deletedB])
  })
})
