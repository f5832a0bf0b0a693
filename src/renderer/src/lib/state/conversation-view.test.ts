import { afterEach, describe, expect, it } from 'vitest'
import type { Message } from '@shared/messages'
import { conversation, FakeApi, message } from '../../testing/fake-api'
import { ConversationViewModel } from './conversation-view.svelte'

const bookClub = conversation({ id: 'g1', name: 'Book club' })
const PAGE = 50

/** A history of `count` messages, served by the fake in pages of PAGE, newest page first. */
function serving(count: number): { fake: FakeApi; messages: Message[] } {
  const messages = Array.from({ length: count }, (_, index) => message({ conversationId: 'g1', text: `Message ${index}` }))
  const fake = new FakeApi()
    .returns('conversations:open', { conversation: bookClub, messages: messages.slice(-PAGE), hasOlder: count > PAGE, pending: [], firstUnreadId: null })
    .handle('messages:loadOlder', ({ beforeId }) => {
      const end = messages.findIndex((m) => m.id === beforeId)
      const start = Math.max(0, end - PAGE)
      return { ok: true, value: { messages: messages.slice(start, end), hasOlder: start > 0 } }
    })
  return { fake: fake.install(), messages }
}

describe('ConversationViewModel, long histories', () => {
  afterEach(() => {
    Reflect.deleteProperty(window, 'api')
  })

  it('keeps where main says the first unread message is', async () => {
    const { fake, messages } = serving(10)
    fake.returns('conversations:open', { conversation: bookClub, messages, hasOlder: false, pending: [], firstUnreadId: messages[6]?.id ?? null })
    const view = new ConversationViewModel()

    await view.open('g1')

    expect(view.firstUnreadId).toBe(messages[6]?.id)
  })

  it('opens with the first unread message loaded when it is older than the newest page, page by page without a kept stretch', async () => {
    const { fake, messages } = serving(400)
    const firstUnread = messages[280]?.id ?? ''
    fake.returns('conversations:open', { conversation: bookClub, messages: messages.slice(-PAGE), hasOlder: true, pending: [], firstUnreadId: firstUnread })
    const view = new ConversationViewModel()

    await view.open('g1')

    expect(fake.callsTo('conversations:openAt')).toEqual([{ conversationId: 'g1', messageId: firstUnread, beforeId: messages[350]?.id }])
    expect(fake.callsTo('messages:loadOlder')).toHaveLength(2)
    expect(view.messages.map((m) => m.id)).toEqual(messages.slice(-150).map((m) => m.id))
    expect(view.firstUnreadId).toBe(firstUnread)
    expect(view.hasOlder).toBe(true)
    // Not a jump the user asked for: nothing is focused or marked.
    expect(view.focusRequest).toBeNull()
  })

  it('opens with the first unread message loaded in one step when this device keeps the stretch', async () => {
    const { fake, messages } = serving(400)
    const firstUnread = messages[300]?.id ?? ''
    fake.returns('conversations:open', { conversation: bookClub, messages: messages.slice(-PAGE), hasOlder: true, pending: [], firstUnreadId: firstUnread })
    fake.returns('conversations:openAt', { found: true, messages: messages.slice(290, 350), hasOlder: true })
    const view = new ConversationViewModel()

    await view.open('g1')

    expect(fake.callsTo('messages:loadOlder')).toEqual([])
    expect(view.messages.map((m) => m.id)).toEqual(messages.slice(290).map((m) => m.id))
  })

  it('opens with what it has when the first unread message cannot be reached', async () => {
    const { fake, messages } = serving(400)
    fake.returns('conversations:open', { conversation: bookClub, messages: messages.slice(-PAGE), hasOlder: true, pending: [], firstUnreadId: messages[100]?.id ?? null })
    fake.fails('messages:loadOlder', 'NETWORK', 'The service cannot be reached.')
    const view = new ConversationViewModel()

    await view.open('g1')

    expect(view.status).toBe('ready')
    expect(view.messages).toHaveLength(PAGE)
    expect(view.olderError).toBeNull()
  })

  it('jumps to a message pages back: loads older pages until it is in, then asks the history to focus it', async () => {
    const { fake, messages } = serving(400)
    const view = new ConversationViewModel()
    await view.open('g1')
    const target = messages[120]?.id ?? ''

    expect(await view.jumpTo(target)).toBe(true)

    expect(fake.callsTo('messages:loadOlder')).toHaveLength(5)
    expect(view.messages.some((m) => m.id === target)).toBe(true)
    expect(view.focusRequest).toEqual({ messageId: target })
  })

  it('asks afresh for focus on each jump, even to the same message', async () => {
    const { messages } = serving(20)
    const view = new ConversationViewModel()
    await view.open('g1')
    await view.jumpTo(messages[3]?.id ?? '')
    const first = view.focusRequest

    await view.jumpTo(messages[3]?.id ?? '')

    expect(view.focusRequest).toEqual(first)
    expect(view.focusRequest).not.toBe(first)
  })

  it('does not jump when the whole history has no such message', async () => {
    const { fake } = serving(120)
    const view = new ConversationViewModel()
    await view.open('g1')

    expect(await view.jumpTo('gone')).toBe(false)

    expect(fake.callsTo('messages:loadOlder')).toHaveLength(2)
    expect(view.hasOlder).toBe(false)
    expect(view.focusRequest).toBeNull()
  })

  it('stops jumping when an older page cannot be loaded, and says why', async () => {
    const { fake, messages } = serving(400)
    const view = new ConversationViewModel()
    await view.open('g1')
    fake.fails('messages:loadOlder', 'NETWORK', 'The service is unreachable.')

    expect(await view.jumpTo(messages[0]?.id ?? '')).toBe(false)

    expect(fake.callsTo('messages:loadOlder')).toHaveLength(1)
    expect(view.olderError).toBe('The service is unreachable.')
    expect(view.focusRequest).toBeNull()
  })

  it('joins an older page that overlaps what is shown in order, each message once', async () => {
    const { fake, messages } = serving(120)
    const view = new ConversationViewModel()
    await view.open('g1')
    // A page that reaches into what is shown, as when messages arrived while it was on its way.
    fake.returns('messages:loadOlder', { messages: messages.slice(40, 80), hasOlder: true })

    await view.loadOlder()

    expect(view.messages.map((m) => m.id)).toEqual(messages.slice(40).map((m) => m.id))
  })

  it('asks main once for an older page that two callers want at the same time', async () => {
    const { fake } = serving(400)
    const view = new ConversationViewModel()
    await view.open('g1')

    await Promise.all([view.loadOlder(), view.loadOlder()])

    expect(fake.callsTo('messages:loadOlder')).toHaveLength(1)
    expect(view.messages).toHaveLength(2 * PAGE)
  })

  it('shows a new copy of a message said while its older page was on its way, once the page is in', async () => {
    const { fake, messages } = serving(120)
    const view = new ConversationViewModel()
    const stop = view.listen()
    await view.open('g1')
    const older = fake.holds('messages:loadOlder')
    const loading = view.loadOlder()
    const tombstone = { ...(messages[40] as Message), text: '', deleted: true }
    fake.emit('messages:updated', tombstone)
    older.resolve({ messages: messages.slice(20, 70), hasOlder: true })
    await loading

    expect(view.messages.find((m) => m.id === tombstone.id)).toEqual(tombstone)
    stop()
  })

  it('shows a new copy of a message said while the conversation was opening, once its page is in', async () => {
    const { fake, messages } = serving(10)
    const view = new ConversationViewModel()
    const stop = view.listen()
    const opening = fake.holds('conversations:open')
    const open = view.open('g1')
    const edited = { ...(messages[3] as Message), text: 'Edited while away' }
    fake.emit('messages:updated', edited)
    opening.resolve({ conversation: bookClub, messages, hasOlder: false, pending: [], firstUnreadId: null })
    await open

    expect(view.messages.map((m) => m.text)).toContain('Edited while away')
    // Said once: a later page does not bring it back over a newer copy.
    const newer = { ...edited, text: 'Edited again' }
    fake.emit('messages:updated', newer)
    expect(view.messages.map((m) => m.text)).toContain('Edited again')
    stop()
  })
})
