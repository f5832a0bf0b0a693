import { describe, expect, it } from 'vitest'
import { OpenConversation } from './open-conversation'

function opened(): { followed: string[]; opened: OpenConversation } {
  const followed: string[] = []
  const push = { follow: (id: string) => followed.push(`+${id}`), unfollow: (id: string) => followed.push(`-${id}`) }
  return { followed, opened: new OpenConversation({ push, keeper: null }) }
}

describe('the open conversation', () => {
  it('has push follow the conversation open, and let go of the one before', () => {
    const { followed, opened: open } = opened()
    open.open('g1')
    open.open('g2')
    open.open('g2')
    expect(open.id).toBe('g2')
    expect(followed).toEqual(['+g1', '-g1', '+g2', '+g2'])
  })

  it('closes only the conversation that is open', () => {
    const { followed, opened: open } = opened()
    open.open('g1')
    open.close('g2')
    expect(open.id).toBe('g1')
    open.close('g1')
    expect(open.id).toBeNull()
    expect(followed).toEqual(['+g1', '-g1'])
  })

  it('has a new push connection follow it again, and after a sign-out holds none', () => {
    const { followed, opened: open } = opened()
    open.followAgain()
    open.open('g1')
    open.followAgain()
    open.clear()
    open.followAgain()
    expect(open.id).toBeNull()
    expect(followed).toEqual(['+g1', '+g1'])
  })
})
