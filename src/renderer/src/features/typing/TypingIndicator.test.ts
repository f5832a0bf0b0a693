import { render, screen } from '@testing-library/svelte'
import { flushSync } from 'svelte'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { TypistsModel, typingParts } from '$lib/state/typists.svelte'
import { FakeApi, message } from '../../testing/fake-api'
import TypingIndicator from './TypingIndicator.svelte'

/** The typing line as its words read. */
const typingText = (names: readonly string[]): string =>
  typingParts(names)
    .map((part) => (typeof part === 'string' ? part : part.given))
    .join('')

afterEach(() => {
  vi.useRealTimers()
})

describe('typingText', () => {
  it.each([
    [[], ''],
    [['Grace'], 'Grace is typing…'],
    [['Grace', 'Alan'], 'Grace and Alan are typing…'],
    [['Grace', 'Alan', 'Ada'], 'Grace, Alan and Ada are typing…'],
    [['Grace', 'Alan', 'Ada', 'Linus'], 'Grace, Alan and 2 others are typing…']
  ])('names %o', (names, text) => {
    expect(typingText(names)).toBe(text)
  })
})

describe('TypingIndicator', () => {
  it('is a status that reads who is typing', () => {
    render(TypingIndicator, { names: ['Grace', 'Alan'] })
    expect(screen.getByRole('status')).toHaveTextContent(/^Grace and Alan are typing…$/)
  })

  it('isolates each name, so an override left open in one cannot turn the words after it around', () => {
    const name = 'Eve \u202Egnp.exe'
    render(TypingIndicator, { names: [name, 'Alan'] })
    const status = screen.getByRole('status')
    expect(status.textContent).toBe(`${name} and Alan are typing…`)
    expect([...status.querySelectorAll('bdi')].map((bdi) => bdi.textContent)).toEqual([name, 'Alan'])
  })
})

describe('TypistsModel', () => {
  function setUp(): { fake: FakeApi; typists: TypistsModel } {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] })
    const fake = new FakeApi()
    fake.install()
    const typists = new TypistsModel()
    const stop = typists.listen()
    typists.show('g1')
    return { fake, typists: Object.assign(typists, { stop }) }
  }

  it('shows typists of the open conversation, and forgets one after 5 s of silence', () => {
    const { fake, typists } = setUp()
    fake.emit('typing:received', { conversationId: 'g1', userId: 'u2', name: 'Grace', at: Date.now() })
    fake.emit('typing:received', { conversationId: 'g2', userId: 'u3', name: 'Linus', at: Date.now() })
    fake.emit('typing:received', { conversationId: 'g1', userId: 'u4', name: 'Alan', at: Date.now() })
    flushSync()
    expect(typingText(typists.names)).toBe('Grace and Alan are typing…')
    vi.advanceTimersByTime(3_000)
    fake.emit('typing:received', { conversationId: 'g1', userId: 'u4', name: 'Alan', at: Date.now() })
    vi.advanceTimersByTime(2_000)
    flushSync()
    expect(typingText(typists.names)).toBe('Alan is typing…')
    vi.advanceTimersByTime(3_000)
    flushSync()
    expect(typingText(typists.names)).toBe('')
  })

  it('counts a typist stopped when their message arrives', () => {
    const { fake, typists } = setUp()
    fake.emit('typing:received', { conversationId: 'g1', userId: 'u2', name: 'Grace', at: Date.now() })
    fake.emit('messages:received', message({ conversationId: 'g1', text: 'hi', senderId: 'u2' }))
    flushSync()
    expect(typingText(typists.names)).toBe('')
  })

  it('forgets everyone when another conversation opens', () => {
    const { fake, typists } = setUp()
    fake.emit('typing:received', { conversationId: 'g1', userId: 'u2', name: 'Grace', at: Date.now() })
    typists.show('g2')
    flushSync()
    expect(typingText(typists.names)).toBe('')
  })
})
