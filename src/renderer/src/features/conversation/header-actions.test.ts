import { describe, expect, it } from 'vitest'
import { actionsThatFit, type HeaderAction } from './header-actions'

const GROUP: HeaderAction[] = ['Pictures', 'Pinned messages', 'Most liked', 'Create poll', 'Polls', 'Group settings', 'Members']
const even = (): number => 36

describe('actionsThatFit', () => {
  it('draws every action where there is room for all, gaps included', () => {
    expect(actionsThatFit(GROUP, even, 6, 7 * 36 + 6 * 6)).toEqual(GROUP)
  })

  it('gives up the least used first, Group settings, then Create poll, Most liked, Pinned messages and Pictures', () => {
    expect(actionsThatFit(GROUP, even, 6, 7 * 36 + 6 * 6 - 1)).toEqual(['Pictures', 'Pinned messages', 'Most liked', 'Create poll', 'Polls', 'Members'])
    expect(actionsThatFit(GROUP, even, 6, 5 * 36 + 4 * 6)).toEqual(['Pictures', 'Pinned messages', 'Most liked', 'Polls', 'Members'])
    expect(actionsThatFit(GROUP, even, 6, 3 * 36 + 2 * 6)).toEqual(['Pictures', 'Polls', 'Members'])
    expect(actionsThatFit(GROUP, even, 6, 2 * 36 + 6)).toEqual(['Polls', 'Members'])
    expect(actionsThatFit(GROUP, even, 6, 36)).toEqual(['Members'])
    expect(actionsThatFit(GROUP, even, 6, 35)).toEqual([])
    expect(actionsThatFit(GROUP, even, 6, -10)).toEqual([])
  })

  it('keeps no action while one kept longer has gone, even one narrow enough for the room left', () => {
    const widths: Partial<Record<HeaderAction, number>> = { Pictures: 80, 'Pinned messages': 10 }
    expect(actionsThatFit(['Pictures', 'Pinned messages'], (action) => widths[action] ?? 0, 0, 50)).toEqual([])
  })

  it('counts only the actions the conversation has: a chat has Pictures and Pinned messages', () => {
    expect(actionsThatFit(['Pictures', 'Pinned messages'], even, 6, 2 * 36 + 6)).toEqual(['Pictures', 'Pinned messages'])
    expect(actionsThatFit(['Pictures', 'Pinned messages'], even, 6, 2 * 36 + 5)).toEqual(['Pictures'])
  })
})
