import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { Message, PendingMessage } from '@shared/messages'
import { conversation, FakeApi, me, message, pending } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const bookClub = conversation({ id: 'g1', name: 'Book club' })

function withHistory(messages: Message[], options: { hasOlder?: boolean; pending?: PendingMessage[] } = {}): FakeApi {
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [bookClub, conversation({ id: 'g2', name: 'Climbing' })])
    .returns('conversations:open', {
      conversation: bookClub,
      messages,
      hasOlder: options.hasOlder ?? false,
      pending: options.pending ?? []
    })
}

async function openBookClub(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
  return screen.findByRole('list', { name: 'Messages' })
}

function composer(): HTMLElement {
  return screen.getByRole('textbox', { name: 'Message' })
}

async function type(text: string): Promise<void> {
  await fireEvent.input(composer(), { target: { value: text } })
}

describe('conversation view', () => {
  it('asks the user to pick a conversation until one is open', async () => {
    await startApp(withHistory([]))
    expect(await screen.findByRole('heading', { name: 'No conversation selected' })).toBeInTheDocument()
  })

  it('shows the history with senders, system and deleted messages', async () => {
    const fake = withHistory([
      message({ conversationId: 'g1', text: 'Grace joined the group', system: true, senderName: 'system' }),
      message({ conversationId: 'g1', text: 'Hello all' }),
      message({ conversationId: 'g1', text: 'Chapter 4?' }),
      message({ conversationId: 'g1', text: 'gone', deleted: true, senderId: 'u3', senderName: 'Alan Turing' })
    ])
    const history = await openBookClub(fake)

    expect(fake.callsTo('conversations:open')).toEqual([{ conversationId: 'g1' }])
    expect(screen.getByRole('heading', { name: 'Book club' })).toBeInTheDocument()
    const items = within(history).getAllByRole('listitem')
    expect(items).toHaveLength(4)
    expect(items[0]).toHaveTextContent('System message: Grace joined the group')
    expect(items[1]).toHaveTextContent('Grace Hopper')
    expect(items[1]).toHaveTextContent('Hello all')
    // The second message from the same sender continues the block: named for screen readers only.
    expect(within(items[2] as HTMLElement).queryByRole('img')).toBeNull()
    expect(items[2]).toHaveTextContent('Grace Hopper: Chapter 4?')
    expect(items[3]).toHaveTextContent('This message was deleted')
    expect(items[3]).not.toHaveTextContent('gone')
  })

  it("shows a sender's avatar named after them, and initials when there is none", async () => {
    const fake = withHistory([
      message({ conversationId: 'g1', text: 'With picture', senderAvatarUrl: 'https://i.example.org/grace.png' }),
      message({ conversationId: 'g1', text: 'Without', senderId: 'u3', senderName: 'Alan Turing' })
    ])
    const history = await openBookClub(fake)

    expect(within(history).getByRole('img', { name: 'Grace Hopper' })).toHaveAttribute('src', 'https://i.example.org/grace.png')
    expect(within(history).getAllByRole('listitem')[1]).toHaveTextContent('AT')
  })

  it('says when there are no messages yet', async () => {
    await openBookClub(withHistory([]))
    expect(screen.getByText('No messages yet. Say hello!')).toBeInTheDocument()
  })

  it('offers to try again when the conversation cannot be opened', async () => {
    const fake = withHistory([]).fails('conversations:open', 'NETWORK', 'Cannot reach the service.')
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Cannot reach the service.'))
    fake.returns('conversations:open', { conversation: bookClub, messages: [], hasOlder: false, pending: [] })
    await fireEvent.click(screen.getByRole('button', { name: 'Try again' }))

    expect(await screen.findByRole('list', { name: 'Messages' })).toBeInTheDocument()
  })

  it('opens again by itself once the connection is back, after failing for want of the service', async () => {
    const fake = withHistory([]).fails('conversations:open', 'NETWORK', 'Cannot reach the service.')
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Cannot reach the service.'))

    fake.returns('conversations:open', { conversation: bookClub, messages: [message({ conversationId: 'g1', text: 'Hello all' })], hasOlder: false, pending: [] })
    fake.emit('push:status', 'reconnecting')
    expect(fake.callsTo('conversations:open')).toHaveLength(1)
    fake.emit('push:status', 'connected')

    expect(await screen.findByText('Hello all')).toBeInTheDocument()
    expect(screen.queryByRole('alert')).toBeNull()
    expect(fake.callsTo('conversations:open')).toHaveLength(2)
  })

  it('does not open again by itself after a refusal, which would only be refused again', async () => {
    const fake = withHistory([]).fails('conversations:open', 'NOT_FOUND', 'That conversation or message no longer exists.')
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('no longer exists'))

    fake.emit('push:status', 'connected')
    await Promise.resolve()
    expect(fake.callsTo('conversations:open')).toHaveLength(1)
  })

  it('takes a message while the conversation cannot be opened, and shows it waiting', async () => {
    const fake = withHistory([])
      .fails('conversations:open', 'NETWORK', 'Cannot reach the service.')
      .handle('messages:send', ({ conversationId, clientId, text }) => ({ ok: true, value: pending({ conversationId, clientId, text }) }))
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Cannot reach the service.'))

    expect(composer()).toBeEnabled()
    await type('Written offline')
    await fireEvent.keyDown(composer(), { key: 'Enter' })

    const history = await screen.findByRole('list', { name: 'Messages' })
    expect(within(history).getByRole('listitem')).toHaveTextContent('Written offline')
    expect(screen.getByRole('alert')).toHaveTextContent('Cannot reach the service.')
  })

  it('opens the conversation main asks to focus', async () => {
    const fake = withHistory([message({ conversationId: 'g1', text: 'Hello all' })])
    await startApp(fake)
    await screen.findByRole('button', { name: /Book club/ })

    fake.emit('conversations:focus', { conversationId: 'g1' })

    expect(await screen.findByText('Hello all')).toBeInTheDocument()
    expect(screen.getByRole('button', { name: /Book club/ })).toHaveAttribute('aria-current', 'true')
  })

  it('appends a received message once, however often it arrives, and announces it', async () => {
    const fake = withHistory([message({ conversationId: 'g1', text: 'Hello all' })])
    const history = await openBookClub(fake)
    const arrived = message({ conversationId: 'g1', text: 'Anyone there?', senderName: 'Alan Turing', senderId: 'u3' })

    fake.emit('messages:received', arrived)
    fake.emit('messages:received', arrived)
    fake.emit('messages:received', message({ conversationId: 'g2', text: 'elsewhere' }))

    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(2))
    expect(within(history).getAllByText('Anyone there?')).toHaveLength(1)
    expect(screen.queryByText('elsewhere')).toBeNull()
    expect(screen.getByText('Alan Turing: Anyone there?', { selector: '[aria-live="polite"]' })).toBeInTheDocument()
  })

  it('keeps what arrives while the conversation is still opening', async () => {
    const loaded = message({ conversationId: 'g1', text: 'Loaded' })
    const early = message({ conversationId: 'g1', text: 'Arrived early' })
    const fake = withHistory([])
    const opening = fake.holds('conversations:open')
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
    expect(await screen.findByText('Loading messages…')).toBeInTheDocument()

    fake.emit('messages:received', early)
    fake.emit('messages:received', loaded)
    opening.resolve({ conversation: bookClub, messages: [loaded], hasOlder: false, pending: [] })

    const history = await screen.findByRole('list', { name: 'Messages' })
    const items = within(history).getAllByRole('listitem')
    expect(items).toHaveLength(2)
    expect(items[0]).toHaveTextContent('Loaded')
    expect(items[1]).toHaveTextContent('Arrived early')
  })

  it('loads older messages on request and puts them on top', async () => {
    const first = message({ conversationId: 'g1', text: 'Newer' })
    const fake = withHistory([first], { hasOlder: true }).returns('messages:loadOlder', {
      messages: [message({ conversationId: 'g1', text: 'Older', createdAt: first.createdAt - 600 })],
      hasOlder: false
    })
    const history = await openBookClub(fake)

    await fireEvent.click(screen.getByRole('button', { name: 'Load older messages' }))

    await waitFor(() => expect(within(history).getAllByRole('listitem')).toHaveLength(2))
    expect(within(history).getAllByRole('listitem')[0]).toHaveTextContent('Older')
    expect(fake.callsTo('messages:loadOlder')).toEqual([{ conversationId: 'g1', beforeId: first.id }])
    expect(screen.getByText('This is the beginning of the conversation.')).toBeInTheDocument()
  })

  it('opens links through main instead of navigating', async () => {
    const fake = withHistory([message({ conversationId: 'g1', text: 'See https://example.org/a.' })])
    await openBookClub(fake)

    const link = screen.getByRole('link', { name: 'https://example.org/a' })
    const event = new MouseEvent('click', { bubbles: true, cancelable: true })
    link.dispatchEvent(event)

    expect(event.defaultPrevented).toBe(true)
    expect(fake.callsTo('shell:openExternal')).toEqual([{ url: 'https://example.org/a' }])
  })
})

