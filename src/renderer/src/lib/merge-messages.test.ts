import { describe, expect, it } from 'vitest'
import { message } from '../testing/fake-api'
import { mergeMessages, withArrival } from './merge-messages'

describe('mergeMessages', () => {
  it('keeps each id once, oldest first, with the later copy winning', () => {
    const a = message({ conversationId: 'g', text: 'a', createdAt: 10 })
    const b = message({ conversationId: 'g', text: 'b', createdAt: 20 })
    const deletedB = { ...b, deleted: true }
    const c = message({ conversationId: 'g', text: 'c', createdAt: 5 })

    expect(mergeMessages([a, b], [deletedB, c])).toEqual([c, a, deletedB])
  })

  it('orders messages from the same second by their numeric id, whichever run they came in', () => {
    const second = 1_700_000_000
    const nine = message({ id: '9', conversationId: 'g', text: 'nine', createdAt: second })
    const ten = message({ id: '10', conversationId: 'g', text: 'ten', createdAt: second })
    const big = message({ id: '90071992547409930', conversationId: 'g', text: 'big', createdAt: second })

    expect(mergeMessages([big, ten], [nine]).map((m) => m.id)).toEqual(['9', '10', '90071992547409930'])
    expect(mergeMessages([nine], [big, ten]).map((m) => m.id)).toEqual(['9', '10', '90071992547409930'])
  })
})

describe('withArrival', () => {
  const second = 1_700_000_000
  const nine = message({ id: '9', conversationId: 'g', text: 'nine', createdAt: second })
  const ten = message({ id: '10', conversationId: 'g', text: 'ten', createdAt: second })
  const eleven = message({ id: '11', conversationId: 'g', text: 'eleven', createdAt: second + 1 })

  it('puts the newest message last', () => {
    expect(withArrival([nine, ten], eleven)).toEqual([nine, ten, eleven])
    expect(withArrival([], nine)).toEqual([nine])
  })

  it('puts a late message in its place, and a message already shown only once', () => {
    expect(withArrival([nine, eleven], ten)).toEqual([nine, ten, eleven])
    const editedEleven = { ...eleven, text: 'eleven, edited' }
    expect(withArrival([nine, ten, eleven], editedEleven)).toEqual([nine, ten, editedEleven])
  })
})
