import { describe, expect, it } from 'vitest'
import { conversation } from '../../testing/fake-api'
import { ConversationsModel } from './conversations.svelte'

function listed(): ConversationsModel {
  const model = new ConversationsModel()
  model.replace([
    conversation({ id: 'a', name: 'A', lastActivityAt: 500 }),
    conversation({ id: 'b', name: 'B', lastActivityAt: 400, unreadCount: 2 }),
    conversation({ id: 'c', name: 'C', lastActivityAt: 300 }),
    conversation({ id: 'd', name: 'D', lastActivityAt: 200, unreadCount: 1 }),
    conversation({ id: 'e', name: 'E', lastActivityAt: 100 })
  ])
  return model
}

describe('ConversationsModel.step', () => {
  it('goes to the next or previous conversation in the list’s order, and no further than its ends', () => {
    const model = listed()
    model.select('c')
    expect(model.step(1, false)?.id).toBe('d')
    expect(model.step(-1, false)?.id).toBe('b')
    model.select('e')
    expect(model.step(1, false)).toBeUndefined()
    model.select('a')
    expect(model.step(-1, false)).toBeUndefined()
  })

  it('among those with unread messages, skips the read ones', () => {
    const model = listed()
    model.select('a')
    expect(model.step(1, true)?.id).toBe('b')
    model.select('c')
    expect(model.step(1, true)?.id).toBe('d')
    expect(model.step(-1, true)?.id).toBe('b')
    model.select('d')
    expect(model.step(1, true)).toBeUndefined()
  })

  it('with nothing open, or a chat not listed yet, starts from the first or the last', () => {
    const model = listed()
    expect(model.step(1, false)?.id).toBe('a')
    expect(model.step(-1, false)?.id).toBe('e')
    model.select('someone+new')
    expect(model.step(1, true)?.id).toBe('b')
    expect(model.step(-1, true)?.id).toBe('d')
  })
})