describe('composer', () => {
  function acceptingSends(fake: FakeApi): FakeApi {
    return fake.handle('messages:send', ({ conversationId, clientId, text }) => ({
      ok: true,
      value: pending({ conversationId, clientId, text })
    }))
  }

  it('sends on Enter, clears once main has it, and shows it as sending', async () => {
    const fake = acceptingSends(withHistory([]))
    const history = await openBookClub(fake)

    await type('Hello there')
    await fireEvent.keyDown(composer(), { key: 'Enter' })

    await waitFor(() => expect(composer()).toHaveValue(''))
    const [sent] = fake.callsTo('messages:send')
    expect(sent).toMatchObject({ conversationId: 'g1', text: 'Hello there' })
    expect(sent?.clientId).toMatch(/^[0-9a-f-]{36}$/)
    const item = within(history).getByRole('listitem')
    expect(item).toHaveTextContent('Hello there')
    expect(item).toHaveTextContent('Sending…')
  })

  it('adds a new line on Shift+Enter instead of sending', async () => {
    const fake = acceptingSends(withHistory([]))
    await openBookClub(fake)

    await type('first line')
    const notCancelled = await fireEvent.keyDown(composer(), { key: 'Enter', shiftKey: true })

    expect(notCancelled).toBe(true)
    expect(fake.callsTo('messages:send')).toHaveLength(0)
  })

  it('does not send blank text', async () => {
    const fake = acceptingSends(withHistory([]))
    await openBookClub(fake)

    await type('   \n  ')
    await fireEvent.keyDown(composer(), { key: 'Enter' })

    expect(screen.getByRole('button', { name: 'Send' })).toBeDisabled()
    expect(fake.callsTo('messages:send')).toHaveLength(0)
  })

  it('counts and refuses text over 1000 characters', async () => {
    const fake = acceptingSends(withHistory([]))
    await openBookClub(fake)

    await type('x'.repeat(1005))
    await fireEvent.keyDown(composer(), { key: 'Enter' })

    expect(screen.getByText('1005 / 1000')).toBeInTheDocument()
    expect(screen.getByText(/Too long by 5 characters/)).toBeInTheDocument()
    expect(composer()).toHaveAttribute('aria-invalid', 'true')
    expect(fake.callsTo('messages:send')).toHaveLength(0)
  })

  it('keeps the text with the error when main could not take the message', async () => {
    const fake = withHistory([]).fails('messages:send', 'INTERNAL', 'Something went wrong on our side. Please try again.')
    await openBookClub(fake)

    await type('Do not lose me')
    await fireEvent.click(screen.getByRole('button', { name: 'Send' }))

    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong on our side'))
    expect(composer()).toHaveValue('Do not lose me')
  })

  it('offers Retry with the same client id, and Discard, for a failed message', async () => {
    const failed = pending({ conversationId: 'g1', clientId: 'c-1', text: 'Lost in transit', state: 'failed', error: 'Cannot reach the service.' })
    const fake = withHistory([], { pending: [failed] }).returns('messages:retry', { ...failed, state: 'sending', error: null })
    const history = await openBookClub(fake)

    expect(within(history).getByRole('listitem')).toHaveTextContent('Not sent. Cannot reach the service.')
    await fireEvent.click(within(history).getByRole('button', { name: 'Retry' }))

    expect(fake.callsTo('messages:retry')).toEqual([{ conversationId: 'g1', clientId: 'c-1' }])
    await waitFor(() => expect(within(history).getByRole('listitem')).toHaveTextContent('Sending…'))

    fake.emit('outbox:changed', { conversationId: 'g1', pending: [failed] })
    await fireEvent.click(await within(history).findByRole('button', { name: 'Discard' }))
    expect(fake.callsTo('messages:discard')).toEqual([{ conversationId: 'g1', clientId: 'c-1' }])
    await waitFor(() => expect(within(history).queryAllByRole('listitem')).toHaveLength(0))
  })

  it('replaces the pending copy with the message once the service accepted it', async () => {
    const fake = acceptingSends(withHistory([]))
    const history = await openBookClub(fake)
    await type('On its way')
    await fireEvent.keyDown(composer(), { key: 'Enter' })
    await waitFor(() => expect(within(history).getByRole('listitem')).toHaveTextContent('Sending…'))
    const [sent] = fake.callsTo('messages:send')

    fake.emit(
      'messages:received',
      message({ conversationId: 'g1', text: 'On its way', sourceGuid: sent?.clientId ?? '', senderId: me.id, senderName: me.name })
    )

    await waitFor(() => expect(within(history).getByRole('listitem')).not.toHaveTextContent('Sending…'))
    expect(within(history).getAllByRole('listitem')).toHaveLength(1)
  })

  it('keeps a draft per conversation', async () => {
    const fake = withHistory([])
    await openBookClub(fake)
    await type('half a thought')

    fake.returns('conversations:open', { conversation: conversation({ id: 'g2', name: 'Climbing' }), messages: [], hasOlder: false, pending: [] })
    await fireEvent.click(screen.getByRole('button', { name: /Climbing/ }))
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Climbing' })).toBeInTheDocument())
    expect(composer()).toHaveValue('')

    fake.returns('conversations:open', { conversation: bookClub, messages: [], hasOlder: false, pending: [] })
    await fireEvent.click(screen.getByRole('button', { name: /Book club/ }))
    await waitFor(() => expect(screen.getByRole('heading', { name: 'Book club' })).toBeInTheDocument())
    expect(composer()).toHaveValue('half a thought')
    expect(fake.callsTo('conversations:close')).toEqual([{ conversationId: 'g1' }, { conversationId: 'g2' }])
  })
})
