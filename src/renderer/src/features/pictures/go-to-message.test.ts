// Go to message from a conversation's Pictures: the conversation opens at the picture's message,
// joined from main's store in one piece when it keeps the stretch, else page by page.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import type { Message } from '@shared/messages'
import { conversation, FakeApi, me, message } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const bookClub = conversation({ id: 'g1', name: 'Book club' })
const at = (id: number, text = `Message ${id}`): Message => message({ id: String(id), conversationId: 'g1', text, createdAt: 1_700_000_000 + id })
const newest = [at(100), at(101)]
const picture = { messageId: '42', url: 'https://i.example/42.png', senderName: 'Grace', createdAt: 1_700_000_042 }

function scene(): FakeApi {
  return new FakeApi()
    .returns('session:get', { status: 'signedIn', me })
    .returns('conversations:list', [bookClub])
    .returns('conversations:open', { conversation: bookClub, messages: newest, hasOlder: true, pending: [] })
    .returns('conversations:pictures', { pictures: [picture], next: null })
}

async function goToPicturesMessage(fake: FakeApi): Promise<HTMLElement> {
  await startApp(fake)
  await fireEvent.click(await screen.findByRole('button', { name: /Book club/ }))
  const history = await screen.findByRole('list', { name: 'Messages' })
  await fireEvent.click(screen.getByRole('button', { name: 'Pictures' }))
  const dialog = screen.getByRole('dialog', { name: 'Pictures' })
  await fireEvent.click(await within(dialog).findByRole('button', { name: /^Picture from Grace/ }))
  await fireEvent.click(within(dialog).getByRole('button', { name: 'Go to message' }))
  expect(screen.queryByRole('dialog', { name: 'Pictures' })).toBeNull()
  return history
}

describe('Go to message', () => {
  it('joins the stretch main keeps from a little before the message up to what is shown, and marks the message', async () => {
    const fake = scene().returns('conversations:openAt', { found: true, messages: [at(40), at(41), at(42, 'The sunset'), at(43)], hasOlder: true })
    const history = await goToPicturesMessage(fake)

    await waitFor(() => expect(within(history).getByText('The sunset')).toBeInTheDocument())
    expect(fake.callsTo('conversations:openAt')).toEqual([{ conversationId: 'g1', messageId: '42', beforeId: '100' }])
    const row = history.querySelector('li[data-message-id="42"]')
    expect(row).toHaveClass('highlight')
    expect(history.querySelector('li[data-message-id="41"]')).not.toHaveClass('highlight')
    expect(fake.callsTo('messages:loadOlder')).toEqual([])
  })

  it('reads older pages until the message is in when main keeps no such stretch', async () => {
    const fake = scene()
      .returns('conversations:openAt', { found: false, messages: [], hasOlder: false })
      .handle('messages:loadOlder', ({ beforeId }) => ({
        ok: true,
        value: beforeId === '100' ? { messages: [at(60), at(61)], hasOlder: true } : { messages: [at(41), at(42, 'The sunset')], hasOlder: false }
      }))
    const history = await goToPicturesMessage(fake)

    await waitFor(() => expect(history.querySelector('li[data-message-id="42"]')).toHaveClass('highlight'))
    expect(fake.callsTo('messages:loadOlder')).toEqual([
      { conversationId: 'g1', beforeId: '100' },
      { conversationId: 'g1', beforeId: '60' }
    ])
  })
})
