import { describe, expect, it } from 'vitest'
import type { InvokeHandlers } from '@shared/window-api'
import { UserRequests } from './user-requests'

function held(): { promise: Promise<never>; fail: () => void; answer: () => void } {
  let answer: () => void = () => undefined
  let fail: () => void = () => undefined
  const promise = new Promise<never>((resolve, reject) => {
    answer = () => resolve(null as never)
    fail = () => reject(new Error('refused'))
  })
  return { promise, answer, fail }
}

describe('the user\'s requests on their way', () => {
  it('counts each request from its call to its answer or failure', async () => {
    const requests = new UserRequests()
    const first = held()
    const second = held()
    const answers = [first, second]
    const handlers = { 'messages:loadOlder': () => (answers.shift() ?? held()).promise } as unknown as InvokeHandlers
    const tracked = requests.track(handlers)
    expect(requests.busy).toBe(false)

    const one = tracked['messages:loadOlder']({ conversationId: 'g1', beforeId: '9' })
    const two = tracked['messages:loadOlder']({ conversationId: 'g1', beforeId: '8' }).catch(() => undefined)
    expect(requests.busy).toBe(true)
    first.answer()
    await one
    expect(requests.busy).toBe(true)
    second.fail()
    await two
    expect(requests.busy).toBe(false)
  })

  it('does not count what the page asks on its own', async () => {
    const requests = new UserRequests()
    const never = held()
    const tracked = requests.track({ 'presence:activity': () => never.promise, 'storage:get': () => never.promise } as unknown as InvokeHandlers)
    void tracked['presence:activity']({})
    void tracked['storage:get']({})
    expect(requests.busy).toBe(false)
  })
})
