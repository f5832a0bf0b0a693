import { describe, expect, it } from 'vitest'
import { chatId, compareIds, conversationKind, otherParticipant } from './conversation-id'

describe('conversation ids', () => {
  it('tells a chat from a group', () => {
    expect(conversationKind('123')).toBe('group')
    expect(conversationKind('12+345')).toBe('dm')
  })

  it('writes the smaller user id first, by number not by text', () => {
    expect(chatId('345', '12')).toBe('12+345')
    expect(chatId('9', '10')).toBe('9+10')
    expect(chatId('131245991', '93645911')).toBe('93645911+131245991')
    expect(chatId('5', '5')).toBe('5+5')
  })

  it('finds the other participant', () => {
    expect(otherParticipant('9+10', '9')).toBe('10')
    expect(otherParticipant('9+10', '10')).toBe('9')
  })

  it('compares 18-digit message ids exactly', () => {
    expect(compareIds('100000000000000002', '100000000000000001')).toBeGreaterThan(0)
    expect(compareIds('99', '100')).toBeLessThan(0)
    expect(compareIds('100', '100')).toBe(0)
    expect(compareIds('20000000000000000001', '20000000000000000002')).toBeLessThan(0)
    expect(compareIds('007', '7')).toBe(0)
  })
})
