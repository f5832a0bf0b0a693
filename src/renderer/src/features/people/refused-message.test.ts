// A direct message the other person refuses because they block the user: it stays, failed, with
// its text and main's reason, through the whole renderer against a fake main.
import { fireEvent, screen, waitFor, within } from '@testing-library/svelte'
import { describe, expect, it } from 'vitest'
import { conversation, FakeApi, me, pending } from '../../testing/fake-api'
import { startApp } from '../../testing/start-app'

const chat = conversation({ id: 'u1+u2', kind: 'dm', name: 'Grace Hopper' })
const REFUSED = 'Not sent: Grace Hopper is not accepting messages from you.'

describe('a direct message refused for a block', () => {
  it("keeps the text and says main's reason once, with Retry and Discard", async () => {
    const refused = pending({ conversationId: chat.id, clientId: 'c1', text: 'Lunch tomorrow?', state: 'failed', error: REFUSED })
    const fake = new FakeApi()
      .returns('session:get', { status: 'signedIn', me })
      .returns('conversations:list', [chat])
      .returns('conversations:open', { conversation: chat, messages: [], hasOlder: false, pending: [] })
    await startApp(fake)
    await fireEvent.click(await screen.findByRole('button', { name: /Grace Hopper/ }))
    const history = await screen.findByRole('list', { name: 'Messages' })

    fake.emit('outbox:changed', { conversationId: chat.id, pending: [refused] })
    const item = await within(history).findByText('Lunch tomorrow?')
    const entry = item.closest('li') as HTMLElement
    await waitFor(() => expect(within(entry).getByText(REFUSED)).toBeInTheDocument())
    expect(entry.textContent).not.toContain('Not sent. Not sent')
    expect(within(entry).getByRole('button', { name: 'Retry' })).toHaveAccessibleDescription('Lunch tomorrow?')
    expect(within(entry).getByRole('button', { name: 'Discard' })).toBeInTheDocument()
  })
})
