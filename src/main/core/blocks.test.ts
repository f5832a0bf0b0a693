import { describe, expect, it } from 'vitest'
import type { ChatStanding } from '@shared/people'
import { Blocks } from './blocks'

function blocksOver(blocked: string[], capable: Record<string, boolean>) {
  const changes: (ChatStanding & { userId: string })[] = []
  let reads = 0
  const blocks = new Blocks({
    blocked: async () => {
      reads += 1
      return blocked
    },
    canMessage: async (userId) => capable[userId] ?? true,
    changed: (userId, standing) => changes.push({ userId, ...standing })
  })
  return { blocks, changes, reads: () => reads }
}

describe('Blocks', () => {
  it('reads whether two can write to each other, and who blocks whom only when one does', async () => {
    const { blocks, reads } = blocksOver(['7'], { '7': false, '8': false })
    expect(await blocks.standingWith('9')).toEqual({ canMessage: true, blockedByMe: false })
    expect(reads()).toBe(0)
    expect(await blocks.standingWith('7')).toEqual({ canMessage: false, blockedByMe: true })
    expect(await blocks.standingWith('8')).toEqual({ canMessage: false, blockedByMe: false })
    expect(reads()).toBe(1)
  })

  it('tells of a change once, from a block, a refused message or B1 read afresh', async () => {
    const blocked: string[] = []
    const { blocks, changes } = blocksOver(blocked, {})
    await blocks.standingWith('7')
    blocks.learned('7', { canMessage: true, blockedByMe: false })
    // Blocked from the profile: B1 says so too, from now on.
    blocked.push('7')
    blocks.learned('7', { canMessage: false, blockedByMe: true })
    expect(await blocks.blocks('7')).toBe(true)
    // Unblocked on another device, as the next read of B1 says.
    blocked.pop()
    blocks.blockedAre(blocked)
    blocks.refusedBy('7')
    expect(changes).toEqual([
      { userId: '7', canMessage: true, blockedByMe: false },
      { userId: '7', canMessage: false, blockedByMe: true },
      { userId: '7', canMessage: true, blockedByMe: false },
      { userId: '7', canMessage: false, blockedByMe: false }
    ])
    expect(await blocks.blocks('7')).toBe(false)
  })

  it('reads again when someone said not to accept the user’s messages writes to them', async () => {
    const capable: Record<string, boolean> = { '7': false }
    const { blocks, changes } = blocksOver([], capable)
    await blocks.standingWith('7')
    capable['7'] = true
    blocks.heardFrom('7')
    await new Promise((resolve) => setImmediate(resolve))
    expect(changes.at(-1)).toEqual({ userId: '7', canMessage: true, blockedByMe: false })
  })

  it('forgets everything when the session ends', async () => {
    const { blocks, reads } = blocksOver(['7'], {})
    expect(await blocks.blocks('7')).toBe(true)
    blocks.forget()
    expect(await blocks.blocks('7')).toBe(true)
    expect(reads()).toBe(2)
  })
})
