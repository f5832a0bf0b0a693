// The conversation pane's hooks for polls and typing: Create poll and Polls in groups only, the
// poll a message carries, the typing indicator, and typing reported from the composer.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { Conversation } from '@shared/conversations'
import { conversation, FakeApi, me, message } from '../../testing/fake-api'
import { poll } from '../../testing/polls'
import { startApp } from '../../testing/start-app'

const group = conversation({ id: 'g1', name: 'Lunch club' })
const chat = conversation({ id: 'u1+u2', name: 'Grace Hopper', kind: 'dm' })

async function open(target: Conversation, fake = new FakeApi()): Promise<FakeApi> {
  fake
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [group, chat])
    .returns('conversations:open', { conversation: target, messages: [], hasOlder: false, pending: [] })
    .returns('typing:typed', null)
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: new RegExp(target.name) }))
  await screen.findByRole('list', { name: 'Messages' })
  return fake
}

describe('polls in the conversation', () => {
  it('offers Create poll and Polls in a group, and neither in a chat', async () => {
    await open(chat)
    expect(screen.queryByRole('button', { name: 'Create poll' })).not.toBeInTheDocument()
    expect(screen.queryByRole('button', { name: 'Polls' })).not.toBeInTheDocument()
  })

  it('creates a poll in the open group through main', async () => {
    const fake = await open(group)
    fake.returns('polls:create', poll())
    await fireEvent.click(screen.getByRole('button', { name: 'Create poll' }))
    const dialog = screen.getByRole('dialog', { name: 'New poll' })
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Question' }), { target: { value: 'Where to?' } })
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Option 1' }), { target: { value: 'Noodles' } })
    await fireEvent.input(within(dialog).getByRole('textbox', { name: 'Option 2' }), { target: { value: 'Tacos' } })
    await fireEvent.click(within(dialog).getByRole('button', { name: 'Create' }))
    await waitFor(() => expect(fake.calls.find((c) => c.channel === 'polls:create')?.request).toMatchObject({
      conversationId: 'g1',
      poll: { subject: 'Where to?', options: ['Noodles', 'Tacos'] }
    }))
  })

  it('opens the Polls region from its button', async () => {
    const fake = await open(group)
    fake.returns('polls:list', { polls: [poll({ subject: 'Where to?' })], next: null })
    await fireEvent.click(screen.getByRole('button', { name: 'Polls' }))
    expect(await within(screen.getByRole('region', { name: 'Polls' })).findByText('Where to?')).toBeInTheDocument()
  })

  it('draws the poll a message carries', async () => {
    const fake = new FakeApi().returns('polls:get', poll({ subject: 'Where to?' }))
    await open(group, fake)
    fake.emit('messages:received', {
      ...message({ conversationId: 'g1', text: "Created new poll 'Where to?'", attachments: [{ type: 'poll', pollId: '1000000000000001' }] }),
      event: { kind: 'pollCreated', pollId: '1000000000000001', subject: 'Where to?' }
    })
    expect(await screen.findByRole('radio', { name: 'Tacos' })).toBeInTheDocument()
  })
})

describe('typing in the conversation', () => {
  it('tells main the user is typing, and shows who else is', async () => {
    const fake = await open(group)
    await fireEvent.input(screen.getByRole('textbox', { name: 'Message' }), { target: { value: 'h' } })
    expect(fake.calls.filter((c) => c.channel === 'typing:typed').map((c) => c.request)).toEqual([{ conversationId: 'g1' }])

    fake.emit('typing:received', { conversationId: 'g1', userId: 'u2', name: 'Grace', at: Date.now() })
    // The name is an element of its own inside the status (isolated from the words after it).
    await waitFor(() => expect(screen.getAllByRole('status').map((status) => status.textContent)).toContain('Grace is typing…'))
  })
})
