import { describe, expect, it } from 'vitest'
import { TypingPublisher } from './typing'

describe('TypingPublisher', () => {
  it('tells the others at most once every 5 s per conversation', () => {
    let now = 0
    const sent: string[] = []
    const typing = new TypingPublisher((conversationId) => sent.push(`${conversationId}@${now}`), () => now)
    typing.typed('g1')
    now = 4_999
    typing.typed('g1')
    typing.typed('g2')
    now = 5_000
    typing.typed('g1')
    now = 9_999
    typing.typed('g2')
    expect(sent).toEqual(['g1@0', 'g2@4999', 'g1@5000', 'g2@9999'])
  })

  it("tells them again at the first keystroke after the user's message lands, since it stopped their typing", () => {
    let now = 0
    const sent: string[] = []
    const typing = new TypingPublisher((conversationId) => sent.push(`${conversationId}@${now}`), () => now)
    typing.typed('g1')
    typing.typed('g2')
    now = 1_000
    typing.messageLanded('g1')
    now = 1_500
    typing.typed('g1')
    typing.typed('g2')
    now = 2_000
    typing.typed('g1')
    expect(sent).toEqual(['g1@0', 'g2@0', 'g1@1500'])
  })
})
